import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { Q } from '../../src/store/sqlite/queries.ts';
import { toEvent, toExecution } from '../../src/store/rows.ts';
import { registerStoreConformance } from './conformance.ts';
import { registerNamespaceConformance } from './namespace-conformance.ts';

const dir = mkdtempSync(join(tmpdir(), 'steadfast-sqlite-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
let n = 0;

registerStoreConformance('sqlite', async () => {
  const store = SqliteStore.open(join(dir, `store-${++n}.db`));
  return { store, close: () => store.close() };
});

registerNamespaceConformance('sqlite', async () => {
  const store = SqliteStore.open(join(dir, `ns-${++n}.db`));
  return { store, close: () => store.close() };
});

registerStoreConformance('sqlite without group commit', async () => {
  const store = SqliteStore.open(join(dir, `plain-${++n}.db`), { groupCommit: false });
  return { store, close: () => store.close() };
});

test('sqlite: reopening a migrated file applies nothing twice and keeps the data', async () => {
  const path = join(dir, 'reopen.db');
  const a = SqliteStore.open(path);
  await a.commit({ executions: [], createTimers: [{ id: 't1', namespace: 'default', runId: 'r', kind: 'UserTimer', dueAt: 5, data: {} }] });
  await a.close();
  const b = SqliteStore.open(path);
  assert.equal(await b.nextWakeTime(0), 5);
  await b.close();
});

test('sqlite: what the writing store answers from memory equals what another reader finds in the file', async () => {
  const path = join(dir, 'cache.db');
  const store = SqliteStore.open(path);
  const runId = `run-cache-${process.pid}`;
  const ev = (eventId: number) => ({ eventId, eventType: 'WorkflowTaskScheduled' as const, eventTime: new Date(1000).toISOString(),
    attributes: { taskQueue: 'q', startToCloseTimeoutMs: 10, attempt: 1 } });
  const rec = { namespace: 'default', workflowId: 'wf-cache', runId, workflowType: 'order', taskQueue: 'q', status: 'Running' as const,
    startTime: 1000, executionTime: 1000, nextEventId: 3, attempt: 1, firstExecutionRunId: runId, originalExecutionRunId: runId,
    version: 1, state: { n: 0 } };
  await store.commit({ executions: [{ record: rec, events: [ev(1), ev(2)] }] });
  await store.commit({ executions: [{ record: { ...rec, nextEventId: 5, version: 2, state: { n: 1 } }, expectedVersion: 1, events: [ev(3), ev(4)] }] });
  const reader = new Database(path, { readonly: true });
  const fromFile = {
    execution: () => toExecution(reader.prepare(Q.getExecution).get({ runId }) as Record<string, unknown>),
    history: (fromEventId: number, limit: number) =>
      (reader.prepare(Q.readHistory).all({ runId, fromEventId, limit }) as Record<string, unknown>[]).map(toEvent),
  };
  assert.deepEqual(await store.getExecution(runId), fromFile.execution());
  assert.deepEqual(await store.readHistory(runId, 1, 100), fromFile.history(1, 100));
  assert.deepEqual(await store.readHistory(runId, 2, 2), fromFile.history(2, 2));
  // A conflict forgets the cached run, so the next read is the file's.
  await assert.rejects(store.commit({ executions: [{ record: { ...rec, nextEventId: 5, version: 2 }, expectedVersion: 1, events: [ev(3), ev(4)] }] }),
    /changed since version 1/);
  assert.deepEqual(await store.getExecution(runId), fromFile.execution());
  reader.close();
  await store.close();
});

test('sqlite: one store owns a database file; a lock left by a process that is gone is taken over', async () => {
  const path = join(dir, 'owned.db');
  const store = SqliteStore.open(path);
  assert.throws(() => SqliteStore.open(path), /owned\.db is already open in this process; one steadfast server owns a SQLite file/);
  await store.close();
  // Another live process holds it.
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
  try {
    writeFileSync(`${path}.lock`, String(other.pid));
    assert.throws(() => SqliteStore.open(path), new RegExp(`already open in process ${other.pid}.*delete .*owned\\.db\\.lock`));
  } finally {
    other.kill();
    await new Promise((resolve) => other.once('exit', resolve));
  }
  // That process is gone now (a crash leaves its lock behind): the next open takes over.
  const again = SqliteStore.open(path);
  assert.equal(readFileSync(`${path}.lock`, 'utf8'), String(process.pid));
  await again.close();
  assert.equal(existsSync(`${path}.lock`), false, 'closing releases the file');
});

test('sqlite: writes of one event-loop turn share one COMMIT', async () => {
  const store = SqliteStore.open(join(dir, 'group.db'));
  const before = store.writeStats.commits;
  await Promise.all(Array.from({ length: 50 }, (_, i) => store.commit({
    executions: [], createTimers: [{ id: `g${i}`, namespace: 'default', runId: 'r', kind: 'UserTimer', dueAt: i, data: {} }],
  })));
  assert.equal(store.writeStats.commits - before, 1);
  assert.equal(store.writeStats.maxBatch, 50);
  await store.close();
});

test('sqlite: an op that fails after writing rolls back alone; the rest of its batch commits', async () => {
  const store = SqliteStore.open(join(dir, 'fallback.db'));
  const timer = (id: string) => ({ id, namespace: 'default', runId: 'r', kind: 'UserTimer' as const, dueAt: 1, data: {} });
  await store.commit({ executions: [], createTimers: [timer('dup')] });
  const results = await Promise.allSettled([
    store.commit({ executions: [], createTimers: [timer('a')] }),
    // Passes the read-only checks, then hits the primary key after writing timer b.
    store.commit({ executions: [], createTimers: [timer('b'), timer('dup')] }),
    store.commit({ executions: [], createTimers: [timer('c')] }),
  ]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.equal(store.writeStats.commits, 2, 'the replayed batch still commits once');
  const claimed = await store.claimDueTimers({ now: 5, limit: 10, leaseMs: 1, owner: 'x' });
  assert.deepEqual(claimed.map((t) => t.id).sort(), ['a', 'c', 'dup']);
  await store.close();
});

test('openStore: sqlite:PATH creates the folder; other URLs are rejected naming the field', async () => {
  const { openStore } = await import('../../src/store/open-store.ts');
  const store = await openStore(`sqlite:${join(dir, 'nested', 'deeper', 'x.db')}`);
  assert.equal(store.dialect, 'sqlite');
  await store.close();
  await assert.rejects(openStore('mysql://localhost/x'), /database must be sqlite:PATH or postgres:\/\//);
});
