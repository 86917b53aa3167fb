import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import { ServiceError } from '../../src/common/errors.ts';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { readTlsFiles, startHttpServer, type TlsOptions } from '../../src/server/index.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';

let certs: TestCerts;
const dir = mkdtempSync(join(tmpdir(), 'steadfast-tls-'));
let store: SqliteStore;
let engine: Engine;

before(async () => {
  certs = makeTestCerts();
  store = SqliteStore.open(join(dir, 'tls.db'));
  engine = await Engine.create({ store });
});
after(async () => {
  await engine.shutdown();
  await store.close();
  certs.remove();
  rmSync(dir, { recursive: true, force: true });
});

async function withServer(tls: TlsOptions, fn: (address: string) => Promise<void>): Promise<void> {
  const http = await startHttpServer({ service: engine, port: 0, tls });
  try {
    await fn(http.address);
  } finally {
    await http.close();
  }
}

const unavailable = (pattern: RegExp) => (err: unknown) => err instanceof ServiceError && err.code === 'Unavailable' && pattern.test(err.message);

test('over TLS the client trusts the server by the CA it is given, and refuses an unknown certificate', async () => {
  const tls = readTlsFiles({ certFile: certs.serverCert, keyFile: certs.serverKey });
  await withServer(tls, async (address) => {
    assert.match(address, /^https:\/\/127\.0\.0\.1:\d+$/);
    const trusted = new Client({ address, tls: { ca: certs.read(certs.caCert) } });
    const untrusted = new Client({ address, retry: false });
    const wrongCa = new Client({ address, retry: false, tls: { ca: certs.read(certs.otherCaCert) } });
    const plain = new Client({ address: address.replace('https:', 'http:'), retry: false });
    try {
      const handle = await trusted.workflow.start('t', { taskQueue: 'q', workflowId: 'over-tls' });
      assert.equal((await handle.describe()).status, 'Running');
      await assert.rejects(untrusted.workflow.getHandle('over-tls').describe(), unavailable(/certificate/i));
      await assert.rejects(wrongCa.workflow.getHandle('over-tls').describe(), unavailable(/certificate/i));
      await assert.rejects(plain.workflow.getHandle('over-tls').describe(), (err) => err instanceof ServiceError);
    } finally {
      for (const c of [trusted, untrusted, wrongCa, plain]) c.close();
    }
  });
});

test('with a client CA (mutual TLS) only clients holding a certificate it signed get through', async () => {
  const tls = readTlsFiles({ certFile: certs.serverCert, keyFile: certs.serverKey, clientCaFile: certs.caCert });
  await withServer(tls, async (address) => {
    const ca = certs.read(certs.caCert);
    const withCert = new Client({ address, tls: { ca, cert: certs.read(certs.clientCert), key: certs.read(certs.clientKey) } });
    const without = new Client({ address, retry: false, tls: { ca } });
    try {
      await withCert.workflow.start('t', { taskQueue: 'q', workflowId: 'over-mtls' });
      assert.equal((await withCert.workflow.getHandle('over-mtls').describe()).status, 'Running');
      await assert.rejects(without.workflow.getHandle('over-mtls').describe(), (err) => err instanceof ServiceError && err.code === 'Unavailable');
    } finally {
      withCert.close();
      without.close();
    }
  });
});

test('TLS options are checked: cert and key together, tls only for https, unreadable files named', () => {
  assert.throws(() => new Client({ address: 'https://127.0.0.1:1', tls: { cert: 'x' } }), /tls must give cert and key together/);
  assert.throws(() => new Client({ address: 'http://127.0.0.1:1', tls: { ca: 'x' } }), /tls needs an https:\/\/ address/);
  assert.throws(() => readTlsFiles({ certFile: join(dir, 'missing.pem'), keyFile: certs.serverKey }), /^ValidationError: tlsCert must be a readable PEM file \(ENOENT\)/);
});
