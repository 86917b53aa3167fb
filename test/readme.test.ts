import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
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
