import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import { ServiceError, ValidationError } from '../../src/common/index.ts';
import { Engine } from '../../src/engine/index.ts';
import type { WorkflowService } from '../../src/protocol/index.ts';
import { limitService, resolveNamespaceLimits, ServerMetrics, startHttpServer } from '../../src/server/index.ts';
import { openStore } from '../../src/store/index.ts';

const refusal = (pattern: RegExp, retryAfterMs?: number) => (err: unknown) =>
  err instanceof ServiceError && err.code === 'ResourceExhausted' && pattern.test(err.message)
  && (retryAfterMs === undefined || err.retryAfterMs === retryAfterMs);

/** A service whose calls answer at once, except long polls, which wait until released. */
function fakeService() {
  const waiting: (() => void)[] = [];
  const answer = async () => ({});
  const service = {
    startWorkflowExecution: answer, signalWorkflowExecution: answer, signalWithStartWorkflowExecution: answer,
    respondActivityTaskCompleted: answer, describeWorkflowExecution: answer,
    pollActivityTaskQueue: () => new Promise((r) => waiting.push(() => r(null))),
  } as unknown as WorkflowService;
  return { service, release: () => waiting.shift()?.() };
}

test('limits: options are checked by name; 0 turns a limit off', () => {
  assert.deepEqual(resolveNamespaceLimits(undefined), { startsPerSecond: 2400, signalsPerSecond: 2400, maxLongPolls: 1200 });
  assert.throws(() => resolveNamespaceLimits({ startsPerSecond: -1 }), (e: unknown) => e instanceof ValidationError && e.message === 'limits.startsPerSecond must be a number >= 0, got -1');
  assert.throws(() => resolveNamespaceLimits({ maxLongPolls: 1.5 }), /limits\.maxLongPolls must be an integer, got 1\.5/);
  assert.throws(() => resolveNamespaceLimits({ rps: 5 } as never), /limits\.rps is not a limit \(known: startsPerSecond, signalsPerSecond, maxLongPolls\)/);
});

test('limits: starts and signals over their rate are refused per namespace with the wait, and allowed again as time passes', async () => {
  let now = 0;
  const { service } = fakeService();
  const limited = limitService(service, { startsPerSecond: 2, signalsPerSecond: 1, maxLongPolls: 0 }, () => now);
  await limited.startWorkflowExecution({ namespace: 'a' } as never);
  await limited.startWorkflowExecution({ namespace: 'a' } as never);
  await assert.rejects(limited.startWorkflowExecution({ namespace: 'a' } as never), refusal(/namespace "a" is over its limit of 2 workflow starts per second; retry in 500 ms/, 500));
  await limited.startWorkflowExecution({ namespace: 'b' } as never);
  await limited.signalWorkflowExecution({} as never);
  await assert.rejects(limited.signalWithStartWorkflowExecution({} as never), refusal(/"default" is over its limit of 1 signals per second/));
  now += 500;
  await limited.startWorkflowExecution({ namespace: 'a' } as never);
  now += 1000;
  await limited.signalWorkflowExecution({} as never);
  // Task-token calls are never limited.
  for (let i = 0; i < 10; i++) await limited.respondActivityTaskCompleted({} as never);
});

test('limits: long polls over the cap are refused until one ends; 0 turns the cap off', async () => {
  const { service, release } = fakeService();
  const limited = limitService(service, { maxLongPolls: 2 });
  const polls = [limited.pollActivityTaskQueue({ taskQueue: 'q' } as never), limited.pollActivityTaskQueue({ taskQueue: 'q' } as never)];
  await assert.rejects(limited.pollActivityTaskQueue({ taskQueue: 'q' } as never), refusal(/already has 2 long polls open on this server, its limit/, 1000));
  const other = limited.pollActivityTaskQueue({ namespace: 'other', taskQueue: 'q' } as never);
  release();
  await polls[0];
  const third = limited.pollActivityTaskQueue({ taskQueue: 'q' } as never);
  release();
  release();
  release();
  await Promise.all([polls[1], other, third]);
  const open = limitService(fakeService().service, { maxLongPolls: 0 });
  assert.equal(typeof open.pollActivityTaskQueue, 'function');
});

test('limits over HTTP: a refused start is 429 with Retry-After, and the client waits and gets every start through', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-limits-'));
  const store = await openStore(`sqlite:${join(dir, 'db.sqlite')}`);
  const engine = await Engine.create({ store });
  const metrics = new ServerMetrics();
  const http = await startHttpServer({ service: engine, port: 0, metrics, limits: { startsPerSecond: 2 } });
  try {
    const start = (id: string) => fetch(`${http.address}/api/v1/startWorkflowExecution`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowId: id, workflowType: 't', taskQueue: 'q', requestId: id }),
    });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => start(`raw-${i}`)));
    const refused = answers.filter((a) => a.status === 429);
    assert.ok(refused.length >= 1, 'a burst over the limit is refused');
    assert.equal(refused[0]!.headers.get('retry-after'), '1');
    const body = await refused[0]!.json() as { error: { code: string; retryAfterMs: number } };
    assert.equal(body.error.code, 'ResourceExhausted');
    assert.ok(body.error.retryAfterMs > 0 && body.error.retryAfterMs <= 500, `retryAfterMs ${body.error.retryAfterMs}`);

    const client = new Client({ address: http.address });
    const handles = await Promise.all(Array.from({ length: 8 }, (_, i) => client.workflow.start('t', { taskQueue: 'q', workflowId: `c-${i}` })));
    assert.equal(handles.length, 8);
    for (const h of handles) assert.equal((await h.describe()).status, 'Running');
    client.close();
    const text = await (await fetch(`${http.address}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('steadfast_requests_total') && l.includes('method="startWorkflowExecution"') && l.includes('status="429"'));
    assert.ok(line && Number(line.split(' ').pop()) >= refused.length, `429s counted in /metrics: ${line}`);
  } finally {
    await http.close();
    await engine.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
