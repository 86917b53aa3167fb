/**
 * Renders rows as an aligned text table for people. Numbers are right-aligned; columns are
 * separated by two spaces; the header is underlined.
 */
export function renderTable(headers: string[], rows: (string | number | undefined)[][]): string {
  const cells = rows.map((r) => headers.map((_, i) => (r[i] === undefined ? '' : String(r[i]))));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => r[i] === undefined || typeof r[i] === 'number'));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
