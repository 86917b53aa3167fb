#!/usr/bin/env node
// Inside a checkout the CLI runs from source through tsx; an installed package runs dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const source = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const built = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
let entry = built;
// The test runner compiles src/ once (scripts/compile-src.mjs) and names the result here.
const compiled = process.env.STEADFAST_COMPILED_CLI;
if (compiled && existsSync(compiled)) {
  entry = compiled;
} else if (existsSync(source)) {
  try {
    const { register } = await import('tsx/esm/api');
    register();
    entry = source;
  } catch {
    if (!existsSync(built)) {
      console.error('steadfast: cannot run from source (tsx is not installed) and dist/ is not built: run npm install');
      process.exit(1);
    }
  }
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
