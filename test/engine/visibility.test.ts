import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '../../src/common/errors.ts';
import { cmd, setup, T0 } from './helpers.ts';

test('list: filters by type, status, id prefix, start and close time; pages with an opaque token', async () => {
  const h = await setup();
  try {
    for (let i = 0; i < 5; i++) {
      await h.start(`order-${i}`, { workflowType: i % 2 ? 'refund' : 'order', memo: { i } });
      await h.advance(1000);
    }
    await h.start('other-1');
    await h.complete(await h.pollWorkflow(), [cmd.complete(1)]);
    const ids = async (req: Record<string, unknown>) => (await h.engine.listWorkflowExecutions(req)).executions.map((e) => e.workflowId);
    assert.deepEqual(await ids({}), ['other-1', 'order-4', 'order-3', 'order-2', 'order-1', 'order-0']);
    assert.deepEqual(await ids({ workflowType: 'refund' }), ['order-3', 'order-1']);
    assert.deepEqual(await ids({ workflowIdPrefix: 'order-' }), ['order-4', 'order-3', 'order-2', 'order-1', 'order-0']);
    assert.deepEqual(await ids({ startTimeFrom: new Date(T0 + 1000).toISOString(), startTimeTo: new Date(T0 + 2000).toISOString() }), ['order-2', 'order-1']);
    const closed = await h.engine.listWorkflowExecutions({ status: 'Completed' });
    assert.equal(closed.executions.length, 1);
    const closeTime = closed.executions[0]!.closeTime!;
    assert.deepEqual(await ids({ closeTimeFrom: closeTime, closeTimeTo: closeTime }), [closed.executions[0]!.workflowId]);
    assert.deepEqual((await h.engine.listWorkflowExecutions({ workflowIdPrefix: 'order-3' })).executions[0]?.memo, { i: 3 });
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await h.engine.listWorkflowExecutions({ pageSize: 2, ...(token ? { nextPageToken: token } : {}) });
      assert.ok(page.executions.length <= 2);
      seen.push(...page.executions.map((e) => e.workflowId));
      token = page.nextPageToken;
    } while (token);
    assert.deepEqual(seen, ['other-1', 'order-4', 'order-3', 'order-2', 'order-1', 'order-0']);
  } finally {
    await h.close();
  }
});

test('history pages; waitForClose long-polls until the run closes', async () => {
  const h = await setup();
  try {
    await h.start('paged');
    await h.complete(await h.pollWorkflow(), [cmd.timer('a', 10), cmd.timer('b', 20), cmd.timer('c', 30)]);
    const all: number[] = [];
    let token: string | undefined;
    do {
      const page = await h.engine.getWorkflowExecutionHistory({ workflowId: 'paged', pageSize: 3, ...(token ? { nextPageToken: token } : {}) });
      all.push(...page.events.map((e) => e.eventId));
      token = page.nextPageToken;
    } while (token);
    assert.deepEqual(all, [1, 2, 3, 4, 5, 6, 7]);
    const timedOut = await h.engine.getWorkflowExecutionHistory({ workflowId: 'paged', closeEventOnly: true, waitForClose: true, waitTimeoutMs: 20 });
    assert.deepEqual(timedOut.events, []);
    const waiting = h.engine.getWorkflowExecutionHistory({ workflowId: 'paged', closeEventOnly: true, waitForClose: true });
    await h.engine.terminateWorkflowExecution({ workflowId: 'paged', reason: 'done' });
    const closed = await waiting;
    assert.equal(closed.events[0]?.eventType, 'WorkflowExecutionTerminated');
    await assert.rejects(h.engine.describeWorkflowExecution({ workflowId: 'nope' }), WorkflowNotFoundError);
  } finally {
    await h.close();
  }
});

test('isIdle: false while a task is ready or handed out, true when only timers remain', async () => {
  const h = await setup();
  try {
    await h.settle();
    assert.equal(h.engine.isIdle(), true, JSON.stringify(h.engine.pendingWork()));
    await h.noWorkflowTask();
    await h.start('idle');
    assert.equal(h.engine.isIdle(), false, 'a workflow task is ready to dispatch on a polled queue');
    const wt = await h.pollWorkflow();
    assert.equal(h.engine.isIdle(), false, 'the task is in flight');
    await h.complete(wt, [cmd.timer('t', 60_000)]);
    await h.settle();
    assert.equal(h.engine.isIdle(), true, JSON.stringify(h.engine.pendingWork()));
    // The clock's next due sleep is the engine's next wake-up: the 60 s timer, or (when the loop
    // went to sleep before this task completed) its task timeout, which wakes it to look again.
    const due = h.clock.nextDue()!;
    assert.ok(due === T0 + 60_000 || due === T0 + 10_000, `next due ${due - T0} ms after start`);
    const p = h.pollWorkflow();
    while (h.clock.now() < T0 + 60_000) {
      await h.advance(h.clock.nextDue()! - h.clock.now());
      await h.settle();
    }
    const wt2 = await p;
    assert.equal(h.clock.now(), T0 + 60_000, 'time skipped exactly to the timer');
    assert.equal(wt2?.history.find((e) => e.eventType === 'TimerFired')?.eventTime, new Date(T0 + 60_000).toISOString());
    assert.equal(h.engine.isIdle(), false);
  } finally {
    await h.close();
  }
});

test('shutdown ends long polls with null at once', async () => {
  const h = await setup();
  const poll = h.engine.pollActivityTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 60_000 });
  const controller = new AbortController();
  const aborted = h.engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 60_000 }, { signal: controller.signal });
  controller.abort();
  assert.equal(await aborted, null);
  await h.close();
  assert.equal(await poll, null);
});
