import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from '../../src/worker/index.ts';
import { Client } from '../../src/client/index.ts';
import { makeTestCerts } from '../helpers/certs.ts';
import { BIN, freePort, spawnNode } from '../helpers/processes.ts';

test('steadfast server with --api-keys and TLS: the CLI, a worker and a client reach it with a key and the CA, nothing else does', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-secure-'));
  const certs = makeTestCerts();
  const made = spawnNode([BIN, 'api-key', 'create', '--identity', 'ops', '--permission', 'default:writer']);
  assert.equal(await made.exited, 0, made.output());
  const key = /^key: (\S+)$/m.exec(made.output())![1]!;
  const entry = JSON.parse(/^entry: (.+)$/m.exec(made.output())![1]!) as { sha256: string };
  assert.ok(!made.output().includes(`"${key}"`), 'the entry holds the hash, not the key');
  writeFileSync(join(dir, 'keys.json'), JSON.stringify({ keys: [entry] }));
  writeFileSync(join(dir, 'token-keys.json'), JSON.stringify({ keys: [{ id: 'k1', secret: randomBytes(32).toString('base64') }] }));
  const server = spawnNode([BIN, 'server', '--database', `sqlite:${join(dir, 'db.sqlite')}`, '--port', String(await freePort()),
    '--api-keys', join(dir, 'keys.json'), '--tls-cert', certs.serverCert, '--tls-key', certs.serverKey,
    '--token-key-file', join(dir, 'token-keys.json')]);
  try {
    const address = (await server.waitFor(/listening on (https:\/\/\S+) .*authentication on/))[1]!;
    const cli = (...args: string[]) => spawnNode([BIN, 'workflow', ...args, '--address', address, '--retry-for', '300ms']);
    const started = cli('start', 'echoOnce', '--task-queue', 'q', '--id', 'secure-1', '--args', '[41]', '--api-key', key, '--ca-file', certs.caCert);
    assert.equal(await started.exited, 0, started.output());
    const noKey = cli('list', '--ca-file', certs.caCert);
    assert.equal(await noKey.exited, 1);
    assert.match(noKey.output(), /this server requires credentials/);
    const noCa = cli('list', '--api-key', key);
    assert.equal(await noCa.exited, 1);
    assert.match(noCa.output(), /certificate/i);

    const tls = { ca: certs.read(certs.caCert) };
    const worker = await Worker.create({
      address, apiKey: key, tls, taskQueue: 'q', activities: { echo: async (n: number) => n + 1 },
      workflowsPath: new URL('../fixtures/workflows/e2e.ts', import.meta.url).pathname,
    });
    const client = new Client({ address, apiKey: key, tls });
    try {
      const result = await worker.runUntil(client.workflow.getHandle('secure-1').result());
      assert.equal(result, 42);
    } finally {
      client.close();
    }
  } finally {
    await server.kill('SIGKILL');
    certs.remove();
    rmSync(dir, { recursive: true, force: true });
  }
});
