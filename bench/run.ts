/**
 * `npm run bench -- <name> [options]`: runs one benchmark script from bench/, or all of them.
 * Each script exports `run(argv)` and prints a table (and `--json` for machines).
 */
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url);
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();

const [name, ...rest] = process.argv.slice(2);
if (!name || name === '--help' || name === '-h') {
  console.log(`Usage: npm run bench -- <name> [options]\n\nBenchmarks: ${available.join(', ') || '(none)'}\n` +
    'Run one with --help for its options. "all" runs every benchmark with its defaults.');
  process.exit(name ? 0 : 2);
}
const names = name === 'all' ? available : [name];
for (const n of names) {
  if (!available.includes(n)) {
    console.error(`unknown benchmark "${n}"; available: ${available.join(', ')}`);
    process.exit(2);
  }
  const mod = (await import(new URL(`./${n}.bench.ts`, dir).href)) as { run(argv: string[]): Promise<number | void> };
  let code: number | void;
  try {
    code = await mod.run(rest);
  } catch (err) {
    // Bad options (and parseArgs' unknown-option errors) are one line, exit 2.
    console.error(`bench ${n}: ${(err as Error).message}`);
    process.exit(2);
  }
  if (typeof code === 'number' && code !== 0) process.exit(code);
}
