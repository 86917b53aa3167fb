import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, type BulkOptions } from '../../src/client/index.ts';
import { historyPageTokenFrom } from '../../src/client/follow-history.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { TestEnvironment } from '../../src/testing/index.ts';

describe('client.workflow.bulk and handle.followHistory', () => {
  let env: TestEnvironment;
  before(async () => {
    env = await TestEnvironment.createLocal();
  });
  after(async () => {
    await env.teardown();
  });

  test('terminates every running match with at most `concurrency` calls in flight, skipping closed runs, reporting progress', async () => {
    for (let i = 1; i <= 20; i++) await env.client.workflow.start('batch', { taskQueue: 'none', workflowId: `batch-${i}` });
    await env.client.workflow.getHandle('batch-7').terminate('early');
    let inFlight = 0;
    let most = 0;
    // A connection whose terminate calls take a while, so the calls of a bulk operation overlap.
    const slow = new Proxy(env.connection, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== 'terminateWorkflowExecution' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          most = Math.max(most, ++inFlight);
          try {
            await new Promise((r) => setTimeout(r, 20));
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            inFlight--;
          }
        };
      },
    });
    const client = new Client({ connection: slow });
    const progress: [number, number][] = [];
    const result = await client.workflow.bulk({
      query: "WorkflowType = 'batch'", operation: { type: 'terminate', reason: 'cleanup' }, concurrency: 3,
      onProgress: (done, total) => progress.push([done, total]),
    });
    assert.deepEqual(result, { total: 20, matched: 20, done: 19, skipped: 1, failed: 0, errors: [] });
    assert.equal(most, 3, 'three calls overlapped, never more');
    assert.deepEqual(progress, Array.from({ length: 20 }, (_, i) => [i + 1, 20]));
    const statuses = new Set<string>();
    for await (const e of env.client.workflow.list({ query: "WorkflowType = 'batch'" })) statuses.add(e.status);
    assert.deepEqual([...statuses], ['Terminated']);
    const again = await env.client.workflow.bulk({ query: "WorkflowType = 'batch'", operation: { type: 'cancel' } });
    assert.deepEqual(again, { total: 20, matched: 20, done: 0, skipped: 20, failed: 0, errors: [] });
  });

  test('signals every running match; failures are counted with their errors, not thrown', async () => {
    for (const id of ['sig-1', 'sig-2']) await env.client.workflow.start('signalled', { taskQueue: 'none', workflowId: id });
    const signalled = await env.client.workflow.bulk({ query: "WorkflowType = 'signalled'", operation: { type: 'signal', signalName: 'poke', args: ['x', 1] } });
    assert.deepEqual([signalled.done, signalled.failed], [2, 0]);
    const event = (await env.client.workflow.getHandle('sig-1').fetchHistory()).events.find((e) => e.eventType === 'WorkflowExecutionSignaled');
    assert.deepEqual(event?.eventType === 'WorkflowExecutionSignaled' && [event.attributes.signalName, event.attributes.args], ['poke', ['x', 1]]);
    // No workflow task of these runs ever completed: there is nothing to reset to.
    const reset = await env.client.workflow.bulk({ query: "WorkflowType = 'signalled'", operation: { type: 'reset', resetType: 'LastWorkflowTask' } });
    assert.deepEqual([reset.matched, reset.done, reset.failed, reset.errors.length], [2, 0, 2, 2]);
    assert.deepEqual(reset.errors.map((e) => e.workflowId).sort(), ['sig-1', 'sig-2']);
    assert.ok(reset.errors.every((e) => e.message.length > 0 && e.runId.length > 0));
  });

  test('refuses bad options with named errors; a bad query or one that groups before any run is touched', async () => {
    const cases: [unknown, RegExp][] = [
      [undefined, /^bulk options must be an object with query and operation, got undefined$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'terminate' }, concurency: 2 }, /^concurency is not a bulk option \(known: query, operation, concurrency, onProgress\)/],
      [{ query: '', operation: { type: 'terminate' } }, /^query must be a non-empty string, got ""$/],
      [{ query: "WorkflowType = 'x'" }, /^operation must be an object such as \{ type: 'terminate', reason \}, got undefined$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'pause' } }, /^operation\.type must be one of cancel, terminate, signal, reset, got "pause"$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'signal' } }, /^operation\.signalName must be a non-empty string, got undefined$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'signal', signalName: 's', args: 'x' } }, /^operation\.args must be an array, got "x"$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'terminate', signalName: 's' } }, /^signalName is not a bulk terminate option \(known: type, reason\)/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'reset', resetType: 'Middle' } }, /^operation\.resetType must be one of FirstWorkflowTask, LastWorkflowTask, got "Middle"$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'reset', resetType: 'FirstWorkflowTask', resetReapplyExcludeTypes: 'Signal' } },
        /^operation\.resetReapplyExcludeTypes must be an array of Signal, Update, got "Signal"$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'reset', resetType: 'FirstWorkflowTask', resetReapplyExcludeTypes: ['Signals'] } },
        /^operation\.resetReapplyExcludeTypes\[0\] must be one of Signal, Update, got "Signals"$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'cancel' }, concurrency: 0 }, /^concurrency must be >= 1, got 0$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'cancel' }, concurrency: 101 }, /^concurrency must be <= 100, got 101$/],
      [{ query: "WorkflowType = 'x'", operation: { type: 'cancel' }, onProgress: 1 }, /^onProgress must be a function, got 1$/],
    ];
    for (const [options, message] of cases) {
      await assert.rejects(env.client.workflow.bulk(options as BulkOptions), (err: Error) => err instanceof ValidationError && message.test(err.message), String(message));
    }
    await assert.rejects(env.client.workflow.bulk({ query: 'GROUP BY ExecutionStatus', operation: { type: 'cancel' } }),
      /^ValidationError: query must not group \(GROUP BY\) in a bulk operation/);
    await assert.rejects(env.client.workflow.bulk({ query: "WorkflowType == 'x'", operation: { type: 'cancel' } }), /^QuerySyntaxError: .* at column 15, found "="$/);
  });

  test('an exception of onProgress stops the operation once the calls in flight end', async () => {
    for (let i = 1; i <= 5; i++) await env.client.workflow.start('stopper', { taskQueue: 'none', workflowId: `stop-${i}` });
    let calls = 0;
    await assert.rejects(env.client.workflow.bulk({
      query: "WorkflowType = 'stopper'", operation: { type: 'terminate' }, concurrency: 1,
      onProgress: () => {
        calls++;
        throw new Error('stop here');
      },
    }), /^Error: stop here$/);
    assert.equal(calls, 1);
    assert.equal((await env.client.workflow.count({ query: "WorkflowType = 'stopper' AND ExecutionStatus = 'Running'" })).count, 4);
  });

  test('followHistory yields every event once until the close event; its page token is the engine\'s', async () => {
    const handle = await env.client.workflow.start('followed', { taskQueue: 'none', workflowId: 'followed-1' });
    const seen: string[] = [];
    const following = (async () => {
      for await (const e of handle.followHistory({ pageSize: 2, pollIntervalMs: 50 })) seen.push(`${e.eventId}:${e.eventType}`);
    })();
    for (const n of [1, 2, 3]) await handle.signal('poke', n);
    await handle.terminate('done');
    await following;
    const all = (await handle.fetchHistory()).events;
    assert.deepEqual(seen, all.map((e) => `${e.eventId}:${e.eventType}`));
    assert.equal(seen.at(-1), `${all.length}:WorkflowExecutionTerminated`);
    const page = await env.connection.getWorkflowExecutionHistory({ workflowId: 'followed-1', pageSize: 2 });
    assert.equal(page.nextPageToken, historyPageTokenFrom(3));
    await assert.rejects(async () => {
      for await (const e of handle.followHistory({ pollIntervalMs: 0 })) void e;
    }, /^ValidationError: pollIntervalMs must be >= 1, got 0$/);
  });
});
