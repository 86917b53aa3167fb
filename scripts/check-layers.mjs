#!/usr/bin/env node
// Enforces DESIGN.md's layering: a folder of src/ imports only from the folders listed before it,
// and code that runs in the workflow sandbox never reaches Node built-ins.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');
// 'errors' (the base error classes every layer raises, the retry library's included) is the bottom.
// 'visibility' (the list filter language and search-attribute types) and 'schedule' (cron and schedule
// specs) import only retry/, common/ and history/, and the wire contract carries their types (search
// attribute types and values, a canonical schedule spec), so both come before protocol/.
// 'protocol' (the wire contract) follows, with the events and commands of history/ its requests carry.
// 'codec' (payload codecs and the service wrapper that applies them) sits right after protocol/, whose
// requests it encodes, and below server/ (the codec server), client/ and worker/.
export const LAYERS = ['errors', 'retry', 'common', 'history', 'visibility', 'schedule', 'protocol', 'codec', 'store', 'engine', 'server', 'client',
  'workflow', 'activity', 'worker', 'testing', 'cli', 'ui'];
// Sandbox code: may import only these layers, and nothing from node:.
const SANDBOX = { workflow: ['errors', 'retry', 'common', 'history', 'workflow'] };

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const problems = [];
const importRe = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
for (const file of walk(src, [])) {
  const rel = relative(src, file);
  const layer = rel.includes('/') ? rel.split('/')[0] : null;
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!layer) continue;
    if (SANDBOX[layer] && (spec.startsWith('node:') || /^(fs|path|os|child_process|net|http|https|crypto|worker_threads)$/.test(spec))) {
      problems.push(`${rel}: sandbox code imports the Node built-in '${spec}'`);
      continue;
    }
    if (!spec.startsWith('.')) continue;
    const target = relative(src, resolve(dirname(file), spec));
    if (target.startsWith('..')) continue;
    const targetLayer = target.includes('/') ? target.split('/')[0] : null;
    if (!targetLayer || targetLayer === layer) continue;
    const allowed = SANDBOX[layer] ?? LAYERS.slice(0, LAYERS.indexOf(layer));
    if (!allowed.includes(targetLayer)) {
      problems.push(`${rel}: layer '${layer}' may not import from '${targetLayer}' (${spec})`);
    }
  }
}
// Inside the engine (DESIGN.md, "Inside the engine"): core/ imports no feature folder, and the
// engine's relative imports (type-only ones too) form no circle.
const ENGINE = join(src, 'engine');
const engineImports = new Map();
for (const file of walk(ENGINE, [])) {
  const rel = relative(src, file);
  const targets = [];
  for (const m of readFileSync(file, 'utf8').matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    if (!target.startsWith(ENGINE + '/')) continue;
    targets.push(target);
    const inCore = rel.startsWith('engine/core/');
    if (inCore && !relative(src, target).startsWith('engine/core/')) {
      problems.push(`${rel}: the engine's core imports '${relative(src, target)}'; features are handed to it when it is built (features.ts)`);
    }
  }
  engineImports.set(file, targets);
}
const state = new Map();
const stack = [];
function visit(file) {
  state.set(file, 'open');
  stack.push(file);
  for (const t of engineImports.get(file) ?? []) {
    if (state.get(t) === 'open') {
      const circle = stack.slice(stack.indexOf(t)).map((f) => relative(src, f));
      problems.push(`import circle in the engine: ${[...circle, relative(src, t)].join(' -> ')}`);
    } else if (!state.has(t)) visit(t);
  }
  stack.pop();
  state.set(file, 'done');
}
for (const file of engineImports.keys()) if (!state.has(file)) visit(file);

// No source file over MAX_LINES lines: a file that long holds more than one thing.
const MAX_LINES = 400;
for (const file of walk(src, [])) {
  const lines = readFileSync(file, 'utf8').split('\n').length - 1;
  if (lines > MAX_LINES) problems.push(`${relative(src, file)}: ${lines} lines, over ${MAX_LINES}; split it`);
}

if (problems.length) {
  console.error(`layer check failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('layer check: ok');
