/** `steadfast dev`'s start-dev flags (Temporal's `temporal server start-dev`): namespaces, search attributes, log level, a taken port. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, freePort, spawnNode } from '../helpers/processes.ts';
import { assertExit, assertOneLine, collect } from './cli-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'steadfast-dev-flags-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

test('a taken port is refused in one line before the database file is created', { timeout: 60_000 }, async () => {
  const holder = createServer();
  const port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)));
  try {
    const db = join(dir, 'taken.sqlite');
    const r = await collect(spawnNode([BIN, 'dev', '--port', String(port), '--db', db]));
    assertOneLine(r, 1, new RegExp(`^steadfast dev: port ${port} on 127\\.0\\.0\\.1 is in use; pick another with --port$`), 'dev on a taken port');
    assert.equal(existsSync(db), false, 'no database file was created');
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

test('--namespace and --search-attribute are registered at start; --log-level and the type are checked', { timeout: 120_000 }, async () => {
  assertOneLine(await collect(spawnNode([BIN, 'dev', '--log-level', 'loud', '--db', join(dir, 'x.sqlite')])), 2,
    /^--log-level must be one of debug, info, warn, error, got "loud"$/, 'bad --log-level');
  assertOneLine(await collect(spawnNode([BIN, 'dev', '--search-attribute', 'Region', '--db', join(dir, 'x.sqlite')])), 2,
    /^--search-attribute must be <name>=<type> such as CustomerId=Keyword, got "Region"$/, 'bad --search-attribute');
  const port = await freePort();
  const dev = spawnNode([BIN, 'dev', '--port', String(port), '--db', join(dir, 'dev.sqlite'), '--namespace', 'orders',
    '--search-attribute', 'CustomerId=keyword', '--search-attribute', 'Priority=Int', '--log-level', 'warn']);
  try {
    const address = (await dev.waitFor(/steadfast dev listening on (http:\/\/\S+)/, 60_000))[1]!;
    for (const namespace of ['default', 'orders']) {
      const r = await collect(spawnNode([BIN, 'search-attribute', 'list', '--namespace', namespace, '--json', '--address', address]));
      assertExit(r, 0, `search-attribute list --namespace ${namespace}`);
      const custom = (JSON.parse(r.stdout) as { custom: { name: string; type: string }[] }).custom;
      assert.deepEqual(custom.map((a) => `${a.name}=${a.type}`).sort(), ['CustomerId=Keyword', 'Priority=Int']);
    }
  } finally {
    assert.equal(await dev.kill('SIGTERM'), 0);
  }
});
