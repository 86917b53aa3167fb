import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import type { Logger } from '../../src/common/logger.ts';
import { ApiKeys, Authenticator, hashApiKey, ServerMetrics, startHttpServer, type AuthOptions, type HttpServer } from '../../src/server/index.ts';

/** One API key per grant a test needs, by name. */
export const KEYS = {
  reader: 'sfk_reader-key-for-tests-0000000000000000000',
  worker: 'sfk_worker-key-for-tests-0000000000000000000',
  writer: 'sfk_writer-key-for-tests-0000000000000000000',
  admin: 'sfk_admin-key-for-tests-00000000000000000000',
  systemAdmin: 'sfk_system-admin-key-for-tests-000000000000',
  otherWriter: 'sfk_other-writer-key-for-tests-000000000000',
} as const;

const PERMISSIONS: Record<keyof typeof KEYS, string[]> = {
  reader: ['default:reader'], worker: ['default:worker'], writer: ['default:writer'], admin: ['default:admin'],
  systemAdmin: ['system:admin'], otherWriter: ['other:writer'],
};

/** The key file of {@link KEYS}: identities are the names. */
export function testApiKeys(): ApiKeys {
  return ApiKeys.parse({
    keys: Object.entries(KEYS).map(([name, key]) => ({
      sha256: hashApiKey(key), identity: name, permissions: PERMISSIONS[name as keyof typeof KEYS],
    })),
  }, 'test-keys');
}

/** An engine on a fresh SQLite file (logging to `logger`, when given) behind an HTTP server with authentication. */
export async function authServer(auth: AuthOptions = { apiKeys: testApiKeys() }, logger?: Logger): Promise<{
  engine: Engine; http: HttpServer; close(): Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-auth-'));
  const store = SqliteStore.open(join(dir, 'auth.db'));
  const engine = await Engine.create({ store, ...(logger ? { logger } : {}) });
  const http = await startHttpServer({ service: engine, port: 0, auth: Authenticator.create(auth), metrics: new ServerMetrics() });
  return {
    engine, http,
    async close() {
      await http.close();
      await engine.shutdown();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POSTs a JSON body with an optional bearer credential. */
export function post(address: string, method: string, body: unknown, credential?: string): Promise<{ status: number; json: any }> {
  const url = new URL(`/api/v1/${method}`, address);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname, port: url.port, path: url.pathname, method: 'POST',
      headers: { 'content-type': 'application/json', ...(credential ? { authorization: `Bearer ${credential}` } : {}) },
    }, (res) => {
      let out = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (out += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: out ? JSON.parse(out) : null }));
    });
    req.on('error', reject);
    req.end(text);
  });
}
