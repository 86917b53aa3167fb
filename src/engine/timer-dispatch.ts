import { WorkflowNotFoundError } from '../common/errors.ts';
import { isDeliveryKind, type TimerKind, type TimerRowKind } from '../history/timer-kinds.ts';
import { StoreConflictError } from '../store/errors.ts';
import type { TimerRecord } from '../store/types.ts';
import type { EngineCore } from './core.ts';
import { DELIVERY_HANDLERS } from './deliveries.ts';
import { fireScheduleTimer } from './schedules/index.ts';
import { atKey, wtKey } from './task-service.ts';
import type { Timer } from './timer-data.ts';
import { applyTimer, type RunTimerKind } from './timers.ts';

type Fire<K extends TimerRowKind> = (core: EngineCore, timer: Timer<K>) => Promise<void>;

function fireRunTimer<K extends RunTimerKind>(core: EngineCore, timer: Timer<K>): Promise<void> {
  return core.mutate(timer.runId, (b) => applyTimer(b, timer));
}

/**
 * Every kind of true timer and what fires it: a mapped type over the kinds, so a kind without a
 * handler fails to compile. Run timers apply inside their run's transition (timers.ts); the
 * answer a worker still owes for a timed-out task stops counting as in flight.
 */
export const TIMER_HANDLERS: { [K in TimerKind]: Fire<K> } = {
  UserTimer: fireRunTimer,
  ActivityTimeout: (core, timer) => core.mutate(timer.runId, (b) => {
    const { scheduledEventId } = timer.data;
    const act = b.state.activities[String(scheduledEventId)];
    if (act) core.inFlight.delete(atKey({ runId: timer.runId, scheduledEventId, attempt: act.attempt }));
    applyTimer(b, timer);
  }),
  WorkflowTaskTimeout: (core, timer) => {
    core.inFlight.delete(wtKey({ runId: timer.runId, ...timer.data }));
    return fireRunTimer(core, timer);
  },
  RunTimeout: fireRunTimer,
  WorkflowBackoff: fireRunTimer,
  ScheduleFire: fireScheduleTimer,
};

/**
 * Fires one claimed row of the timers table: a delivery through {@link DELIVERY_HANDLERS}, a true
 * timer through {@link TIMER_HANDLERS}. A row another server consumed first, or whose run is gone,
 * is done; any other failure is logged and the row fires again when its lease ends.
 */
export async function fireTimer(core: EngineCore, timer: TimerRecord): Promise<void> {
  const kind: string = timer.kind;
  const fire = (isDeliveryKind(kind) ? DELIVERY_HANDLERS[kind] : TIMER_HANDLERS[kind as TimerKind]) as Fire<TimerRowKind> | undefined;
  try {
    if (!fire) {
      core.logger.error(`timer ${kind} of run ${timer.runId} is of no kind this engine knows; it is dropped`);
      await core.store.commit({ executions: [], deleteTimerIds: [timer.id] });
      return;
    }
    await core.tracked(() => fire(core, timer as Timer));
  } catch (err) {
    if (err instanceof StoreConflictError && err.reason === 'timerGone') return;
    if (err instanceof WorkflowNotFoundError) {
      await core.store.commit({ executions: [], deleteTimerIds: [timer.id] });
      return;
    }
    core.logger.error(`timer ${kind} of run ${timer.runId} failed to fire; it is retried when its lease ends`, { err: String(err) });
  }
}
