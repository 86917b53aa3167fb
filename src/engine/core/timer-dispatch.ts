import { WorkflowNotFoundError } from '../../common/errors.ts';
import { isDeliveryKind, type TimerKind, type TimerRowKind } from '../../history/timer-kinds.ts';
import { StoreConflictError } from '../../store/errors.ts';
import type { TimerRecord } from '../../store/types.ts';
import type { EngineCore } from './engine-core.ts';
import { DELIVERY_HANDLERS, TIMER_HANDLERS, type Fire } from '../features.ts';
import type { Timer } from './timer-data.ts';

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
