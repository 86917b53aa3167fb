import { ValidationError } from '../errors/index.ts';
import { optionalString, requireString } from '../common/validate.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import type { HistoryEvent } from '../history/events.ts';
import { bundleWorkflows } from './bundler.ts';
import { resolveWorkerInterceptors, type WorkerInterceptors } from './interceptors.ts';
import { WorkflowRun } from './workflow-run.ts';
import { codecChainOf } from '../codec/codec-chain.ts';
import type { DataConverter } from '../codec/payload-codec.ts';
import { walkEvents } from '../codec/payload-walk.ts';

/**
 * A history as `handle.fetchHistory()`, `steadfast workflow history --json` and the web UI's
 * download give it (with the run's workflow id and run id), or as older ones did (`{ events }`),
 * or its bare event list.
 */
export type ReplayableHistory = HistoryEvent[] | { events: HistoryEvent[]; workflowId?: string; runId?: string };

/** Options of a replay: `Replayer.replayHistory` and `Worker.runReplayHistory`. */
export interface ReplayOptions {
  /** The workflows module to check, as given to `Worker.create`. */
  workflowsPath: string;
  /** Seen by `workflowInfo()` during the replay. @default the history's `workflowId`, else "replay" */
  workflowId?: string;
  /** @default the history's `runId`, else its originalExecutionRunId */
  runId?: string;
  /** @default "default" */
  namespace?: string;
  /** The workers' payload codecs, for a history recorded with them: its payloads are decoded before the replay. @default none */
  dataConverter?: DataConverter;
  /** The worker's interceptors; only `workflowModules` take part in a replay. @default none */
  interceptors?: WorkerInterceptors;
}

function eventsOf(history: ReplayableHistory, field: string): HistoryEvent[] {
  const events = Array.isArray(history) ? history : (history as { events?: unknown })?.events;
  if (!Array.isArray(events)) throw new ValidationError(field, 'must be an array of history events or { events: [...] }', history);
  const first = events[0] as HistoryEvent | undefined;
  if (!first || first.eventType !== 'WorkflowExecutionStarted') {
    throw new ValidationError(`${field}[0].eventType`, 'must be WorkflowExecutionStarted', first?.eventType);
  }
  return events as HistoryEvent[];
}

const REPLAY_OPTION_KEYS = optionKeys<ReplayOptions>({
  workflowsPath: true, workflowId: true, runId: true, namespace: true, dataConverter: true, interceptors: true,
});

/**
 * Replays one recorded history against workflow code, with no server: the code must emit, in
 * order, the commands the history recorded.
 * @throws DeterminismViolationError naming the event and the command that differ;
 *   WorkflowTaskFailedError when workflow code fails a workflow task.
 */
export async function replayHistory(history: ReplayableHistory, options: ReplayOptions): Promise<void> {
  if (typeof options !== 'object' || options === null) throw new ValidationError('replay options', 'must be an object with workflowsPath', options);
  refuseUnknownKeys('replay', options, REPLAY_OPTION_KEYS);
  const codec = codecChainOf(options.dataConverter);
  const recorded = eventsOf(history, 'history');
  const events = codec ? await codec.decode(recorded, walkEvents) : recorded;
  const workflowsPath = requireString('workflowsPath', options.workflowsPath, 4096);
  const started = events[0] as HistoryEvent<'WorkflowExecutionStarted'>;
  const ids: { workflowId?: string; runId?: string } = Array.isArray(history) ? {} : history;
  const { workflowModules } = resolveWorkerInterceptors(options.interceptors);
  const run = new WorkflowRun(await bundleWorkflows(workflowsPath, workflowModules), {
    namespace: optionalString('namespace', options.namespace) ?? 'default',
    workflowId: optionalString('workflowId', options.workflowId) ?? optionalString('history.workflowId', ids.workflowId) ?? 'replay',
    runId: optionalString('runId', options.runId) ?? optionalString('history.runId', ids.runId) ?? started.attributes.originalExecutionRunId,
  });
  await run.apply(events);
  run.finish();
}

/** Options of `Worker.runReplayHistory`: a replay's options, the workflow id given apart as Temporal does. */
export type ReplayWorkerOptions = Omit<ReplayOptions, 'workflowId'>;

/** A history with the workflow id it ran under: Temporal's `HistoryAndWorkflowId`. */
export interface HistoryAndWorkflowId {
  workflowId: string;
  history: ReplayableHistory;
}

/** The outcome of one history of `Worker.runReplayHistories`, as Temporal gives it. */
export interface ReplayResult {
  workflowId: string;
  runId: string;
  /** Undefined when the replay matched; else a DeterminismViolationError or the workflow task's failure. */
  error?: Error;
}

/** The run id a history replays under: its own, else its original run's. */
export function replayRunId(history: ReplayableHistory): string {
  if (!Array.isArray(history) && typeof history?.runId === 'string') return history.runId;
  const started = eventsOf(history, 'history')[0] as HistoryEvent<'WorkflowExecutionStarted'>;
  return started.attributes.originalExecutionRunId;
}
