import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Replayer } from '../../src/testing/index.ts';
import { DeterminismViolationError } from '../../src/common/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';

/*
 * Histories recorded once by scripts/record-message-histories.ts and replayed on every run
 * against the current fixture code: a change to signal, update or external-signal handling
 * that would break runs already in flight fails here.
 */
const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/messages.ts', import.meta.url));
const load = (name: string) => JSON.parse(readFileSync(new URL(`../histories/${name}.json`, import.meta.url), 'utf8')) as { events: HistoryEvent[] };
const CORPUS: { file: string; shows: string[] }[] = [
  { file: 'messages-signals', shows: ['WorkflowExecutionSignaled'] },
  { file: 'messages-external-signal', shows: ['SignalExternalWorkflowExecutionInitiated', 'ExternalWorkflowExecutionSignaled', 'SignalExternalWorkflowExecutionFailed'] },
  { file: 'messages-external-signal-target', shows: ['WorkflowExecutionSignaled'] },
  { file: 'messages-signal-with-start', shows: ['WorkflowExecutionSignaled'] },
  { file: 'messages-updates', shows: ['WorkflowExecutionUpdateAccepted', 'WorkflowExecutionUpdateCompleted'] },
];

describe('message history corpus', () => {
  for (const { file, shows } of CORPUS) {
    test(`${file}.json replays against test/fixtures/workflows/messages.ts`, async () => {
      const history = load(file);
      const types = history.events.map((e) => e.eventType);
      for (const t of shows) assert.ok(types.includes(t as HistoryEvent['eventType']), `${file} records ${t}`);
      await Replayer.replayHistory(history, { workflowsPath });
    });
  }

  test('replay matches external signals by target and name: a different signal name is a determinism violation', async () => {
    const history = load('messages-external-signal');
    const initiated = history.events.find((e) => e.eventType === 'SignalExternalWorkflowExecutionInitiated');
    assert.ok(initiated?.eventType === 'SignalExternalWorkflowExecutionInitiated');
    initiated.attributes.signalName = 'renamed';
    await assert.rejects(Replayer.replayHistory(history, { workflowsPath }), (err: unknown) => {
      assert.ok(err instanceof DeterminismViolationError);
      assert.match(err.message, /SignalExternalWorkflowExecutionInitiated .*signalName: "renamed"/);
      return true;
    });
  });

  test('replay matches update completions by update id', async () => {
    const history = load('messages-updates');
    const completed = history.events.find((e) => e.eventType === 'WorkflowExecutionUpdateCompleted');
    assert.ok(completed?.eventType === 'WorkflowExecutionUpdateCompleted');
    completed.attributes.updateId = 'another-update';
    await assert.rejects(Replayer.replayHistory(history, { workflowsPath }), DeterminismViolationError);
  });
});
