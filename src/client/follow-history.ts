import { isCloseEvent, type HistoryEvent } from '../history/events.ts';
import type { ExecutionRequest, WorkflowService } from '../protocol/index.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { optionalInt } from '../common/validate.ts';
import { ValidationError } from '../errors/index.ts';

/** Options of `handle.followHistory()`. */
export interface FollowHistoryOptions {
  /** Events fetched per request. @default 1000 */
  pageSize?: number;
  /**
   * How long one wait at the end of the open run lasts before the history is read again, ms.
   * Events other than the close event show up at most this late. @default 1000
   */
  pollIntervalMs?: number;
  /** Ends the iteration (without an error) once aborted. */
  signal?: AbortSignal;
}

/** Every key of {@link FollowHistoryOptions}; the compiler fails when the type gains one this lacks. */
const FOLLOW_OPTION_KEYS = optionKeys<FollowHistoryOptions>({ pageSize: true, pollIntervalMs: true, signal: true });

/**
 * The page token that makes `getWorkflowExecutionHistory` answer from `eventId` on. The engine's
 * history token is the base64url encoding of the next event id written as a decimal string
 * (src/engine/engine.ts); a follower that reached the end of an open run has no token from the
 * server, so it makes the one the server would have given for the next event. This is the only
 * place outside the engine that knows the token's form.
 */
export function historyPageTokenFrom(eventId: number): string {
  return Buffer.from(String(eventId), 'utf8').toString('base64url');
}

/**
 * Yields the run's events from the first, in order, and keeps yielding them as they are
 * appended until the run's close event (which is yielded last). At the end of the open run it
 * long-polls for the close (`waitForClose`, up to `pollIntervalMs`) and reads again from the next
 * event id, so a run that is idle costs one request per interval. `ref.runId` must be set: a
 * follower stays on one run even when the workflow id gets a newer one.
 */
export async function* followRunHistory(
  service: WorkflowService,
  ref: ExecutionRequest & { runId: string },
  options: FollowHistoryOptions = {},
): AsyncGenerator<HistoryEvent, void, undefined> {
  if (typeof options !== 'object' || options === null) throw new ValidationError('followHistory options', 'must be an object', options);
  refuseUnknownKeys('followHistory', options, FOLLOW_OPTION_KEYS);
  const pageSize = optionalInt('pageSize', options.pageSize, 1, 10_000) ?? 1000;
  const waitMs = optionalInt('pollIntervalMs', options.pollIntervalMs, 1, 600_000) ?? 1000;
  let next = 1;
  while (!options.signal?.aborted) {
    const page = await service.getWorkflowExecutionHistory({
      ...ref, pageSize, ...(next > 1 ? { nextPageToken: historyPageTokenFrom(next) } : {}),
    });
    for (const event of page.events) {
      yield event;
      next = event.eventId + 1;
      if (isCloseEvent(event)) return;
    }
    if (page.nextPageToken !== undefined) continue;
    // At the end of an open run: wait for the close, or for the interval to pass, then read on.
    await service.getWorkflowExecutionHistory({ ...ref, closeEventOnly: true, waitForClose: true, waitTimeoutMs: waitMs });
  }
}
