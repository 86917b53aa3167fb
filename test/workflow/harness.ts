/**
 * Drives one workflow of test/fixtures/workflows/ through hand-built history, the way
 * Temporal's test-workflows.ts feeds activations: no server, only the runtime and the matcher.
 */
import { fileURLToPath } from 'node:url';
import type { Command } from '../../src/history/commands.ts';
import { bundleWorkflows } from '../../src/worker/bundler.ts';
import { WorkflowRun } from '../../src/worker/workflow-run.ts';
import { HistoryBuilder, type HistoryBuilderOptions } from './history-builder.ts';

export const RUNTIME_WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/runtime.ts', import.meta.url));

export interface Harness {
  history: HistoryBuilder;
  run: WorkflowRun;
  /** Starts a workflow task with the events added so far, returns its commands and records them. */
  next(): Promise<Command[]>;
}

export async function harness(options: HistoryBuilderOptions, workflowsPath = RUNTIME_WORKFLOWS): Promise<Harness> {
  const bundle = await bundleWorkflows(workflowsPath);
  const history = new HistoryBuilder(options);
  const run = new WorkflowRun(bundle, { namespace: 'default', workflowId: 'wf-1', runId: options.runId ?? 'run-1' });
  return {
    history,
    run,
    async next() {
      const commands = await run.apply(history.startTask());
      if (!commands) throw new Error('the task produced no answer');
      history.completeTask(commands, run.usedFlags);
      return commands;
    },
  };
}

/** Replays `events` (ending with a started task) in a fresh run and returns that task's commands. */
export async function replay(events: HistoryBuilder['events'], workflowsPath = RUNTIME_WORKFLOWS, runId = 'run-1'): Promise<Command[] | undefined> {
  const run = new WorkflowRun(await bundleWorkflows(workflowsPath), { namespace: 'default', workflowId: 'wf-1', runId });
  return run.apply(events);
}

/** The command types, in order. */
export function types(commands: readonly Command[]): string[] {
  return commands.map((c) => c.commandType);
}
