// A node:test reporter that writes each test file's time (the sum of its top-level tests), slowest
// first: `STEADFAST_TEST_TIMES=times.txt npm test` (scripts/run-tests.mjs adds it beside spec).
export default async function* (source) {
  const per = new Map();
  for await (const ev of source) {
    if ((ev.type === 'test:pass' || ev.type === 'test:fail') && ev.data.nesting === 0) {
      const f = ev.data.file ?? '?';
      per.set(f, (per.get(f) ?? 0) + (ev.data.details?.duration_ms ?? 0));
    }
  }
  const rows = [...per].sort((a, b) => b[1] - a[1]);
  for (const [f, ms] of rows) yield `${(ms / 1000).toFixed(1)}\t${f}\n`;
}
