/**
 * The CLI's commands are one explicit list (COMMANDS, src/cli/commands.ts). A command module
 * exports its command; one left out of the list would make that command silently not exist, so
 * every command exported by a module of src/cli/ must be in the list, once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { COMMANDS } from '../../src/cli/commands.ts';
import type { CommandSpec } from '../../src/cli/command-spec.ts';

const CLI = new URL('../../src/cli/', import.meta.url);

function isCommand(v: unknown): v is CommandSpec {
  return typeof v === 'object' && v !== null && typeof (v as CommandSpec).name === 'string'
    && typeof (v as CommandSpec).summary === 'string' && typeof (v as CommandSpec).run === 'function';
}

test('every command a module of src/cli/ exports is in COMMANDS', async () => {
  const exported: string[] = [];
  for (const file of readdirSync(CLI).filter((f) => f.endsWith('.ts')).sort()) {
    const mod = (await import(new URL(file, CLI).href)) as Record<string, unknown>;
    for (const [key, value] of Object.entries(mod)) {
      if (!isCommand(value)) continue;
      exported.push(value.name);
      assert.ok(COMMANDS.includes(value), `${file} exports ${key} (steadfast ${value.name}), which COMMANDS (src/cli/commands.ts) does not list`);
    }
  }
  assert.deepEqual([...exported].sort(), COMMANDS.map((c) => c.name).sort());
});

test('no two commands share a name', () => {
  const names = COMMANDS.map((c) => c.name);
  assert.equal(new Set(names).size, names.length, names.join(', '));
});
