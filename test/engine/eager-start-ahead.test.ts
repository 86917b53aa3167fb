/**
 * An eager start in the engine's own process (StartCallOptions.eagerTaskAhead), on SQLite and
 * PostgreSQL: the run's first workflow task goes to the caller while the start is being written,
 * and the caller learns before the answer whether the run was written. A start whose write fails
 * or loses its race leaves a task that must be dropped: its completion is refused, and the run it
 * names never exists.
 */
import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { faults, FaultInjectedError } from '../../src/common/fault-points.ts';
import { WorkflowNotFoundError } from '../../src/common/errors.ts';
import { ValidationError } from '../../src/errors/index.ts';
import type { WorkflowTask } from '../../src/protocol/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { cmd, type Harness } from './helpers.ts';
import { engineStores } from './stores.ts';

afterEach(() => faults.disarm());

/** The tasks handed ahead to the caller, each with its `written`, and a promise of the first. */
function taker() {
  const taken: { task: WorkflowTask; written: Promise<boolean> }[] = [];
  let first!: () => void;
  const arrived = new Promise<void>((resolve) => (first = resolve));
  return {
    taken, arrived,
    eagerTaskAhead: (task: WorkflowTask, written: Promise<boolean>) => {
      taken.push({ task, written });
      first();
    },
  };
}

/** Holds the next commit until a task went ahead, then lets it go on (or fails it). */
function holdCommitUntil(arrived: Promise<void>, fail = false): void {
  faults.arm('engine.commit.before', { onHit: 1, run: () => arrived, ...(fail ? { throw: true as const } : {}) });
}

const start = (h: Harness, workflowId: string, ahead: ReturnType<typeof taker>) =>
  h.engine.startWorkflowExecution(
    { workflowId, workflowType: 'order', taskQueue: 'q', args: ['o-1'], identity: 'starter', requestEagerExecution: true } as never,
    { eagerTaskAhead: ahead.eagerTaskAhead },
  );

