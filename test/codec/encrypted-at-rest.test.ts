import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Client } from '../../src/client/index.ts';
import { Engine } from '../../src/engine/index.ts';
import { startHttpServer } from '../../src/server/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import type { Store } from '../../src/store/types.ts';
import { runWithFixture } from '../helpers/fixture.ts';
import { silentLogger } from '../helpers/logger.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { CODEC_WORKFLOWS, codecK1, keeperActivities, SECRET, sqliteFileText } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'steadfast-codec-'));
const schemas: string[] = [];
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const s of schemas) await dropSchema(s);
});

/**
 * Runs `keeper` over HTTP with an AES-GCM client and worker: the secret goes through the start
 * args, the memo, a signal, a query, an update, an activity's args and result, a side effect, a
 * child's args and result, an activity failure's details and the workflow's result.
 */
async function runKeeper(openStore: () => Store | Promise<Store>): Promise<void> {
  await runWithFixture(async (f) => {
    const store = await openStore();
    f.defer('store', () => store.close());
    const engine = await Engine.create({ store });
    f.defer('engine', () => engine.shutdown());
    const server = await startHttpServer({ service: engine, port: 0 });
    f.defer('server', () => server.close());
    const dataConverter = { payloadCodecs: [codecK1()] };
    const client = new Client({ address: server.address, dataConverter });
    f.defer('client', () => client.close());
    await f.worker({
      address: server.address, taskQueue: 'vault', workflowsPath: CODEC_WORKFLOWS, activities: keeperActivities,
      logger: silentLogger, dataConverter,
    });
    const handle = await client.workflow.start('keeper', {
      workflowId: 'keeper-1', taskQueue: 'vault', args: [SECRET], memo: { owner: SECRET },
    });
    await handle.signal('secret', `sig ${SECRET}`);
    assert.equal(await handle.query('secret', 'q:'), `q:sig ${SECRET}`);
    assert.equal(await handle.executeUpdate('secret', { args: [`upd ${SECRET}`] }), `updated upd ${SECRET}`);
    await handle.signal('secret', 'done');
    assert.equal(await handle.result(),
      `remembered ${SECRET}|side ${SECRET}|child ${SECRET}|refused ${SECRET}|${SECRET}`);
    assert.deepEqual((await handle.describe()).memo, { owner: SECRET, note: `memo ${SECRET}` });
    const { executions: [listed] } = await client.workflow.listPage({ query: "WorkflowId = 'keeper-1'" });
    assert.deepEqual(listed!.memo, { owner: SECRET, note: `memo ${SECRET}` });
    const { events } = await handle.fetchHistory();
    const started = events[0]!;
    assert.ok(started.eventType === 'WorkflowExecutionStarted');
    assert.deepEqual(started.attributes.args, [SECRET], 'fetchHistory decodes');

    // The same history, read by a client without codecs, holds only envelopes.
    const plain = new Client({ address: server.address });
    f.defer('plain client', () => plain.close());
    const raw = await plain.workflow.getHandle('keeper-1').fetchHistory();
    assert.ok(!JSON.stringify(raw).includes(SECRET));
    const rawStart = raw.events[0]!;
    assert.ok(rawStart.eventType === 'WorkflowExecutionStarted');
    const [envelope] = rawStart.attributes.args as [{ $payload: { metadata: Record<string, string> } }];
    assert.equal(Buffer.from(envelope.$payload.metadata.encoding!, 'base64').toString(), 'binary/encrypted');
    assert.equal(Buffer.from(envelope.$payload.metadata['encryption-key-id']!, 'base64').toString(), 'k1');
  });
}

test('with AesGcmCodec the secret is nowhere in the SQLite file (history, visibility, memo), and result() returns it', async () => {
  const path = join(dir, 'vault.sqlite');
  await runKeeper(() => SqliteStore.open(path));
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    const names = tables.map((t) => t.name);
    for (const table of ['executions', 'history_events']) assert.ok(names.includes(table), `table ${table} exists (${names.join(', ')})`);
    let rows = 0;
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
        rows++;
        const text = JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : v));
        assert.ok(!text.includes(SECRET), `table ${name} holds the secret: ${text.slice(0, 300)}`);
      }
    }
    assert.ok(rows > 20, `the run wrote rows (${rows})`);
    const memo = db.prepare("SELECT memo FROM executions WHERE workflow_id = 'keeper-1'").get() as { memo: string };
    assert.match(memo.memo, /"owner":\{"\$payload":/);
  } finally {
    db.close();
  }
  assert.ok(!sqliteFileText(path).includes(SECRET), 'the database file and its WAL hold no plaintext copy');
});

test('with AesGcmCodec the secret is nowhere in the PostgreSQL tables', { skip: await pgSkipReason('the PostgreSQL encrypted-at-rest test') }, async () => {
  const schema = freshSchema('sf_codec');
  schemas.push(schema);
  await runKeeper(() => PostgresStore.open(PG_URL, { schema }));
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
    let rows = 0;
    for (const { table_name } of tables) {
      const { rows: all } = await client.query(`SELECT * FROM "${schema}"."${table_name}"`);
      for (const row of all) {
        rows++;
        assert.ok(!JSON.stringify(row).includes(SECRET), `table ${table_name} holds the secret`);
      }
    }
    assert.ok(rows > 20, `the run wrote rows (${rows})`);
  } finally {
    await client.end();
  }
});
