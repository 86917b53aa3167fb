import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BIN, spawnNode } from './helpers/processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');

test('README opens with the two commands: the dev server and the tests', () => {
  const firstBlock = readme.match(/```sh\n([\s\S]*?)```/)?.[1] ?? '';
  assert.match(firstBlock, /^npm install && npx steadfast dev/m);
  assert.match(firstBlock, /^npm test/m);
});

test('every code block that names an example file is that file, verbatim', () => {
  const blocks = [...readme.matchAll(/```ts\n\/\/ (examples\/\S+)\n([\s\S]*?)```/g)];
  assert.ok(blocks.length >= 3, 'README shows the example files');
  for (const [, path, body] of blocks) {
    assert.equal(body!.trimEnd(), readFileSync(`${root}${path}`, 'utf8').trimEnd(), `README block for ${path}`);
  }
});

test('every file and command the README tells a newcomer to run exists', async () => {
  for (const [, path] of readme.matchAll(/npx tsx (\S+\.ts)/g)) assert.ok(existsSync(`${root}${path}`), `${path} exists`);
  const commands = new Set([...readme.matchAll(/npx steadfast ([a-z][a-z-]*(?: [a-z][a-z-]*)?)/g)].map((m) => m[1]!));
  for (const command of commands) {
    const child = spawnNode([BIN, ...command.split(' '), '--help']);
    assert.equal(await child.exited, 0, `steadfast ${command} --help: ${child.output()}`);
  }
});

/**
 * Every `steadfast …` command line in a shell block of the README and docs/*.md, joined across
 * `\` continuations, without comments.
 */
function documentedCommandLines(): { file: string; line: string }[] {
  // benchmarks.md is a diary; architecture.md describes changes to the code, not its use.
  const docs = readdirSync(`${root}docs`).filter((f) => f.endsWith('.md') && !['benchmarks.md', 'architecture.md'].includes(f)).map((f) => `docs/${f}`);
  const out: { file: string; line: string }[] = [];
  const add = (file: string, text: string) => {
    // What follows ` | ` is another program in a pipeline, or an alternative of a usage line.
    const line = text.split(' | ')[0]!.replace(/\s+#.*$/, '').replace(/\s+/g, ' ').trim();
    if (line && !/^[-<…]/.test(line)) out.push({ file, line });
  };
  for (const file of ['README.md', ...docs]) {
    const text = readFileSync(`${root}${file}`, 'utf8');
    for (const [, body] of text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
      for (const raw of body!.replace(/\\\n\s*/g, ' ').split('\n')) {
        const m = /^\s*(?:npx )?steadfast (.*)$/.exec(raw);
        if (m) add(file, m[1]!);
      }
    }
    for (const [, inline] of text.replace(/```[\s\S]*?```/g, '').matchAll(/`(?:npx )?steadfast ([^`]+)`/g)) add(file, inline!);
  }
  return out;
}

test('every steadfast command in the README and docs/*.md (shell blocks and inline) names a real command, and its --help lists each flag it uses', { timeout: 300_000 }, async () => {
  const { COMMANDS } = await import('../src/cli/commands.ts');
  const { ACTIONS } = await import('../src/cli/workflow-help.ts');
  // Commands, the groups of several-word commands (`retry`, `api-key`), and Temporal's `operator` names.
  const names = new Set([...COMMANDS.map((c) => c.name), ...COMMANDS.map((c) => c.name.split(' ')[0]!), 'operator', 'operator namespace', 'operator search-attribute']);
  const byCommand = new Map<string, Set<string>>();
  const lines = documentedCommandLines();
  assert.ok(lines.length >= 20, `the docs show commands (${lines.length} found)`);
  const failures: string[] = [];
  for (const { file, line } of lines) {
    const words = line.split(/\s+/);
    const command = [3, 2, 1].map((n) => words.slice(0, n).join(' ')).find((c) => names.has(c));
    if (!command) {
      failures.push(`${file}: "steadfast ${line}" names no command of steadfast`);
      continue;
    }
    const next = words[command.split(' ').length];
    const action = command === 'workflow' && next !== undefined && /^[a-z]/.test(next) ? next : undefined;
    if (action !== undefined && !ACTIONS[action]) {
      failures.push(`${file}: "steadfast ${line}" names no workflow action`);
      continue;
    }
    const key = action ? `${command} ${action}` : command;
    const flags = byCommand.get(key) ?? new Set<string>();
    for (const [, flag] of line.matchAll(/(?:^|[\s([])(--[a-z][a-z-]*)/g)) flags.add(flag!);
    byCommand.set(key, flags);
  }
  const entries = [...byCommand];
  const run = async ([command, flags]: [string, Set<string>]) => {
    const child = spawnNode([BIN, ...command.split(' '), '--help']);
    if ((await child.exited) !== 0) return void failures.push(`steadfast ${command} --help failed: ${child.output()}`);
    const help = child.output();
    for (const flag of flags) if (flag !== '--help' && !help.includes(flag)) failures.push(`steadfast ${command} --help does not list ${flag}`);
  };
  const queue = [...entries];
  await Promise.all([0, 1].map(async () => {
    for (let e = queue.shift(); e; e = queue.shift()) await run(e);
  }));
  assert.deepEqual(failures, []);
});
