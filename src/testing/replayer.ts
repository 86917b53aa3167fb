import { replayHistory, type ReplayableHistory, type ReplayOptions } from '../worker/replay.ts';

export type { ReplayableHistory, ReplayOptions } from '../worker/replay.ts';

/** Outcome of one history in {@link Replayer.replayHistories}. */
export interface ReplayResult {
  /** Position of the history in the input. */
  index: number;
  workflowId: string;
  /** Undefined when the replay matched; else a DeterminismViolationError or the workflow task's failure. */
  error: Error | undefined;
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
  static replayHistory(history: ReplayableHistory, options: ReplayOptions): Promise<void> {
    return replayHistory(history, options);
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
