import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import {
  activityTaskSchema, countWorkflowExecutionsResponseSchema, getHistoryResponseSchema, listSchedulesResponseSchema,
  listSearchAttributesResponseSchema, listWorkflowExecutionsResponseSchema, queryTaskSchema, queryWorkflowResponseSchema,
  recordHeartbeatResponseSchema, resetWorkflowResponseSchema, scheduleDescriptionSchema, startWorkflowExecutionResponseSchema,
  updateWorkflowResponseSchema, workflowExecutionDescriptionSchema, workflowTaskSchema,
} from '../../src/protocol/schemas/responses.ts';
import { cmd, setup } from '../engine/helpers.ts';

/** Asserts that an answer is what the contract documents, naming each field that is not. */
function conforms<T>(schema: z.ZodType<T>, answer: unknown, call: string): T {
  const r = schema.safeParse(answer);
  assert.ok(r.success, `${call}: ${r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}\n${JSON.stringify(answer)}`);
  return r.data;
}

test('every answer of a run of calls is what the protocol documents, field for field', async () => {
  const h = await setup();
  try {
    const { engine } = h;
    conforms(startWorkflowExecutionResponseSchema, await h.start('p1', { memo: { m: 1 }, retryPolicy: { maximumAttempts: 2 } }), 'start');
    const wt = conforms(workflowTaskSchema, await h.pollWorkflow(), 'pollWorkflowTaskQueue');
    conforms(workflowExecutionDescriptionSchema, await engine.describeWorkflowExecution({ workflowId: 'p1' }), 'describe (task started)');
    await h.complete(wt, [cmd.activity('a1', { heartbeatTimeoutMs: 5000 })]);
    const at = conforms(activityTaskSchema, await h.pollActivity(), 'pollActivityTaskQueue');
    conforms(recordHeartbeatResponseSchema, await engine.recordActivityTaskHeartbeat({ taskToken: at.taskToken, details: { step: 1 } }), 'heartbeat');
    await engine.respondActivityTaskFailed({ taskToken: at.taskToken, identity: 'worker-1', failure: { kind: 'Application', message: 'no' } });
    conforms(workflowExecutionDescriptionSchema, await engine.describeWorkflowExecution({ workflowId: 'p1' }), 'describe (activity backing off)');

    const asked = engine.queryWorkflow({ workflowId: 'p1', queryType: 'state' });
    const qt = conforms(queryTaskSchema, await engine.pollQueryTaskQueue({ taskQueue: 'q', identity: 'worker-1', pollTimeoutMs: 3000 }), 'pollQueryTaskQueue');
    await engine.respondQueryTaskCompleted({ taskToken: qt.taskToken, identity: 'worker-1', result: { ok: true } });
    conforms(queryWorkflowResponseSchema, await asked, 'queryWorkflow');

    const updating = engine.updateWorkflowExecution({ workflowId: 'p1', updateName: 'set', args: [1], updateId: 'u1' });
    const vt = conforms(queryTaskSchema, await engine.pollQueryTaskQueue({ taskQueue: 'q', identity: 'worker-1', pollTimeoutMs: 3000 }), 'pollQueryTaskQueue (validation)');
    await engine.respondQueryTaskCompleted({ taskToken: vt.taskToken, identity: 'worker-1' });
    conforms(updateWorkflowResponseSchema, await updating, 'updateWorkflowExecution');

    const next = await h.pollWorkflow();
    await h.complete(next, [cmd.complete('done')]);
    conforms(getHistoryResponseSchema, await engine.getWorkflowExecutionHistory({ workflowId: 'p1', pageSize: 3 }), 'getWorkflowExecutionHistory');
    conforms(workflowExecutionDescriptionSchema, await engine.describeWorkflowExecution({ workflowId: 'p1' }), 'describe (closed)');
    conforms(resetWorkflowResponseSchema, await engine.resetWorkflowExecution({ workflowId: 'p1', resetType: 'FirstWorkflowTask' }), 'reset');
    conforms(listWorkflowExecutionsResponseSchema, await engine.listWorkflowExecutions({ pageSize: 1 }), 'listWorkflowExecutions');
    conforms(countWorkflowExecutionsResponseSchema, await engine.countWorkflowExecutions({ query: 'GROUP BY ExecutionStatus' }), 'count');
    conforms(listSearchAttributesResponseSchema, await engine.listSearchAttributes({}), 'listSearchAttributes');

    await engine.createSchedule({
      scheduleId: 's1', spec: { intervals: [{ every: '1h' }] }, action: { workflowType: 'order', taskQueue: 'q', workflowId: 'from-s1' },
    });
    conforms(scheduleDescriptionSchema, await engine.describeSchedule({ scheduleId: 's1' }), 'describeSchedule');
    conforms(listSchedulesResponseSchema, await engine.listSchedules({}), 'listSchedules');
  } finally {
    await h.close();
  }
});
