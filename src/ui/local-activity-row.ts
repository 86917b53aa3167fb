import type { HistoryEvent } from '../history/events.ts';

/**
 * How a history row reads for a local activity's marker (`core_local_activity`): "local activity
 * charge (1) completed, attempt 1", "… failed, attempt 3: card declined", or "… failed, attempt
 * 1: … ; retry in 120000 ms" for one retried through a timer. Undefined for any other event.
 */
export function localActivityLine(e: HistoryEvent): string | undefined {
  if (e.eventType !== 'MarkerRecorded' || e.attributes.markerName !== 'core_local_activity') return undefined;
  const d = e.attributes.details as { activityType?: unknown; activityId?: unknown; attempt?: unknown; backoffMs?: unknown };
  const summary = e.attributes.userMetadata?.summary;
  const head = `local activity ${String(d.activityType)} (${String(d.activityId)})${summary !== undefined ? ` "${summary}"` : ''}`;
  const attempt = typeof d.attempt === 'number' ? `, attempt ${d.attempt}` : '';
  const failure = e.attributes.failure;
  if (!failure) return `${head} completed${attempt}`;
  const retry = typeof d.backoffMs === 'number' ? `; retry in ${d.backoffMs} ms` : '';
  return `${head} failed${attempt}: ${failure.message}${retry}`;
}
