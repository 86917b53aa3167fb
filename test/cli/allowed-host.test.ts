import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, freePort, spawnNode } from '../helpers/processes.ts';
import { assertOneLine, collect } from './cli-helpers.ts';

/** The status of `GET /api/v1/health` at `address` sent with this Host header. */
function statusFor(address: string, host: string): Promise<number> {
  const url = new URL(address);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: '/api/v1/health', headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

test('steadfast dev --allowed-host adds a name the open server answers to; others are refused', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-allowed-host-'));
  const port = await freePort();
  const dev = spawnNode([BIN, 'dev', '--port', String(port), '--db', join(dir, 'dev.sqlite'), '--allowed-host', 'steadfast.internal']);
  try {
    const address = (await dev.waitFor(/steadfast dev listening on (http:\/\/\S+)/))[1]!;
    assert.equal(await statusFor(address, `steadfast.internal:${port}`), 200);
    assert.equal(await statusFor(address, `localhost:${port}`), 200);
    assert.equal(await statusFor(address, `elsewhere.example:${port}`), 403);
  } finally {
    await dev.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--allowed-host takes a bare host name, and goes with --insecure on steadfast server', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-allowed-host-'));
  try {
    const bad = await collect(spawnNode([BIN, 'dev', '--db', join(dir, 'a.sqlite'), '--allowed-host', 'http://steadfast.internal']));
    assertOneLine(bad, 2, /--allowed-host must be a host name without scheme or port, such as steadfast\.internal, got "http:\/\/steadfast\.internal"/, 'dev');
    const keys = join(dir, 'keys.json');
    const authed = await collect(spawnNode([BIN, 'server', '--database', `sqlite:${join(dir, 'b.sqlite')}`, '--api-keys', keys, '--allowed-host', 'x']));
    assertOneLine(authed, 2, /--allowed-host goes with --insecure/, 'server');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
