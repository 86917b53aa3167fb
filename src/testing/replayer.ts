import { ValidationError } from '../retry/errors.ts';
import { optionalString, requireString } from '../common/validate.ts';
import { REPLAY_OPTION_KEYS, refuseUnknownKeys } from '../common/option-keys.ts';
import type { HistoryEvent } from '../history/events.ts';
import { bundleWorkflows } from '../worker/bundler.ts';
import { WorkflowRun } from '../worker/workflow-run.ts';
import { codecChainOf } from '../codec/codec-chain.ts';
import type { DataConverter } from '../codec/payload-codec.ts';
import { walkEvents } from '../codec/payload-walk.ts';

/**
 * A history as `handle.fetchHistory()`, `steadfast workflow history --json` and the web UI's
 * download give it (with the run's workflow id and run id), or as older ones did (`{ events }`),
 * or its bare event list.
 */
export type ReplayableHistory = HistoryEvent[] | { events: HistoryEvent[]; workflowId?: string; runId?: string };

/** Options of {@link Replayer.replayHistory}. */
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
}

/** Outcome of one history in {@link Replayer.replayHistories}. */
export interface ReplayResult {
  /** Position of the history in the input. */
  index: number;
  workflowId: string;
  /** Undefined when the replay matched; else a DeterminismViolationError or the workflow task's failure. */
  error: Error | undefined;
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

/**
 * Replays recorded histories against workflow code, with no server, to prove a code change is
 * compatible with runs already in flight: the code must emit, in order, the commands the
 * history recorded.
 */
export class Replayer {
  /**
   * Replays one history.
   * @throws DeterminismViolationError naming the event and the command that differ;
   *   WorkflowTaskFailedError when workflow code fails a workflow task.
   */
  static async replayHistory(history: ReplayableHistory, options: ReplayOptions): Promise<void> {
    if (typeof options !== 'object' || options === null) throw new ValidationError('replay options', 'must be an object with workflowsPath', options);
    refuseUnknownKeys('replay', options, REPLAY_OPTION_KEYS);
    const codec = codecChainOf(options.dataConverter);
    const recorded = eventsOf(history, 'history');
    const events = codec ? await codec.decode(recorded, walkEvents) : recorded;
    const workflowsPath = requireString('workflowsPath', options.workflowsPath, 4096);
    const started = events[0] as HistoryEvent<'WorkflowExecutionStarted'>;
    const ids: { workflowId?: string; runId?: string } = Array.isArray(history) ? {} : history;
    const run = new WorkflowRun(await bundleWorkflows(workflowsPath), {
      namespace: optionalString('namespace', options.namespace) ?? 'default',
      workflowId: optionalString('workflowId', options.workflowId) ?? optionalString('history.workflowId', ids.workflowId) ?? 'replay',
      runId: optionalString('runId', options.runId) ?? optionalString('history.runId', ids.runId) ?? started.attributes.originalExecutionRunId,
    });
    await run.apply(events);
    run.finish();
  }

  /** Replays many histories; one result per history, in input order, instead of throwing. */
  static async replayHistories(
    histories: Iterable<ReplayableHistory | { workflowId: string; history: ReplayableHistory }>,
    options: ReplayOptions,
  ): Promise<ReplayResult[]> {
    const results: ReplayResult[] = [];
    let index = 0;
    for (const item of histories) {
      // `{ workflowId, history }` (Temporal's HistoryAndWorkflowId) names the history; a history that carries its ids names itself.
      const named = !Array.isArray(item) && 'history' in item && typeof item.workflowId === 'string';
      const history = named ? item.history : (item as ReplayableHistory);
      const own = Array.isArray(history) ? undefined : history.workflowId;
      const workflowId = named ? item.workflowId : (options.workflowId ?? own ?? `history-${index}`);
      try {
        await Replayer.replayHistory(history, { ...options, workflowId });
        results.push({ index, workflowId, error: undefined });
      } catch (err) {
        results.push({ index, workflowId, error: err as Error });
      }
      index++;
    }
    return results;
  }
}
