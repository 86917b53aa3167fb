/**
 * Writes test/fixtures/compat/steadfast-0.1.sqlite and its manifest: a database file holding
 * runs in many states, made by the code of the commit that recorded it. Run once, with
 * `npx tsx test/compat/make-fixture.ts`, only to record a new fixture beside the old ones: the
 * committed file is what test/compat/old-database.test.ts opens with today's code, and
 * re-recording it with new code would prove nothing.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { Client } from '../../src/client/index.ts';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import { Worker } from '../../src/worker/index.ts';
import { COMPAT_DB, COMPAT_MANIFEST, COMPAT_T0, COMPAT_WORKFLOWS, type CompatManifest } from './fixture.ts';

const dbPath = fileURLToPath(COMPAT_DB);
for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
const clock = new ManualClock(COMPAT_T0);
const store = SqliteStore.open(dbPath);
const engine = await Engine.create({ store, clock, identity: 'compat-engine' });
const client = new Client({ connection: engine, identity: 'compat-client' });
let flakyFails = true;
const activities = {
  echo: async (s: string) => `echo ${s}`,
  flaky: async (s: string) => {
    if (flakyFails) throw new Error(`flaky ${s} failed`);
    return `flaky ${s}`;
  },
};
const worker = await Worker.create({ connection: engine, taskQueue: 'compat', workflowsPath: COMPAT_WORKFLOWS, activities, identity: 'compat-worker' });
const running = worker.run();

async function settle(): Promise<void> {
  for (let idle = 0; idle < 5;) {
    await delay(5);
    idle = engine.isIdle() ? idle + 1 : 0;
  }
}
async function advance(ms: number): Promise<void> {
  await clock.advance(ms);
  await settle();
}
const start = (type: string, workflowId: string, args: unknown[], extra: object = {}) =>
  client.workflow.start(type, { taskQueue: 'compat', workflowId, args, ...extra });

await client.searchAttributes.create({ name: 'CustomerId', type: 'Keyword' });
await client.searchAttributes.create({ name: 'Priority', type: 'Int' });

const greet = await start('greet', 'compat-completed', ['ada'], { memo: { note: 'finished before the fixture was taken' } });
await settle();
await advance(1000);
await greet.result();

await start('sleeper', 'compat-timer', [30 * 86_400_000]);
const collector = await start('collector', 'compat-signals', []);
await settle();
await collector.signal('addItem', 'a');
await collector.signal('addItem', 'b');
const limiter = await start('limiter', 'compat-update', []);
await settle();
await limiter.executeUpdate('setLimit', { args: [7] });
await start('parent', 'compat-parent', ['compat-child']);
await start('looper', 'compat-chain', [0, 3]);
await start('waiter', 'compat-search', ['sa'], { searchAttributes: { CustomerId: 'c-42', Priority: 3 } });
await start('retrier', 'compat-retry', ['r']);
const doomed = await start('waiter', 'compat-terminated', ['t']);
await settle();
await doomed.terminate('fixture');
await client.schedule.create({
  scheduleId: 'compat-schedule',
  spec: { intervals: [{ every: '1h' }] },
  action: { type: 'startWorkflow', workflowType: 'greet', taskQueue: 'compat', workflowId: 'compat-scheduled', args: ['sched'] },
});
await settle();
await advance(3_600_000);
await advance(1000);
flakyFails = false;

await worker.shutdown();
await running;
await engine.shutdown();

const manifest: CompatManifest = { clock: clock.now(), runs: [], histories: {} };
for await (const e of client.workflow.list({ pageSize: 1000 })) {
  manifest.runs.push({ workflowId: e.workflowId, runId: e.runId, workflowType: e.workflowType, status: e.status });
  const history = await engine.getWorkflowExecutionHistory({ workflowId: e.workflowId, runId: e.runId, pageSize: 10_000 });
  manifest.histories[e.runId] = history.events;
}
manifest.runs.sort((a, b) => a.workflowId.localeCompare(b.workflowId) || a.runId.localeCompare(b.runId));
await store.close();

const db = new Database(dbPath);
db.pragma('journal_mode = DELETE');
db.exec('VACUUM');
db.close();
writeFileSync(COMPAT_MANIFEST, `${JSON.stringify(manifest, null, 1)}\n`);
console.log(`wrote ${dbPath}: ${manifest.runs.length} runs`);