for (const s of await engineStores('eager starts ahead of their commit', 'sf_ahead')) {
  fixtureTest(`${s.name}: the first task goes to the caller while the start is written; the caller is told it was, and the answer does not carry it again`,
    { skip: s.skip }, async (f) => {
      const h = await f.engine(await s.open(f));
      const ahead = taker();
      let seenBeforeWrite: unknown;
      faults.arm('engine.commit.before', {
        onHit: 1,
        run: async () => {
          await ahead.arrived;
          // The task is here, and its run is not written yet.
          seenBeforeWrite = await h.engine.describeWorkflowExecution({ workflowId: 'w' } as never).catch((err: unknown) => err);
        },
      });
      const answer = await start(h, 'w', ahead);
      assert.ok(seenBeforeWrite instanceof WorkflowNotFoundError, `the run is not readable before its commit: ${String(seenBeforeWrite)}`);
      assert.equal(ahead.taken.length, 1);
      const { task, written } = ahead.taken[0]!;
      assert.equal(await written, true);
      assert.equal(task.runId, answer.runId);
      assert.equal(answer.eagerWorkflowTask, undefined, 'the task went ahead, not with the answer');
      assert.deepEqual(task.history.map((e) => e.eventType), ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted']);
      await h.complete(task, [cmd.complete('done')]);
      const events = await h.history('w');
      assert.deepEqual(events.map((e) => e.eventType),
        ['WorkflowExecutionStarted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted', 'WorkflowTaskCompleted', 'WorkflowExecutionCompleted']);
      assert.equal((events[2]!.attributes as { identity?: string }).identity, 'starter');
      await h.settle();
      assert.equal(h.engine.isIdle(), true);
    });

  fixtureTest(`${s.name}: a start whose write fails tells the task that went ahead; its completion is refused and the run never exists`,
    { skip: s.skip }, async (f) => {
      const h = await f.engine(await s.open(f));
      const ahead = taker();
      holdCommitUntil(ahead.arrived, true);
      await assert.rejects(start(h, 'gone', ahead), FaultInjectedError);
      faults.disarm();
      assert.equal(ahead.taken.length, 1);
      const { task, written } = ahead.taken[0]!;
      assert.equal(await written, false);
      await assert.rejects(h.complete(task, [cmd.complete('done')]));
      await assert.rejects(h.engine.describeWorkflowExecution({ workflowId: 'gone' } as never), WorkflowNotFoundError);
      await h.noWorkflowTask();
      await h.settle();
      assert.equal(h.engine.isIdle(), true, 'the dropped task is not awaited');
      // The workflow id is free: a start of it now runs as usual.
      const again = await h.start('gone');
      const first = await h.pollWorkflow();
      assert.equal(first.runId, again.runId);
    });

  fixtureTest(`${s.name}: a start decided again after its task went ahead (the id had a closed run) tells that task no; the run written gets its task from a poll`,
    { skip: s.skip }, async (f) => {
      const h = await f.engine(await s.open(f));
      await h.start('again');
      await h.complete(await h.pollWorkflow(), [cmd.complete('first')]);
      await h.settle();
      const ahead = taker();
      // The first attempt assumes the id unused and loses at the store once the task went ahead.
      holdCommitUntil(ahead.arrived);
      const answer = await start(h, 'again', ahead);
      assert.equal(ahead.taken.length, 1, 'one task went ahead, for the run that lost');
      const { task, written } = ahead.taken[0]!;
      assert.equal(await written, false);
      assert.notEqual(task.runId, answer.runId);
      assert.equal(answer.eagerWorkflowTask, undefined);
      await assert.rejects(h.complete(task, [cmd.complete('never')]));
      const polled = await h.pollWorkflow();
      assert.equal(polled.runId, answer.runId);
      await h.complete(polled, [cmd.complete('second')]);
      const runs = await h.engine.listWorkflowExecutions({ query: "WorkflowId = 'again'" } as never);
      assert.equal(runs.executions.length, 2);
      assert.ok(!runs.executions.some((e: { runId: string }) => e.runId === task.runId), 'the run that lost was never written');
    });

  fixtureTest(`${s.name}: with no hold on the commit, every task still goes once, ahead or with the answer, and each run completes`, { skip: s.skip }, async (f) => {
    const h = await f.engine(await s.open(f));
    const answers = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
      const ahead = taker();
      const answer = await start(h, `many-${i}`, ahead);
      const tasks = [...ahead.taken.map((t) => t.task), ...(answer.eagerWorkflowTask ? [answer.eagerWorkflowTask] : [])];
      assert.equal(tasks.length, 1, `one task for start ${i}`);
      if (ahead.taken.length === 1) assert.equal(await ahead.taken[0]!.written, true);
      assert.equal(tasks[0]!.runId, answer.runId);
      await h.complete(tasks[0]!, [cmd.complete(i)]);
      return answer;
    }));
    for (const [i, a] of answers.entries()) {
      assert.deepEqual((await h.types(`many-${i}`, a.runId)).at(-1), 'WorkflowExecutionCompleted');
    }
  });
}

fixtureTest('the in-process start options are checked: eagerTaskAhead must be a function', async (f) => {
  const h = await f.engine();
  const req = { workflowId: 'x', workflowType: 'order', taskQueue: 'q', requestEagerExecution: true } as never;
  await assert.rejects(h.engine.startWorkflowExecution(req, { eagerTaskAhead: 'yes' } as never),
    (err: unknown) => err instanceof ValidationError && err.field === 'eagerTaskAhead' && /must be a function/.test(err.message));
  await assert.rejects(h.engine.startWorkflowExecution(req, 7 as never),
    (err: unknown) => err instanceof ValidationError && err.field === 'options');
  await assert.rejects(h.engine.describeWorkflowExecution({ workflowId: 'x' } as never), WorkflowNotFoundError);
});
