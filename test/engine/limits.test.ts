import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS, Engine, type EngineLimits } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import type { Command } from '../../src/history/commands.ts';
import { cmd, Harness, T0 } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'steadfast-limits-'));
let n = 0;

async function setupWith(limits: Partial<EngineLimits>, warnings: string[] = []): Promise<Harness> {
  const store = SqliteStore.open(join(dir, `limits-${++n}.db`));
  const clock = new ManualClock(T0);
  const logger = { warn: (m: string) => warnings.push(m), error: () => {} };
  const engine = await Engine.create({ store, clock, identity: `limits-${n}`, limits, logger });
  return new Harness(engine, store, clock, true);
}

const child = (workflowId: string): Command => ({
  commandType: 'StartChildWorkflowExecution', attributes: { workflowId, workflowType: 'kid', args: [] },
});
const cancelExternal = (workflowId: string): Command => ({
  commandType: 'RequestCancelExternalWorkflowExecution', attributes: { workflowId },
});

async function expectLimit(h: Harness, commands: Command[], pattern: RegExp): Promise<void> {
  await h.start('wf-limit');
  const task = await h.pollWorkflow();
  await assert.rejects(h.complete(task, commands), pattern);
  const events = await h.history('wf-limit');
  const failed = events.find((e) => e.eventType === 'WorkflowTaskFailed');
  assert.ok(failed?.eventType === 'WorkflowTaskFailed');
  assert.equal(failed.attributes.cause, 'LimitExceeded');
  assert.match(failed.attributes.failure.message, pattern);
  assert.equal((await h.engine.describeWorkflowExecution({ workflowId: 'wf-limit' })).execution.status, 'Running');
  await h.close();
}

test('the workflow task that would exceed maxPendingActivities fails with LimitExceeded naming the limit', async () => {
  const h = await setupWith({ maxPendingActivities: 2 });
  await expectLimit(h, [cmd.activity('1'), cmd.activity('2'), cmd.activity('3')],
    /commands\[2\]\.attributes would exceed the limit of 2 pending activities per run \(engine limit maxPendingActivities\)/);
});

test('maxPendingChildren and maxPendingCancelRequests are enforced the same way', async () => {
  const h = await setupWith({ maxPendingChildren: 1 });
  await expectLimit(h, [child('k1'), child('k2')], /would exceed the limit of 1 pending child workflows per run \(engine limit maxPendingChildren\)/);
  const h2 = await setupWith({ maxPendingCancelRequests: 1 });
  await expectLimit(h2, [cancelExternal('x1'), cancelExternal('x2')],
    /would exceed the limit of 1 pending cancel requests to external workflows per run \(engine limit maxPendingCancelRequests\)/);
});

test('under the limits the same commands are accepted (the default limits are 2,000)', async () => {
  const h = await setupWith({});
  await h.start('wf-ok');
  await h.complete(await h.pollWorkflow(), [cmd.activity('1'), cmd.activity('2'), cmd.activity('3')]);
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-ok' });
  assert.equal(d.pendingActivities.length, 3);
  await h.close();
});

test('a history past historyWarnEvents is logged; past historyMaxEvents the run is terminated', async () => {
  const warnings: string[] = [];
  const h = await setupWith({ historyWarnEvents: 8, historyMaxEvents: 20 }, warnings);
  await h.start('wf-long');
  for (let i = 1; i <= 10; i++) {
    const t = await h.engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 1000 });
    if (!t) break;
    await h.complete(t, [cmd.timer(String(i), 1000)]);
    await h.advance(1000);
  }
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-long' });
  assert.equal(d.execution.status, 'Terminated');
  const events = await h.history('wf-long');
  const last = events.at(-1)!;
  assert.ok(last.eventType === 'WorkflowExecutionTerminated');
  assert.match(last.attributes.reason, /history has 2\d events, over the limit of 20 \(historyMaxEvents\)/);
  assert.ok(warnings.length >= 2, warnings.join('\n'));
  assert.match(warnings[0]!, /has (8|9|10|11) history events \(warning every 8; terminated past 20\)/);
  await h.close();
});

test('a history past historyWarnBytes is logged at each multiple; past historyMaxBytes the run is terminated', async () => {
  const warnings: string[] = [];
  const h = await setupWith({ historyWarnBytes: 3000, historyMaxBytes: 9000 }, warnings);
  await h.start('wf-heavy');
  for (let i = 1; i <= 10; i++) {
    const t = await h.engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 1000 });
    if (!t) break;
    await h.complete(t, [cmd.timer(String(i), 1000), cmd.activity(String(i), { args: ['y'.repeat(2000)] })]);
    await h.advance(1000);
  }
  const d = await h.engine.describeWorkflowExecution({ workflowId: 'wf-heavy' });
  assert.equal(d.execution.status, 'Terminated');
  const events = await h.history('wf-heavy');
  const last = events.at(-1)!;
  assert.ok(last.eventType === 'WorkflowExecutionTerminated');
  assert.match(last.attributes.reason, /^history has (9\d{3}|1\d{4}) bytes, over the limit of 9000 \(historyMaxBytes\)$/);
  assert.equal(d.execution.historySizeBytes, events.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e), 'utf8'), 0));
  const byteWarnings = warnings.filter((w) => w.includes('bytes of history'));
  assert.ok(byteWarnings.length >= 2, warnings.join('\n'));
  assert.match(byteWarnings[0]!, /has [3-5]\d{3} bytes of history \(warning every 3000; terminated past 9000\); consider continue-as-new/);
  await h.close();
});

test('by default a history warns at 10 MiB and is terminated past 50 MiB', () => {
  assert.equal(DEFAULT_LIMITS.historyWarnBytes, 10 * 1024 * 1024);
  assert.equal(DEFAULT_LIMITS.historyMaxBytes, 50 * 1024 * 1024);
});

test('limits are validated', async () => {
  const store = SqliteStore.open(join(dir, `limits-${++n}.db`));
  await assert.rejects(Engine.create({ store, limits: { maxPendingActivities: 0 } }), /limits\.maxPendingActivities must be >= 1, got 0/);
  await assert.rejects(Engine.create({ store, limits: { maxPending: 3 } as never }), /limits\.maxPending is not a limit/);
  await assert.rejects(Engine.create({ store, limits: { historyMaxBytes: 2 ** 41 } }), /limits\.historyMaxBytes must be <= 1099511627776/);
  await store.close();
});

test('payloads over 2 MiB are rejected with their size: start args, memo, command args, activity results', async () => {
  const h = await setupWith({});
  const big = 'x'.repeat(2 * 1024 * 1024 + 10);
  await assert.rejects(h.start('wf-big', { args: [big] }), /args is 2097166 bytes, over the payload limit of 2097152 bytes \(2 MiB\)/);
  await assert.rejects(h.start('wf-big', { memo: { big } }), /memo is \d+ bytes, over the payload limit of 2097152 bytes/);
  await h.start('wf-small');
  await assert.rejects(h.complete(await h.pollWorkflow(), [cmd.activity('1', { args: [big] })]),
    /commands\[0\]\.attributes\.args is \d+ bytes, over the payload limit/);
  await h.complete(await h.pollWorkflow(), [cmd.activity('1')]);
  const at = await h.pollActivity();
  await assert.rejects(h.engine.respondActivityTaskCompleted({ taskToken: at.taskToken, result: big, identity: 'w' }),
    /result is \d+ bytes, over the payload limit/);
  await h.close();
});
