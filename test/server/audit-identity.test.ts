import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../src/client/index.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { authServer, KEYS } from './auth-helpers.ts';

const identities = (events: HistoryEvent[], types: string[]) =>
  events.filter((e) => types.includes(e.eventType)).map((e) => `${e.eventType}:${(e.attributes as { identity?: string }).identity}`);

test('with authentication on, history records who started, signalled, reset, cancelled and terminated from the credential, not the request', async () => {
  const server = await authServer();
  const writer = new Client({ address: server.http.address, apiKey: KEYS.writer, identity: 'mallory' });
  const admin = new Client({ address: server.http.address, apiKey: KEYS.admin, identity: 'someone-else' });
  try {
    const handle = await writer.workflow.start('order', { taskQueue: 'q', workflowId: 'audited' });
    await handle.signal('approve');
    const task = await server.engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'worker-1', pollTimeoutMs: 3000 });
    assert.ok(task);
    await server.engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands: [], identity: 'worker-1' });
    const newRun = await admin.workflow.getHandle('audited').reset({ type: 'FirstWorkflowTask', reason: 'audit test' });
    const first = (await writer.workflow.getHandle('audited', handle.firstExecutionRunId ?? handle.runId).fetchHistory()).events;
    assert.deepEqual(identities(first, ['WorkflowExecutionStarted', 'WorkflowExecutionSignaled', 'WorkflowExecutionTerminated']), [
      'WorkflowExecutionStarted:writer', 'WorkflowExecutionSignaled:writer', 'WorkflowExecutionTerminated:admin',
    ]);
    const current = writer.workflow.getHandle('audited', newRun);
    await current.cancel();
    await current.terminate('done');
    const second = (await current.fetchHistory()).events;
    assert.deepEqual(identities(second, ['WorkflowExecutionCancelRequested', 'WorkflowExecutionTerminated']), [
      'WorkflowExecutionCancelRequested:writer', 'WorkflowExecutionTerminated:writer',
    ]);
    assert.ok(identities(second, ['WorkflowTaskFailed']).includes('WorkflowTaskFailed:admin'), 'the reset names who reset');
    assert.ok(!JSON.stringify([first, second]).includes('mallory'), 'the self-declared identity is recorded nowhere');
  } finally {
    writer.close();
    admin.close();
    await server.close();
  }
});
