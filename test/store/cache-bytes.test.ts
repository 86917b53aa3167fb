import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/index.ts';
import { openStore } from '../../src/store/index.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from './pg-helpers.ts';
import { approximateBytes, ByteBoundedMap, resolveCacheMaxBytes } from '../../src/store/byte-bounded-map.ts';
import { ExecutionCache } from '../../src/store/execution-cache.ts';
import { ScheduleCache } from '../../src/store/schedule-cache.ts';
import type { ExecutionRecord, Transition } from '../../src/store/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { ValidationError } from '../../src/common/index.ts';

/**
 * The stores' row caches are bounded by bytes as well as by count: a run's cached row carries its
 * WorkflowExecutionStarted event and so its arguments, and 263 runs started with 1.9 MiB
 * arguments filled a 512 MB heap under a bound of 10,000 runs.
 */

const MiB = 1024 * 1024;

function record(runId: string, version = 1): ExecutionRecord {
  return {
    namespace: 'default', workflowId: runId, runId, workflowType: 't', taskQueue: 'q', status: 'Running', startTime: 0, executionTime: 0,
    nextEventId: 2, attempt: 1, firstExecutionRunId: runId, originalExecutionRunId: runId, version, state: {}, seq: 1,
  };
}

function started(runId: string, argChars: number): Transition {
  const event = { eventId: 1, eventType: 'WorkflowExecutionStarted', eventTime: 0, attributes: { args: ['x'.repeat(argChars)] } } as unknown as HistoryEvent;
  return { executions: [{ record: record(runId), events: [event] }] };
}

test('approximateBytes counts strings at two bytes a character, typed arrays at their bytes, and any depth', () => {
  assert.ok(approximateBytes('x'.repeat(MiB)) >= 2 * MiB);
  assert.ok(approximateBytes({ a: ['x'.repeat(1000)], b: 1 }) > 2000);
  assert.ok(approximateBytes(new Uint8Array(4096)) < 5000);
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.ok(approximateBytes(deep) > 100_000);
});

test('a byte-bounded map evicts the oldest entries past its bytes and past its count, and holds no entry larger than its bytes', () => {
  const m = new ByteBoundedMap<string>(3, 100);
  m.set('a', 'a', 40);
  m.set('b', 'b', 40);
  m.set('c', 'c', 40);
  assert.deepEqual([m.get('a'), m.get('b'), m.get('c'), m.bytes], [undefined, 'b', 'c', 80]);
  m.set('d', 'd', 10);
  m.set('e', 'e', 10);
  assert.deepEqual([m.get('b'), m.size, m.bytes], [undefined, 3, 60], 'the count bound');
  m.set('big', 'big', 101);
  assert.deepEqual([m.get('big'), m.size, m.bytes], [undefined, 3, 60]);
  m.set('c', 'c2', 5);
  assert.deepEqual([m.get('c'), m.bytes], ['c2', 25]);
  m.delete('d');
  assert.equal(m.bytes, 15);
  m.clear();
  assert.deepEqual([m.size, m.bytes], [0, 0]);
});

test('the execution cache holds runs started with 1.9 MiB arguments within its bytes, newest kept', () => {
  const cache = new ExecutionCache(10_000, 64 * MiB);
  for (let i = 0; i < 100; i++) {
    cache.remember(started(`run-${i}`, Math.floor(1.9 * MiB)), [i + 1]);
    assert.ok(cache.bytes <= 64 * MiB, `${cache.bytes} bytes after ${i + 1} runs`);
  }
  assert.ok(cache.get('run-99')?.events, 'the newest run is held with its events');
  assert.equal(cache.get('run-0'), undefined, 'the oldest went');
  assert.equal(cache.history('run-99', 1, 1)?.[0]?.eventId, 1);
});

test('the execution cache counts appended events without measuring the earlier ones again, and drops what it forgets', () => {
  const cache = new ExecutionCache(10, MiB);
  cache.remember(started('r', 1000), [1]);
  const first = cache.bytes;
  const next = { eventId: 2, eventType: 'WorkflowTaskScheduled', eventTime: 0, attributes: { note: 'y'.repeat(5000) } } as unknown as HistoryEvent;
  cache.remember({ executions: [{ record: { ...record('r', 2), nextEventId: 3 }, expectedVersion: 1, events: [next] }] }, [undefined]);
  assert.equal(cache.get('r')?.events?.length, 2);
  assert.ok(cache.bytes >= first + 10_000, `${first} then ${cache.bytes}`);
  cache.delete('r');
  assert.equal(cache.bytes, 0);
});

test('the schedule cache holds rows within its bytes', () => {
  const cache = new ScheduleCache(10_000, 16 * MiB);
  for (let i = 0; i < 50; i++) {
    cache.remember({ executions: [], schedules: [{ record: { namespace: 'default', scheduleId: `s-${i}`, createTime: 0, version: 1,
      state: { action: { args: ['x'.repeat(Math.floor(1.9 * MiB))] } } } }] });
  }
  assert.ok(cache.get('default', 's-49'));
  assert.equal(cache.get('default', 's-0'), undefined);
});

test('cacheMaxBytes is a whole number of bytes >= 0, 64 MiB when not given', () => {
  assert.equal(resolveCacheMaxBytes({}), 64 * MiB);
  assert.equal(resolveCacheMaxBytes({ cacheMaxBytes: 0 }), 0);
  for (const bad of [-1, 1.5, '64MiB']) {
    assert.throws(() => resolveCacheMaxBytes({ cacheMaxBytes: bad as number }),
      (err: unknown) => err instanceof ValidationError && err.message.startsWith('cacheMaxBytes must be a whole number of bytes >= 0, got'));
  }
});

test('a store with its caches off (cacheMaxBytes 0) runs a workflow to its end, on both stores', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-cache-off-'));
  const schema = freshSchema('cache_off');
  const skip = await pgSkipReason('the PostgreSQL cache-off run');
  const urls = [`sqlite:${join(dir, 'off.sqlite')}`, ...(skip ? [] : [`${PG_URL}?schema=${schema}`])];
  try {
    for (const url of urls) {
      await t.test(url.split(':')[0]!, async () => {
        const store = await openStore(url, { cacheMaxBytes: 0 });
        const engine = await Engine.create({ store });
        try {
          await engine.startWorkflowExecution({ workflowId: 'off', workflowType: 'wf', taskQueue: 'off-q', args: ['a'] });
          const task = await engine.pollWorkflowTaskQueue({ taskQueue: 'off-q', identity: 'i', pollTimeoutMs: 5_000 });
          assert.ok(task?.taskToken);
          await engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, identity: 'i',
            commands: [{ commandType: 'CompleteWorkflowExecution', attributes: { result: 'done' } }] });
          const d = await engine.describeWorkflowExecution({ workflowId: 'off' });
          assert.equal(d.execution.status, 'Completed');
          const history = await engine.getWorkflowExecutionHistory({ workflowId: 'off' });
          assert.equal(history.events.at(-1)?.eventType, 'WorkflowExecutionCompleted');
        } finally {
          await engine.shutdown();
          await store.close();
        }
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (!skip) await dropSchema(schema);
  }
});
