import { ValidationError } from '../retry/errors.ts';
import { optionalString, requireString } from '../common/validate.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import type { HistoryEvent } from '../history/events.ts';
import { bundleWorkflows } from '../worker/bundler.ts';
import { WorkflowRun } from '../worker/workflow-run.ts';
import { codecChainOf } from '../codec/codec-chain.ts';
import type { DataConverter } from '../codec/payload-codec.ts';
import { walkEvents } from '../codec/payload-walk.ts';

/** A history as `handle.fetchHistory()` returns it, or its bare event list. */
export type ReplayableHistory = HistoryEvent[] | { events: HistoryEvent[] };

/** Options of {@link Replayer.replayHistory}. */
export interface ReplayOptions {
  /** The workflows module to check, as given to `Worker.create`. */
  workflowsPath: string;
  /** Seen by `workflowInfo()` during the replay; histories do not record it. @default "replay" */
  workflowId?: string;
  /** @default the history's originalExecutionRunId */
  runId?: string;
  /** @default "default" */
  namespace?: string;
  /** The workers' payload codecs, for a history recorded with them: its payloads are decoded before the replay. @default none */
  dataConverter?: DataConverter;
}

const REPLAY_OPTION_KEYS = optionKeys<ReplayOptions>({ workflowsPath: true, workflowId: true, runId: true, namespace: true, dataConverter: true });

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
    const run = new WorkflowRun(await bundleWorkflows(workflowsPath), {
      namespace: optionalString('namespace', options.namespace) ?? 'default',
      workflowId: optionalString('workflowId', options.workflowId) ?? 'replay',
      runId: optionalString('runId', options.runId) ?? started.attributes.originalExecutionRunId,
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
      const named = !Array.isArray(item) && typeof (item as { workflowId?: unknown }).workflowId === 'string';
      const workflowId = named ? (item as { workflowId: string }).workflowId : (options.workflowId ?? `history-${index}`);
      const history = named ? (item as { history: ReplayableHistory }).history : (item as ReplayableHistory);
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
