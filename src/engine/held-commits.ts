import type { Transition } from '../store/types.ts';

/**
 * How long a transition that handed its run's workflow task to a poll here waits, unwritten, for
 * the next transition of that run (the task's completion, most often), real ms: the two are then
 * written as one ({@link mergeTransitions}), one commit instead of two. A worker that takes longer
 * finds the first written alone, as before. Nothing waits on it but its own caller (a start's
 * answer, at most this much later), since the workflow code runs meanwhile.
 */
export const HOLD_MS = 5;

/**
 * True when a transition can wait for the next one of its run: it writes that one run alone, and
 * leaves it open (it hands out the run's workflow task).
 */
export function holdable(t: Transition): boolean {
  return t.executions.length === 1 && !t.purgeRunIds?.length && !t.schedules?.length && t.executions[0]!.record.status === 'Running';
}

/**
 * `first` and then `next`, two transitions of one run where `next` was decided on the run as
 * `first` leaves it, as one transition: the run's row as `next` leaves it, checked as `first`
 * checks it, with both transitions' events; the tasks and timers `first` creates and `next`
 * deletes are neither written nor deleted, nor those of the run when `next` closes it (its purge
 * would not see rows written by the same statement). Undefined when they cannot go as one: `next`
 * writes another run or a schedule, or consumes a timer (which `first` may have created).
 */
export function mergeTransitions(first: Transition, next: Transition): Transition | undefined {
  const [a] = first.executions;
  const [b] = next.executions;
  if (!a || !b || next.executions.length !== 1 || b.record.runId !== a.record.runId || b.expectedVersion !== a.record.version
    || next.consumeTimerId !== undefined || next.schedules?.length) return undefined;
  const purged = new Set(next.purgeRunIds ?? []);
  const deletedTasks = new Set(next.deleteTaskIds ?? []);
  const deletedTimers = new Set(next.deleteTimerIds ?? []);
  const firstTasks = new Set((first.createTasks ?? []).map((k) => k.id));
  const firstTimers = new Set((first.createTimers ?? []).map((k) => k.id));
  const merged: Transition = {
    executions: [{
      record: b.record, events: [...a.events, ...b.events],
      ...(a.expectedVersion !== undefined ? { expectedVersion: a.expectedVersion } : {}),
      ...(a.firstOfWorkflowId ? { firstOfWorkflowId: true } : {}),
    }],
    createTasks: [...(first.createTasks ?? []).filter((k) => !deletedTasks.has(k.id) && !purged.has(k.runId)), ...(next.createTasks ?? [])],
    deleteTaskIds: [...(first.deleteTaskIds ?? []), ...(next.deleteTaskIds ?? []).filter((id) => !firstTasks.has(id))],
    createTimers: [...(first.createTimers ?? []).filter((k) => !deletedTimers.has(k.id) && !purged.has(k.runId)), ...(next.createTimers ?? [])],
    deleteTimerIds: [...(first.deleteTimerIds ?? []), ...(next.deleteTimerIds ?? []).filter((id) => !firstTimers.has(id))],
  };
  if (first.consumeTimerId !== undefined) merged.consumeTimerId = first.consumeTimerId;
  if (next.purgeRunIds?.length) merged.purgeRunIds = next.purgeRunIds;
  return merged;
}
