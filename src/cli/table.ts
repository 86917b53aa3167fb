import type { Colour } from './colour.ts';
import { paint } from './colour.ts';

/**
 * Renders rows as an aligned text table for people. Numbers are right-aligned; columns are
 * separated by two spaces; the header is underlined. `colourOf` (when colour is on) names a
 * colour for a cell, applied after padding so the columns stay aligned.
 */
export function renderTable(
  headers: string[],
  rows: (string | number | undefined)[][],
  colourOf?: (row: number, column: number, value: string) => Colour | undefined,
): string {
  const cells = rows.map((r) => headers.map((_, i) => (r[i] === undefined ? '' : String(r[i]))));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => r[i] === undefined || typeof r[i] === 'number'));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: string[], row?: number) => r
    .map((c, i) => {
      const padded = numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!);
      return row === undefined || !colourOf ? padded : paint(true, colourOf(row, i, c), padded);
    })
    .join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map((r, row) => line(r, row))].join('\n');
}
