/**
 * Kinds of true timers: each is due at a time of the clock and acts on the run (or schedule)
 * that owns it when it fires.
 */
export const TIMER_KINDS = ['UserTimer', 'ActivityTimeout', 'WorkflowTaskTimeout', 'RunTimeout', 'WorkflowBackoff', 'ScheduleFire'] as const;

/** A true timer's kind. */
export type TimerKind = (typeof TIMER_KINDS)[number];

/**
 * Kinds of deliveries: an outbox entry due at once, committed with the transition that causes
 * it and carrying that change to another run (or schedule) in a transaction of its own.
 */
export const DELIVERY_KINDS = ['SignalExternal', 'CancelExternal', 'StartChild', 'ChildClosed', 'ParentClosePolicy', 'ScheduleRunClosed'] as const;

/** A delivery's kind. */
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** The kind of a row of the timers table: a true timer or a delivery. */
export type TimerRowKind = TimerKind | DeliveryKind;

/** True for the kinds of deliveries. */
export function isDeliveryKind(kind: string): kind is DeliveryKind {
  return (DELIVERY_KINDS as readonly string[]).includes(kind);
}
