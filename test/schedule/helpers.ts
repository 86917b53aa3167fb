/** Shared helpers for the schedule tests: chains of next fire times as ISO strings. */

/** Follows `next` from `from` up to `count` times; stops early at null. */
export function chain(next: (after: number) => number | null, from: string, count: number): string[] {
  const out: string[] = [];
  let t = Date.parse(from);
  for (let i = 0; i < count; i++) {
    const n = next(t);
    if (n === null) break;
    out.push(new Date(n).toISOString().replace('.000Z', 'Z'));
    t = n;
  }
  return out;
}
