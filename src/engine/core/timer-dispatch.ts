import { WorkflowNotFoundError } from '../../common/errors.ts';
import { isDeliveryKind, type TimerKind, type TimerRowKind } from '../../history/timer-kinds.ts';
import { StoreConflictError } from '../../store/errors.ts';
import type { TimerRecord } from '../../store/types.ts';
import type { EngineCore } from './engine-core.ts';
import type { Fire } from './feature.ts';
import type { Timer } from './timer-data.ts';

/**
 * Fires one claimed row of the timers table through the features' registries: a delivery through
 * `deliveries`, a true timer through `timers`. A row another server consumed first, or whose run is gone,
 * is done; any other failure is logged and the row fires again when its lease ends.
 */
export async function fireTimer(core: EngineCore, timer: TimerRecord): Promise<void> {
  const kind: string = timer.kind;
  const { deliveries, timers } = core.features;
  const fire = (isDeliveryKind(kind) ? deliveries[kind] : timers[kind as TimerKind]) as Fire<TimerRowKind> | undefined;
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
