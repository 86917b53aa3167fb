import type { TimerRecord } from '../../store/types.ts';
import { StoreConflictError } from '../../store/errors.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { drainBuffer, takeAction } from './schedule-actions.ts';
import { isActive, recordIncident, rfc3339, specOf } from './schedule-state.ts';
import type { RunClosedNotice } from './scheduled-by.ts';
import { mutateSchedule, type ScheduleTx } from './schedule-tx.ts';

/** Timer kinds of schedules, fired by {@link fireScheduleTimer}. */
export const SCHEDULE_TIMER_KINDS = ['ScheduleFire', 'ScheduleRunClosed'] as const;

/** True for the timer kinds this module fires. */
export function isScheduleTimer(kind: string): boolean {
  return (SCHEDULE_TIMER_KINDS as readonly string[]).includes(kind);
}

/**
 * Spec times (and backfill times) processed per transaction: a long outage or backfill goes in
 * chunks, each its own commit, the fire timer re-armed due at once in between.
 */
export const ACTIONS_PER_FIRE = 100;

function scheduleOf(timer: TimerRecord): { namespace: string; scheduleId: string } {
  const prefix = `schedule:${timer.namespace}:`;
  return { namespace: timer.namespace, scheduleId: timer.runId.slice(prefix.length) };
}

/**
 * Fires a schedule timer: the schedule's state change, the workflows it starts, and the
 * consumption of the timer are one transaction, so a timer fired twice (two servers, or a
 * crash between claim and commit) takes its actions once.
 */
export async function fireScheduleTimer(core: EngineCore, timer: TimerRecord): Promise<void> {
  const { namespace, scheduleId } = scheduleOf(timer);
  try {
    const done = await mutateSchedule(core, namespace, scheduleId, async (tx) => {
      tx.consumeTimerId = timer.id;
      if (timer.kind === 'ScheduleRunClosed') await onRunClosed(tx, timer.data as RunClosedNotice);
      else if (tx.state.timerId === timer.id) await onFire(tx);
      return true;
    });
    if (!done) await core.store.commit({ executions: [], deleteTimerIds: [timer.id] });
  } catch (err) {
    if (err instanceof StoreConflictError && err.reason === 'timerGone') return;
    core.logger.error(`schedule ${scheduleId} timer ${timer.kind} failed to fire; it is retried when its lease ends`, { err: String(err) });
  }
}

/** Processes pending backfills, then the spec's due times: taken within the catchup window, counted and listed as missed beyond it. */
async function onFire(tx: ScheduleTx): Promise<void> {
  const s = tx.state;
  const spec = specOf(s);
  let budget = ACTIONS_PER_FIRE;
  while (s.backfills.length > 0 && budget > 0) {
    const bf = s.backfills[0]!;
    const t = spec.nextNominal(bf.cursor);
    if (t === null || t > bf.end) {
      s.backfills.shift();
      continue;
    }
    bf.cursor = t;
    budget--;
    await takeAction(tx, t, bf.overlap, true);
  }
  while (isActive(s) && budget > 0) {
    const next = spec.nextAction(s.processedUntil, tx.scheduleId);
    if (!next || next.actual > tx.now) break;
    s.processedUntil = next.nominal;
    budget--;
    const late = tx.now - next.actual;
    if (late > s.catchupWindowMs) {
      recordIncident(s, 'MissedCatchup', next.nominal, tx.now, `${late} ms late, beyond the catchup window of ${s.catchupWindowMs} ms`);
      continue;
    }
    const outcome = await takeAction(tx, next.nominal, s.overlap, false);
    if (outcome !== 'dropped' && s.remainingActions !== undefined) s.remainingActions--;
  }
  if (budget === 0) tx.moreDue = true;
}

/** A chain the schedule started ended: its outcome, last completion result or failure, pause-on-failure, and the buffer's next start. */
async function onRunClosed(tx: ScheduleTx, n: RunClosedNotice): Promise<void> {
  const s = tx.state;
  const running = s.running.find((r) => r.workflowId === n.workflowId);
  s.running = s.running.filter((r) => r !== running);
  for (const r of s.recent) if (r.workflowId === n.workflowId) r.status = n.status;
  if (n.status === 'Completed') {
    s.lastCompletionResult = n.result;
    delete s.lastFailure;
  } else if ((n.status === 'Failed' || n.status === 'TimedOut') && n.failure) {
    s.lastFailure = n.failure;
    const nominal = running?.nominal ?? tx.now;
    recordIncident(s, 'Failed', nominal, tx.now, `workflow ${n.workflowId} ${n.status}: ${n.failure.message}`);
    if (s.pauseOnFailure && !s.paused) {
      s.paused = true;
      s.note = `paused on failure: workflow ${n.workflowId} (action of ${rfc3339(nominal)}) ${n.status}: ${n.failure.message}`;
    }
  }
  await drainBuffer(tx);
}
