#!/usr/bin/env node
// Runs every test file under test/, src/ and examples/ with node's built-in runner through tsx.
// Arguments filter the files by substring: `npm run test:only -- retry`.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { compileSrc } from './compile-src.mjs';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const passthrough = process.argv.slice(2).filter((a) => a.startsWith('--'));

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

const files = [...walk(join(root, 'test'), []), ...walk(join(root, 'src'), []), ...walk(join(root, 'examples'), [])]
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(', ') || '(all)'}`);
  process.exit(1);
}
// STEADFAST_TEST_TIMES=<file>: each file's time, slowest first, written there.
const times = process.env.STEADFAST_TEST_TIMES;
const timesReporter = times ? [`--test-reporter=${join(root, 'scripts', 'file-times-reporter.mjs')}`, `--test-reporter-destination=${times}`] : [];
// The `steadfast` processes the tests spawn run src/ compiled once to JavaScript, not through tsx.
const compiled = join(root, '.test-dist-cli');
await compileSrc(root, compiled);
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout', ...timesReporter, ...passthrough, ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, STEADFAST_COMPILED_CLI: join(compiled, 'cli', 'main.js') } },
);
process.exit(result.status ?? 1);
