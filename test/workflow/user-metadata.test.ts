/**
 * User metadata in the workflow runtime, fed histories without a server: the StartTimer and
 * ScheduleActivityTask commands carry their summaries, and `setCurrentDetails` is what the
 * `__temporal_workflow_metadata` query answers, also after a replay.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { bundleWorkflows } from '../../src/worker/bundler.ts';
import { WorkflowRun } from '../../src/worker/workflow-run.ts';
import type { Command } from '../../src/history/commands.ts';
import type { MessageRequest } from '../../src/workflow/activation.ts';
import { harness } from './harness.ts';

const WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/user-metadata.ts', import.meta.url));
const METADATA: MessageRequest = { kind: 'query', queryType: '__temporal_workflow_metadata', args: [] };
const currentDetails = (run: WorkflowRun) => (run.answer(METADATA).result as { currentDetails: string }).currentDetails;

test('setCurrentDetails is answered by __temporal_workflow_metadata as the run moves on, and again after a replay', async () => {
  const h = await harness({ workflowType: 'stages' }, WORKFLOWS);
  assert.deepEqual(await h.next(), [
    { commandType: 'StartTimer', attributes: { timerId: '1', startToFireTimeoutMs: 60_000, userMetadata: { summary: 'Between stages' } } },
  ]);
  assert.equal(currentDetails(h.run), 'Stage 1');
  h.history.advance(60_000).timerFired('1');
  const second = await h.next();
  assert.deepEqual(second.map((c: Command) => c.attributes), [{ timerId: '2', startToFireTimeoutMs: 3_600_000, userMetadata: { summary: 'Deadline' } }]);
  assert.equal(currentDetails(h.run), 'Stage 2 after Stage 1');

  const replayed = new WorkflowRun(await bundleWorkflows(WORKFLOWS), { namespace: 'default', workflowId: 'wf-1', runId: 'run-1' });
  h.history.advance(1000).timerFired('2');
  h.history.startTask();
  assert.deepEqual(await replayed.apply(h.history.events), [
    { commandType: 'CompleteWorkflowExecution', attributes: { result: 'Stage 2 after Stage 1' } },
  ], 'the replay matched the summarised timers and the run completed');
  assert.equal(currentDetails(replayed), 'Stage 2 after Stage 1', 'the replay set the details again');
});

test('summaries of the wrong type are refused, naming the option', async () => {
  const h = await harness({ workflowType: 'badSummaries' }, WORKFLOWS);
  const [complete] = await h.next();
  assert.equal(complete?.commandType, 'CompleteWorkflowExecution');
  const messages = (complete!.attributes as { result: string[] }).result;
  assert.match(messages[0]!, /^summary must be a string, got 5/);
  assert.match(messages[1]!, /title/);
  assert.match(messages[2]!, /^summary must be a string/);
  assert.match(messages[3]!, /^staticDetails must be a string, got 5/);
});
