import type { EventAttributes } from '../../history/events.ts';
import type { UpdateOutcome } from '../../history/message-types.ts';
import { ValidationError } from '../../errors/index.ts';
import type { StateSlice } from '../core/feature.ts';

declare module '../core/timer-data.ts' {
  interface TimerRowData {
    /** A SignalExternalWorkflowExecution to deliver, by its Initiated event. */
    SignalExternal: { initiatedEventId: number };
  }
}

/**
 * Limits of signals, queries and updates; each names itself in the error it causes. Pending
 * signals to other workflows count under EngineLimits.maxPendingSignals.
 */
export interface MessageLimits {
  /** Signals one run may receive (Temporal's default). Continue-as-new starts a new count. @default 10 000 */
  maxSignalsPerRun: number;
  /** Updates of one run that are being validated or accepted and not completed. @default 10 */
  maxInFlightUpdatesPerRun: number;
  /** How long a query or an update validation waits for a worker's answer, ms. @default 10 000 */
  queryTimeoutMs: number;
}

/** The limits when none are configured. */
export const DEFAULT_MESSAGE_LIMITS: Readonly<MessageLimits> = Object.freeze({
  maxSignalsPerRun: 10_000,
  maxInFlightUpdatesPerRun: 10,
  queryTimeoutMs: 10_000,
});

/**
 * Request ids of the most recent signals a run remembers for deduplication. A bounded window
 * keeps the run's state (rewritten on every transition) small: a retried signal repeats within
 * seconds, not after a thousand other signals.
 */
export const SIGNAL_DEDUP_WINDOW = 1_000;

/** A signal to another workflow, between its Initiated event and the delivery's result. */
export type PendingExternalSignal =
  Omit<EventAttributes['SignalExternalWorkflowExecutionInitiated'], 'workflowTaskCompletedEventId'> & { initiatedEventId: number };

/**
 * An update the run took; `outcome` once its handler finished (or, for an admitted one, its
 * validator rejected it). An update-with-start's is `Admitted` until a workflow task delivers it.
 */
export interface UpdateRecord {
  updateName: string;
  stage: 'Admitted' | 'Accepted' | 'Completed';
  outcome?: UpdateOutcome;
  /**
   * For an admitted update: the run's nextEventId when it was admitted. Its Admitted event has
   * this id or a later one (buffered during a workflow task), and the workflow task in flight
   * then started before it; so a completed workflow task that started at or after it delivered
   * the update, whose validator then passed (a rejection completes it).
   */
  admittedFrom?: number;
}

/** The stage a caller sees: an admitted update is accepted once a completed workflow task delivered it. */
export function updateStageOf(u: UpdateRecord, previousStartedEventId: number): UpdateRecord['stage'] {
  return u.stage === 'Admitted' && previousStartedEventId >= (u.admittedFrom ?? Infinity) ? 'Accepted' : u.stage;
}

/** The part of a run's state that signals and updates keep. */
export interface MessageState {
  signalCount: number;
  signalRequestIds: string[];
  /** By initiated event id. */
  externalSignals: Record<string, PendingExternalSignal>;
  /** By update id. */
  updates: Record<string, UpdateRecord>;
}

declare module '../core/state.ts' {
  interface RunSlices {
    /** What signals and updates keep. */
    messages: MessageState;
  }
}

/** The messages feature's slice of the run state. */
export const messageSlice: StateSlice = { initial: () => ({ messages: emptyMessageState() }) };

/** The message state of a run that has received nothing. */
export function emptyMessageState(): MessageState {
  return { signalCount: 0, signalRequestIds: [], externalSignals: {}, updates: {} };
}

/** Resolves configured limits; errors name the option. */
export function resolveMessageLimits(input: Partial<MessageLimits> | undefined, field = 'messageLimits'): MessageLimits {
  const out = { ...DEFAULT_MESSAGE_LIMITS };
  if (input === undefined) return out;
  for (const key of Object.keys(DEFAULT_MESSAGE_LIMITS) as (keyof MessageLimits)[]) {
    const v = input[key];
    if (v === undefined) continue;
    if (!Number.isInteger(v) || v < 1) {
      throw new ValidationError(`${field}.${key}`, 'must be an integer >= 1', v);
    }
    out[key] = v;
  }
  return out;
}

