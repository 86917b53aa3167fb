/**
 * COMMAND_TYPES is what the engine accepts from a workflow task; it is taken from a record mapped
 * over CommandType, so a command type added to CommandAttributes cannot be left out of it (the
 * engine would refuse the command at run time). The worker's matchers and the codec's payload
 * walks are records over the same type: all three name the same commands.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_TYPES, TERMINAL_COMMAND_TYPES } from '../../src/history/commands.ts';
import { COMMAND_MATCHERS } from '../../src/worker/features/index.ts';

test('COMMAND_TYPES names every command the worker can send, once', () => {
  assert.equal(new Set(COMMAND_TYPES).size, COMMAND_TYPES.length);
  assert.deepEqual([...COMMAND_TYPES].sort(), Object.keys(COMMAND_MATCHERS).sort());
  assert.deepEqual([...COMMAND_TYPES], [
    'ScheduleActivityTask', 'RequestCancelActivityTask', 'StartTimer', 'CancelTimer', 'RecordMarker',
    'CompleteWorkflowExecution', 'FailWorkflowExecution', 'CancelWorkflowExecution', 'ContinueAsNewWorkflowExecution',
    'StartChildWorkflowExecution', 'RequestCancelExternalWorkflowExecution', 'ModifyWorkflowProperties', 'UpsertWorkflowSearchAttributes',
    'SignalExternalWorkflowExecution', 'CompleteWorkflowExecutionUpdate',
  ]);
  for (const t of TERMINAL_COMMAND_TYPES) assert.ok(COMMAND_TYPES.includes(t), t);
});
