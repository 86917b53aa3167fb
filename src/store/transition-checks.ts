import type { ExecutionWrite, StoreNotification, Transition } from './types.ts';

/**
 * Refuses a write whose events would leave a gap or a repeat: they must continue the stored
 * `nextEventId` (1 for a new run) and end at `record.nextEventId - 1`, and a version that does
 * not rise. Optimistic concurrency guarantees the stored value is the one the engine read, so
 * ids stay contiguous per run.
 */
export function checkEventIds(w: ExecutionWrite): void {
  const first = w.record.nextEventId - w.events.length;
  if (w.expectedVersion === undefined && first !== 1) {
    throw new Error(`new run ${w.record.runId} must start at event 1, its events start at ${first}`);
  }
  w.events.forEach((e, i) => {
    if (e.eventId !== first + i) {
      throw new Error(`run ${w.record.runId}: event ${i} has id ${e.eventId}, expected ${first + i} (ids are contiguous)`);
    }
  });
  // A write moves the version forward (by one, or more where a store allows it); never back or in place.
  if (!(w.record.version > (w.expectedVersion ?? 0))) {
    throw new Error(`run ${w.record.runId}: version must be above ${w.expectedVersion ?? 0}, got ${w.record.version}`);
  }
}

/** What subscribers learn from a committed transition. */
export function notificationsOf(t: Transition): StoreNotification[] {
  const out: StoreNotification[] = [];
  const seen = new Map<string, { visibleAt: number; count: number }>();
  for (const k of t.createTasks ?? []) {
    const key = `${k.namespace}\u0000${k.taskQueue}\u0000${k.kind}`;
    const prev = seen.get(key);
    seen.set(key, { visibleAt: Math.min(prev?.visibleAt ?? Infinity, k.visibleAt), count: (prev?.count ?? 0) + 1 });
  }
  for (const [key, { visibleAt, count }] of seen) {
    const [namespace, taskQueue, kind] = key.split('\u0000') as [string, string, 'workflow' | 'activity'];
    out.push({ type: 'task', namespace, taskQueue, kind, visibleAt, count });
  }
  const timerDue = Math.min(...(t.createTimers ?? []).map((x) => x.dueAt));
  if (Number.isFinite(timerDue)) out.push({ type: 'timer', dueAt: timerDue });
  for (const w of t.executions) if (w.record.status !== 'Running') out.push({ type: 'closed', runId: w.record.runId });
  return out;
}
