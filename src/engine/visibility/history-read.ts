import type { CallOptions, GetHistoryRequest, GetHistoryResponse } from '../../protocol/index.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { getHistoryRequestSchema } from '../../protocol/schemas/executions.ts';
import { ValidationError } from '../../errors/index.ts';
import type { ExecutionRecord } from '../../store/types.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { resolveRun } from '../core/resolve-run.ts';

/**
 * getWorkflowExecutionHistory: a page of a run's events (`nextPageToken` for the next), the close
 * event alone, or, with `waitForClose`, an answer held until the run closes or the wait ends
 * (then no events: the run is still running).
 */
export async function getHistory(core: EngineCore, input: GetHistoryRequest, opts?: CallOptions): Promise<GetHistoryResponse> {
  const ref = parseRequest(getHistoryRequestSchema, input);
  const { pageSize, closeEventOnly, waitForClose, waitTimeoutMs: waitMs, nextPageToken: token } = ref;
  let from = 1;
  if (token !== undefined) {
    from = Number(Buffer.from(token, 'base64url').toString('utf8'));
    if (!Number.isInteger(from) || from < 1) throw new ValidationError('nextPageToken', 'must be a token from an earlier page', token);
  }
  const { store, closeWaiters, shutdown } = core;
  // Watching before the first read (when the run id is known) makes that read the check a wait needs.
  let watch = waitForClose && ref.runId !== undefined ? closeWaiters.watch(ref.runId) : undefined;
  let rec: ExecutionRecord;
  let held: ExecutionRecord | undefined;
  try {
    // A cached row only decides whether to wait: the watch, registered first, hears of a close
    // by any server (another server's NOTIFY drops the row before it wakes anyone), and the
    // answer comes from a closed row, which never changes again.
    held = watch ? store.cachedExecution?.(ref.runId!) : undefined;
    rec = held && held.namespace === ref.namespace && held.workflowId === ref.workflowId ? held : await resolveRun(store, ref);
  } catch (err) {
    watch?.cancel();
    throw err;
  }
  if (waitForClose) {
    const deadline = core.waitClock.now() + waitMs;
    while (rec.status === 'Running') {
      if (!watch) {
        watch = closeWaiters.watch(rec.runId);
        // A closed run never changes again, so a cached closed row is the stored one.
        const cached = store.cachedExecution?.(rec.runId);
        rec = cached && cached.status !== 'Running' ? cached : (await store.getExecution(rec.runId))!;
      }
      const remaining = deadline - core.waitClock.now();
      if (rec.status !== 'Running' || remaining <= 0 || opts?.signal?.aborted || shutdown.signal.aborted) break;
      await watch.wait(remaining, [opts?.signal, shutdown.signal]);
      watch = undefined;
    }
    watch?.cancel();
    // "Still running" is answered from the stored row, never from a cached one.
    if (rec === held && rec.status === 'Running') rec = (await store.getExecution(rec.runId)) ?? rec;
    if (rec.status === 'Running') return { events: [] };
  }
  if (closeEventOnly) {
    return { events: rec.status === 'Running' ? [] : await store.readHistory(rec.runId, rec.nextEventId - 1, 1) };
  }
  const events = await store.readHistory(rec.runId, from, pageSize);
  const last = events[events.length - 1];
  const res: GetHistoryResponse = { events };
  if (events.length === pageSize && last) {
    const more = await store.readHistory(rec.runId, last.eventId + 1, 1);
    if (more.length) res.nextPageToken = Buffer.from(String(last.eventId + 1), 'utf8').toString('base64url');
  }
  return res;
}
