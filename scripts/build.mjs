#!/usr/bin/env node
// Builds dist/ for the published package: JavaScript and declarations from src/ (tsc with
// tsconfig.build.json, which rewrites the `.ts` import extensions to `.js`). Migrations and
// the workflow runtime are read from the shipped src/ at run time, so nothing else is copied.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = resolve(root, process.argv[2] ?? 'dist');
rmSync(outDir, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json', '--outDir', outDir],
  { cwd: root, stdio: 'inherit' });
process.exit(tsc.status ?? 1);
