/**
 * workflowIdConflictPolicy as Temporal's docs use it, on SQLite and PostgreSQL: FAIL,
 * USE_EXISTING and TERMINATE_EXISTING on start, signal-with-start and child starts, the pair of
 * policies refused, and the CLI's flag in any case.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdConflictPolicy } from '../../src/client/index.ts';
import { ValidationError } from '../../src/common/index.ts';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { resolveChildOptions } from '../../src/workflow/child.ts';
import { startOptionsFromFlags } from '../../src/cli/workflow-start-flags.ts';
import { backends, fixture } from './helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

const WORKFLOWS = fixture('id-conflict.ts');


for (const backend of backends('id_conflict')) {
  describe(`workflowIdConflictPolicy on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    let env: TestEnvironment;
    let q = 0;
    const queue = (name: string) => `${backend.name}-${name}-${++q}`;
    const worker = (taskQueue: string) => Worker.create({ address: env.address, taskQueue, workflowsPath: WORKFLOWS, logger: silentLogger });
    before(async () => {
      if (!skip) env = await backend.env();
    });
    after(async () => {
      await env?.teardown();
      await backend.cleanup();
    });

    test('start: FAIL refuses, USE_EXISTING answers the running run, TERMINATE_EXISTING replaces it', { skip }, async () => {
      const taskQueue = queue('start');
      const workflowId = `conflict-${taskQueue}`;
      const first = await env.client.workflow.start('collectsGo', { taskQueue, workflowId });
      await assert.rejects(
        env.client.workflow.start('collectsGo', { taskQueue, workflowId, workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL }),
        (err: unknown) => err instanceof WorkflowExecutionAlreadyStartedError && /is already running .* workflowIdConflictPolicy is Fail/.test(err.message),
      );
      const same = await env.client.workflow.start('collectsGo', { taskQueue, workflowId, workflowIdConflictPolicy: 'USE_EXISTING' });
      assert.equal(same.firstExecutionRunId, first.firstExecutionRunId);
      const listed = await env.client.workflow.count(`WorkflowId = '${workflowId}'`);
      assert.equal(listed.count, 1, 'USE_EXISTING started no run');
      const replaced = await env.client.workflow.start('collectsGo', {
        taskQueue, workflowId, workflowIdConflictPolicy: WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING,
      });
      assert.notEqual(replaced.firstExecutionRunId, first.firstExecutionRunId);
      const old = await env.client.workflow.getHandle(workflowId, first.firstExecutionRunId).describe();
      assert.equal(old.status, 'Terminated');
      const history = await env.client.workflow.getHandle(workflowId, first.firstExecutionRunId).fetchHistory();
      const terminated = history.events.find((e) => e.eventType === 'WorkflowExecutionTerminated');
      assert.match(String((terminated?.attributes as { reason?: string }).reason), /workflowIdConflictPolicy TerminateExisting/);
      const w = await worker(taskQueue);
      const result = await w.runUntil(async () => {
        await replaced.signal('go', 'done');
        return await replaced.result();
      });
      assert.deepEqual(result, ['done']);
    });

    test('signalWithStart: USE_EXISTING signals the running run, TERMINATE_EXISTING starts anew with the signal, FAIL is refused', { skip }, async () => {
      const taskQueue = queue('sws');
      const workflowId = `sws-${taskQueue}`;
      const first = await env.client.workflow.start('collectsGo', { taskQueue, workflowId });
      const used = await env.client.workflow.signalWithStart('collectsGo', {
        taskQueue, workflowId, signal: 'go', signalArgs: ['one'], workflowIdConflictPolicy: 'USE_EXISTING',
      });
      assert.equal(used.firstExecutionRunId, first.firstExecutionRunId);
      await assert.rejects(
        env.client.workflow.signalWithStart('collectsGo', { taskQueue, workflowId, signal: 'go', signalArgs: ['x'], workflowIdConflictPolicy: 'FAIL' }),
        (err: unknown) => err instanceof ValidationError && err.field === 'workflowIdConflictPolicy' && /cannot be Fail for a signal-with-start/.test(err.message),
      );
      const fresh = await env.client.workflow.signalWithStart('collectsGo', {
        taskQueue, workflowId, signal: 'go', signalArgs: ['two'], workflowIdConflictPolicy: WorkflowIdConflictPolicy.TERMINATE_EXISTING,
      });
      assert.notEqual(fresh.firstExecutionRunId, first.firstExecutionRunId);
      assert.equal((await env.client.workflow.getHandle(workflowId, first.firstExecutionRunId).describe()).status, 'Terminated');
      const w = await worker(taskQueue);
      const result = await w.runUntil(async () => {
        await fresh.signal('go', 'done');
        return await fresh.result();
      });
      assert.deepEqual(result, ['two', 'done'], 'the new run got the signal it was started with, not the old run\'s');
    });

    test('a child with TERMINATE_EXISTING replaces a running workflow of its id; with FAIL it does not start', { skip }, async () => {
      const taskQueue = queue('child');
      const childId = `child-${taskQueue}`;
      const squatter = await env.client.workflow.start('collectsGo', { taskQueue, workflowId: childId });
      const w = await worker(taskQueue);
      const [failed, replaced] = await w.runUntil(async () => [
        await env.client.workflow.execute('parentFails', { taskQueue, workflowId: `pf-${taskQueue}`, args: [childId] }),
        await env.client.workflow.execute('parentReplaces', { taskQueue, workflowId: `pr-${taskQueue}`, args: [childId] }),
      ]);
      assert.equal(failed, 'failed: ChildWorkflowFailure', 'the child did not start beside the running workflow of its id');
      assert.deepEqual(replaced, ['done']);
      assert.equal((await env.client.workflow.getHandle(childId, squatter.firstExecutionRunId).describe()).status, 'Terminated');
    });
  });
}

test('a conflict policy beside the reuse policy TerminateIfRunning is refused, as Temporal\'s server refuses it', async () => {
  const env = await TestEnvironment.createTimeSkipping();
  try {
    await assert.rejects(
      env.client.workflow.start('collectsGo', { taskQueue: 'q', workflowIdReusePolicy: 'TERMINATE_IF_RUNNING', workflowIdConflictPolicy: 'USE_EXISTING' }),
      (err: unknown) => err instanceof ValidationError && err.field === 'workflowIdConflictPolicy' && /TerminateIfRunning/.test(err.message),
    );
    await assert.rejects(
      env.client.workflow.start('collectsGo', { taskQueue: 'q', workflowIdConflictPolicy: 'SOMETIMES' as never }),
      (err: unknown) => err instanceof ValidationError && /^workflowIdConflictPolicy must be one of Fail, UseExisting, TerminateExisting/.test(err.message),
    );
    const raw = env.connection.startWorkflowExecution({
      workflowId: 'raw', workflowType: 'collectsGo', taskQueue: 'q', workflowIdReusePolicy: 'TerminateIfRunning', workflowIdConflictPolicy: 'Fail',
    });
    await assert.rejects(raw, (err: unknown) => err instanceof ValidationError && err.field === 'workflowIdConflictPolicy');
  } finally {
    await env.teardown();
  }
});

test('a child may not USE_EXISTING: the running workflow would not be its child', () => {
  assert.throws(
    () => resolveChildOptions('collectsGo', { workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING }, () => 'c'),
    (err: unknown) => err instanceof ValidationError && err.field === 'workflowIdConflictPolicy' && /would not be this run's child/.test(err.message),
  );
  assert.equal(resolveChildOptions('collectsGo', { workflowIdConflictPolicy: 'TERMINATE_EXISTING' }, () => 'c').workflowIdConflictPolicy, 'TerminateExisting');
});

test('--id-conflict-policy takes any case and spelling; a bad one names the flag', () => {
  for (const text of ['use-existing', 'UseExisting', 'USE_EXISTING', 'workflow_id_conflict_policy_use_existing']) {
    const options = startOptionsFromFlags({ 'task-queue': 'q', 'id-conflict-policy': text });
    assert.ok(['UseExisting', 'USE_EXISTING', 'WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING'].includes(String(options.workflowIdConflictPolicy)), text);
  }
  assert.throws(() => startOptionsFromFlags({ 'task-queue': 'q', 'id-conflict-policy': 'sometimes' }), /--id-conflict-policy/);
});
