import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { DeterminismViolationError } from '../../src/common/errors.ts';
import { Replayer } from '../../src/testing/index.ts';
import { ReplayFlags } from '../../src/workflow/flags.ts';
import { harness, replay, types } from './harness.ts';
import { HistoryBuilder } from './history-builder.ts';
import { setup } from '../engine/helpers.ts';
import { runWithFixture } from '../helpers/fixture.ts';

const FLAGS = fileURLToPath(new URL('../fixtures/workflows/flags.ts', import.meta.url));
const FLAG = ReplayFlags.CommandsAfterCloseKept.id;

/** A history up to the task in which the activity completes and an update is accepted together. */
function racingHistory(): HistoryBuilder {
  const h = new HistoryBuilder({ workflowType: 'closesBeforeUpdate' });
  h.startTask();
  h.completeTask([{ commandType: 'ScheduleActivityTask', attributes: { activityId: '1', activityType: 'echo', args: ['x'], startToCloseTimeoutMs: 5000 } }]);
  h.activityCompleted('1', 'x');
  h.add('WorkflowExecutionUpdateAccepted', { updateId: 'u-1', updateName: 'slow', args: [] });
  h.startTask();
  return h;
}
const acceptedEventId = (h: HistoryBuilder) => h.events.find((e) => e.eventType === 'WorkflowExecutionUpdateAccepted')!.eventId;
const updateDone = (h: HistoryBuilder) => ({
  commandType: 'CompleteWorkflowExecutionUpdate' as const,
  attributes: { updateId: 'u-1', acceptedEventId: acceptedEventId(h), outcome: { result: 'late' } },
});
const runDone = { commandType: 'CompleteWorkflowExecution' as const, attributes: { result: 'done' } };

describe('replay flags', () => {
  test('a new task keeps the update completion that follows the close, sends the close last and records the flag', async () => {
    const h = await harness({ workflowType: 'closesBeforeUpdate' }, FLAGS);
    await h.next();
    h.history.activityCompleted('1', 'x');
    h.history.add('WorkflowExecutionUpdateAccepted', { updateId: 'u-1', updateName: 'slow', args: [] });
    const commands = await h.next();
    assert.deepEqual(types(commands), ['CompleteWorkflowExecutionUpdate', 'CompleteWorkflowExecution']);
    assert.deepEqual(h.run.usedFlags, [FLAG]);
    const completed = h.history.events.filter((e) => e.eventType === 'WorkflowTaskCompleted');
    assert.deepEqual(completed.map((e) => e.attributes.sdkMetadata), [undefined, { langUsedFlags: [FLAG] }], 'only the task that used the flag records it');
  });

  test('a history that recorded the flag replays the new behaviour; without it, the old one (the completion dropped)', async () => {
    const withFlag = racingHistory();
    withFlag.completeTask([updateDone(withFlag), runDone], [FLAG]);
    await Replayer.replayHistory(withFlag.events, { workflowsPath: FLAGS });

    const old = racingHistory();
    old.completeTask([runDone]);
    await Replayer.replayHistory(old.events, { workflowsPath: FLAGS });

    const oldEvents = racingHistory();
    const commands = await replay(oldEvents.events, FLAGS);
    assert.deepEqual(types(commands ?? []), ['CompleteWorkflowExecutionUpdate', 'CompleteWorkflowExecution'], 'unrecorded, the task is new: new behaviour');
  });

  test('the flag decides: the old history with the flag added, and the new one without it, no longer replay', async () => {
    const oldPlusFlag = racingHistory();
    oldPlusFlag.completeTask([runDone], [FLAG]);
    await assert.rejects(Replayer.replayHistory(oldPlusFlag.events, { workflowsPath: FLAGS }), DeterminismViolationError);
    const newWithoutFlag = racingHistory();
    newWithoutFlag.completeTask([updateDone(newWithoutFlag), runDone]);
    await assert.rejects(Replayer.replayHistory(newWithoutFlag.events, { workflowsPath: FLAGS }), DeterminismViolationError);
  });

  test('a flag this version does not know fails the replay, naming the flag and the event', async () => {
    const h = racingHistory();
    h.completeTask([runDone], [999]);
    await assert.rejects(Replayer.replayHistory(h.events, { workflowsPath: FLAGS }), /event 11 records replay flag 999, which this version of steadfast does not know/);
  });

  test('the engine records the flags a completion names on its WorkflowTaskCompleted, and checks them', async () => {
    const e = await setup();
    try {
      await e.start('flagged');
      const task = await e.pollWorkflow();
      await assert.rejects(e.engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands: [], identity: 'w', sdkMetadata: { langUsedFlags: [0] } }),
        /sdkMetadata.langUsedFlags\[0\] must be >= 1/);
      await e.engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands: [], identity: 'w', sdkMetadata: { langUsedFlags: [FLAG] } });
      const completed = (await e.history('flagged')).filter((ev) => ev.eventType === 'WorkflowTaskCompleted');
      assert.deepEqual(completed.map((ev) => ev.attributes.sdkMetadata), [{ langUsedFlags: [FLAG] }]);
    } finally {
      await e.close();
    }
  });

  test('flags sent over HTTP are recorded too', async () => {
    await runWithFixture(async (f) => {
      const env = await f.env();
      const post = async (method: string, body: unknown) => {
        const res = await fetch(`${env.address}/api/v1/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        assert.equal(res.status, 200, `${method}: ${await res.clone().text()}`);
        return res.json() as Promise<{ taskToken: string }>;
      };
      await env.client.workflow.start('flagged', { taskQueue: 'http-flags', workflowId: 'http-flags' });
      const task = await post('pollWorkflowTaskQueue', { taskQueue: 'http-flags', identity: 'w', pollTimeoutMs: 5000 });
      await post('respondWorkflowTaskCompleted', { taskToken: task.taskToken, commands: [], identity: 'w', sdkMetadata: { langUsedFlags: [FLAG] } });
      const { events } = await env.client.workflow.getHandle('http-flags').fetchHistory();
      assert.deepEqual(events.find((e) => e.eventType === 'WorkflowTaskCompleted')?.attributes, {
        scheduledEventId: 2, startedEventId: 3, identity: 'w', sdkMetadata: { langUsedFlags: [FLAG] },
      });
    });
  });
});
