import { fixtureTest } from '../helpers/fixture.ts';
import assert from 'node:assert/strict';
import { cmd } from './helpers.ts';

const stack = ['TypeError: x is not a function', ...Array.from({ length: 20 }, (_, i) => `    at frame${i} (workflows.ts:${i + 1}:1)`)].join('\n');

fixtureTest('describe shows the failing workflow task\'s attempt and last failure, cut to the first frames, until an attempt completes', async (f) => {
  const h = await f.engine();
  await h.start('wt-fail-1');
  const describeIt = () => h.engine.describeWorkflowExecution({ workflowId: 'wt-fail-1' });
  assert.equal((await describeIt()).pendingWorkflowTask?.lastFailure, undefined);

  const first = await h.pollWorkflow();
  await h.engine.respondWorkflowTaskFailed({
    taskToken: first.taskToken, identity: 'worker-1', cause: 'WorkflowError',
    failure: { kind: 'Application', message: 'x is not a function', type: 'TypeError', stack },
  });
  let wt = (await describeIt()).pendingWorkflowTask!;
  assert.equal(wt.attempt, 2);
  assert.deepEqual(wt.lastFailure, {
    cause: 'WorkflowError', message: 'x is not a function', type: 'TypeError', attempt: 1, identity: 'worker-1',
    failedTime: new Date(h.clock.now()).toISOString(),
    stack: stack.split('\n').slice(0, 6).join('\n'),
  });

  // The second attempt is transient (no history event): describe is where its failure shows.
  const second = await h.pollWorkflow();
  const before = (await h.history('wt-fail-1')).length;
  await assert.rejects(h.complete(second, [cmd.timer('t', 1e20)]), /startToFireTimeoutMs must be at most 100 years/);
  assert.equal((await h.history('wt-fail-1')).length, before);
  wt = (await describeIt()).pendingWorkflowTask!;
  assert.equal(wt.attempt, 3);
  assert.equal(wt.lastFailure?.cause, 'BadCommand');
  assert.equal(wt.lastFailure?.attempt, 2);
  assert.match(wt.lastFailure!.message, /^commands\[0\]\.attributes\.startToFireTimeoutMs must be at most 100 years/);

  await h.advance(1_000);
  const third = await h.pollWorkflow();
  assert.equal(third.attempt, 3);
  await h.complete(third, [cmd.timer('t', 1_000)]);
  const d = await describeIt();
  assert.equal(d.pendingWorkflowTask, undefined);
  await h.advance(1_000);
  wt = (await describeIt()).pendingWorkflowTask!;
  assert.equal(wt.attempt, 1);
  assert.equal(wt.lastFailure, undefined, 'a completed attempt clears the last failure');
});

fixtureTest('a workflow task that gets no answer within its timeout shows as TimedOut in describe', async (f) => {
  const h = await f.engine();
  await h.start('wt-timeout-1');
  const task = await h.pollWorkflow();
  assert.equal(task.attempt, 1);
  await h.advance(10_000);
  const wt = (await h.engine.describeWorkflowExecution({ workflowId: 'wt-timeout-1' })).pendingWorkflowTask!;
  assert.equal(wt.attempt, 2);
  assert.deepEqual(wt.lastFailure, {
    cause: 'TimedOut', message: 'workflow task timed out: no answer within its 10000 ms workflowTaskTimeout', attempt: 1,
    identity: 'worker-1', failedTime: new Date(h.clock.now()).toISOString(),
  });
});

fixtureTest('a query that gets no answer from a run whose workflow task keeps failing says so in its error', async (f) => {
  const h = await f.engine();
  await h.start('wt-fail-query');
  const ask = () => h.engine.queryWorkflow({ workflowId: 'wt-fail-query', queryType: 'state', args: [], timeoutMs: 50 });
  await assert.rejects(ask(), (err: Error) => /got no answer within 50 ms: no worker answered/.test(err.message) && !/failing/.test(err.message));
  const task = await h.pollWorkflow();
  await h.engine.respondWorkflowTaskFailed({
    taskToken: task.taskToken, identity: 'worker-1', cause: 'WorkflowError', failure: { kind: 'Application', message: 'x is not a function\nmore', type: 'TypeError' },
  });
  await assert.rejects(ask(), (err: Error) => {
    assert.match(err.message, /got no answer within 50 ms: no worker answered; is a worker polling task queue "q"\?; /);
    assert.match(err.message, /the run's workflow task is failing: attempt 1, WorkflowError \(TypeError\): x is not a function; see describe \(`steadfast workflow describe wt-fail-query`: pendingWorkflowTask\.lastFailure\)$/);
    return true;
  });
});
