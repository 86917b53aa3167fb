import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Command } from '../../src/history/commands.ts';
import { WorkflowTaskFailedError } from '../../src/worker/workflow-run.ts';
import { harness } from './harness.ts';

const PAYLOADS = fileURLToPath(new URL('../fixtures/workflows/payloads.ts', import.meta.url));

function completed(commands: Command[]): unknown {
  const [c] = commands;
  assert.equal(c?.commandType, 'CompleteWorkflowExecution');
  return (c as Command<'CompleteWorkflowExecution'>).attributes.result;
}

test('a workflow result JSON cannot carry fails the workflow task, naming the value', async () => {
  const h = await harness({ workflowType: 'bigintResult' }, PAYLOADS);
  await assert.rejects(h.run.apply(h.history.startTask()), (err: unknown) => {
    assert.ok(err instanceof WorkflowTaskFailedError);
    assert.match(err.message, /workflow result\.total is a BigInt, which JSON cannot carry/);
    return true;
  });
});

test('activity args JSON cannot carry reject the activity call in workflow code, and nothing is scheduled', async () => {
  const h = await harness({ workflowType: 'bigintActivityArg' }, PAYLOADS);
  assert.equal(completed(await h.next()), 'activity args[0].amount is a BigInt, which JSON cannot carry; convert it to a string or a number');
});

test('a Date in a workflow result arrives as its ISO string; an undefined property is left out', async () => {
  const h = await harness({ workflowType: 'dateResult' }, PAYLOADS);
  assert.deepEqual(completed(await h.next()), { at: '1970-01-01T00:00:00.000Z' });
});

test('a query handler returning a circular value answers with a named failure', async () => {
  const h = await harness({ workflowType: 'circularQuery' }, PAYLOADS);
  await h.next();
  const answer = h.run.answer({ kind: 'query', queryType: 'node', args: [] });
  assert.equal(answer.result, undefined);
  assert.match(answer.failure?.message ?? '', /^query result\.parent is a circular reference to query result, which JSON cannot carry$/);
});

test('continueAsNew options with an unknown key are refused, listing the valid ones', async () => {
  const h = await harness({ workflowType: 'continueAsNewTypo' }, PAYLOADS);
  assert.equal(completed(await h.next()),
    'taskQeue is not a continueAsNew option (known: workflowType, taskQueue, workflowRunTimeout, workflowTaskTimeout, memo, searchAttributes), got "other"');
});

test('search attribute values no attribute type takes are refused in workflow code, naming the attribute; no command is sent', async () => {
  const h = await harness({ workflowType: 'badSearchAttributeValues' }, PAYLOADS);
  const commands = await h.next();
  assert.deepEqual(commands.map((c) => c.commandType), ['CompleteWorkflowExecution']);
  const rule = 'must be a string, number, boolean or Date, an array of them, or [] (or null) to remove the attribute';
  assert.deepEqual(completed(commands), [
    `upsertSearchAttributes.Amount ${rule}, got NaN`,
    `upsertSearchAttributes.Tags[1] ${rule}, got {"nested":true}`,
    'upsertSearchAttributes.Due must be a valid Date, got Invalid Date',
    `upsertSearchAttributes.Gone ${rule}, got undefined`,
    'upsertSearchAttributes must be an object, got array of 1',
    `continueAsNew.searchAttributes.Amount ${rule}, got Infinity`,
  ]);
});

test('a child workflow\'s cronSchedule that is not a string is refused by name', async () => {
  const h = await harness({ workflowType: 'cronChild' }, PAYLOADS);
  assert.match(String(completed(await h.next())), /^cronSchedule must be a/);
});

test('child workflow options with an unknown key are refused, listing the valid ones', async () => {
  const h = await harness({ workflowType: 'childTypo' }, PAYLOADS);
  assert.match(String(completed(await h.next())), /^taskQeue is not a child workflow option \(known: workflowId, args, taskQueue, /);
});

test('a continueAsNew timeout of 0 is refused under the option\'s name, not the wire\'s', async () => {
  const h = await harness({ workflowType: 'continueAsNewZeroTimeout' }, PAYLOADS);
  assert.equal(completed(await h.next()), 'continueAsNew.workflowRunTimeout must be greater than 0, got 0');
});

test('a workflow failure whose details JSON cannot carry fails the workflow task, naming them', async () => {
  const h = await harness({ workflowType: 'failsWithBadDetails' }, PAYLOADS);
  await assert.rejects(h.run.apply(h.history.startTask()), /workflow failure\.details\[0\]\.total is a BigInt, which JSON cannot carry/);
});
