/**
 * Schedule options, actions and policies are checked like every other options object
 * (optionKeys + refuseUnknownKeys): an unknown key is refused naming the field and the known
 * keys, in the same words as a misspelt start or worker option.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionToWire, policiesToWire } from '../../src/client/schedule-options.ts';
import { ScheduleClient } from '../../src/client/schedule-client.ts';
import type { WorkflowService } from '../../src/protocol/index.ts';

test('a misspelt schedule option is refused with the known ones', async () => {
  const client = new ScheduleClient({} as WorkflowService, 'default');
  await assert.rejects(client.create({ scheduleId: 's', spec: {}, action: {}, polices: {} } as never),
    { message: 'polices is not a schedule option (known: scheduleId, spec, action, policies, state), got {}' });
});

test('a misspelt schedule policy is refused under policies.', () => {
  assert.throws(() => policiesToWire({ overlapPolicy: 'Skip' } as never),
    { message: 'policies.overlapPolicy is not a schedule policy (known: overlap, catchupWindow, catchupWindowMs, pauseOnFailure), got "Skip"' });
});

test('a misspelt option of a schedule\'s startWorkflow action is refused under action.', () => {
  assert.throws(() => actionToWire({ type: 'startWorkflow', workflowType: 'w', taskQueue: 'q', workflowId: 'id', taskQeue: 'q' } as never, 's'),
    { message: 'action.taskQeue is not a startWorkflow option (known: type, workflowType, taskQueue, workflowId, args, memo, searchAttributes, '
      + 'retry, workflowExecutionTimeout, workflowRunTimeout, workflowTaskTimeout, staticSummary, staticDetails), got "q"' });
});
