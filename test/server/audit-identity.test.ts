import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../src/client/index.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { authServer, KEYS, post, testApiKeys } from './auth-helpers.ts';

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

test('a query names who asked in the engine\'s audit line: the declared identity, or with authentication on the credential\'s', async () => {
  const lines: Array<Record<string, unknown>> = [];
  const quiet = () => undefined;
  const logger = { debug: quiet, warn: quiet, error: quiet, info: (msg: string, meta?: Record<string, unknown>) => lines.push({ msg, ...meta }) };
  const server = await authServer({ apiKeys: testApiKeys() }, logger);
  const writer = new Client({ address: server.http.address, apiKey: KEYS.writer });
  try {
    const handle = await writer.workflow.start('order', { taskQueue: 'q', workflowId: 'queried' });
    await handle.terminate('closed, so a NotOpen query answers at once');
    const audits = () => lines.filter((l) => l.audit === 'queryWorkflow');
    const asked = await server.engine.queryWorkflow({ workflowId: 'queried', queryType: 'status', queryRejectCondition: 'NotOpen', identity: 'web-ui alice' });
    assert.deepEqual(asked.queryRejected, { status: 'Terminated' });
    assert.deepEqual(audits().map((l) => [l.identity, l.queryType, l.workflowId, l.runId]), [['web-ui alice', 'status', 'queried', handle.firstExecutionRunId]]);
    assert.match(String(audits()[0]!.msg), /^query "status" of workflow queried \(run [0-9a-f-]+\) by web-ui alice$/);
    const over = await post(server.http.address, 'queryWorkflow',
      { workflowId: 'queried', queryType: 'status', queryRejectCondition: 'NotOpen', identity: 'mallory' }, KEYS.reader);
    assert.equal(over.status, 200, JSON.stringify(over.json));
    assert.deepEqual(audits().map((l) => l.identity), ['web-ui alice', 'reader'], 'the credential\'s identity, not the declared one');
    await server.engine.queryWorkflow({ workflowId: 'queried', queryType: 'status', queryRejectCondition: 'NotOpen' });
    assert.equal(audits().length, 2, 'a query without identity (the SDK client\'s, as Temporal\'s) writes no audit line');
    await assert.rejects(server.engine.queryWorkflow({ workflowId: 'queried', queryType: 'status', identity: 'x'.repeat(5000) }), /identity/);
  } finally {
    writer.close();
    await server.close();
  }
});
