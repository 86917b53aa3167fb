import type { DeliveryKind } from '../history/timer-kinds.ts';
import { CHILD_DELIVERIES } from './child-timers.ts';
import type { EngineCore } from './core.ts';
import { fireScheduleTimer } from './schedules/index.ts';
import { deliverExternalSignal } from './signals.ts';
import type { Timer } from './timer-data.ts';

/** Carries one delivery to its target, consuming its row in the target's transaction (or on its own when the target is gone). */
export type Deliver<K extends DeliveryKind> = (core: EngineCore, delivery: Timer<K>) => Promise<void>;

/**
 * Every kind of delivery and the feature that carries it: a mapped type over the kinds, so a
 * kind without a handler fails to compile. A delivery is written by the transition that causes
 * it (transactional outbox) and carried by the timer loop at once; a crash between the two
 * leaves the row, which is carried when its lease ends. Each handler is idempotent.
 */
export const DELIVERY_HANDLERS: { [K in DeliveryKind]: Deliver<K> } = {
  SignalExternal: deliverExternalSignal,
  ...CHILD_DELIVERIES,
  ScheduleRunClosed: fireScheduleTimer,
};
