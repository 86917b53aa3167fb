import type { FailureInfo } from '../common/failure.ts';
import type { Command, CommandAttributes, CommandType } from '../history/commands.ts';
import type { EventAttributes, EventType, HistoryEvent } from '../history/events.ts';
import type { UpdateOutcome } from '../history/message-types.ts';

/**
 * Where the payloads of each structure are. A walk calls `f` on every payload (an argument, a
 * result, details, a memo value) and returns the structure with each replaced by what `f`
 * returned, copying only the objects on the way to a payload, never changing the input: an
 * in-process engine may hand out objects it still holds.
 */
export type PayloadMap = (value: unknown) => unknown;

/** Every element of an argument list. */
export function walkArgs(args: unknown[], f: PayloadMap): unknown[] {
  return args.map(f);
}

/**
 * Every value of a memo (or marker details) but `null`, which in an upserted memo removes its
 * key and must stay readable to the engine; the server indexes search attributes, not memos.
 */
export function walkRecord(memo: Record<string, unknown>, f: PayloadMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(memo)) out[k] = v === null ? v : f(v);
  return out;
}

/** A failure's details and last heartbeat details, and those of its causes. Messages and stacks stay readable. */
export function walkFailure(failure: FailureInfo, f: PayloadMap): FailureInfo {
  const out: FailureInfo = { ...failure };
  if (failure.details !== undefined) out.details = failure.details.map(f);
  if (failure.lastHeartbeatDetails !== undefined) out.lastHeartbeatDetails = f(failure.lastHeartbeatDetails);
  if (failure.cause !== undefined) out.cause = walkFailure(failure.cause, f);
  return out;
}

/** An update's result or its failure. */
export function walkOutcome(outcome: UpdateOutcome, f: PayloadMap): UpdateOutcome {
  return outcome.failure !== undefined ? { failure: walkFailure(outcome.failure, f) } : { result: f(outcome.result) };
}

type Walk<A> = ((a: A, f: PayloadMap) => A) | null;

/** Copies `a` with its optional payload fields mapped. */
function fields<A extends object>(a: A, f: PayloadMap, spec: { args?: string[]; one?: string[]; records?: string[]; failures?: string[] }): A {
  const out = { ...a } as Record<string, unknown>;
  for (const k of spec.args ?? []) if (out[k] !== undefined) out[k] = walkArgs(out[k] as unknown[], f);
  for (const k of spec.one ?? []) if (out[k] !== undefined) out[k] = f(out[k]);
  for (const k of spec.records ?? []) if (out[k] !== undefined) out[k] = walkRecord(out[k] as Record<string, unknown>, f);
  for (const k of spec.failures ?? []) if (out[k] !== undefined) out[k] = walkFailure(out[k] as FailureInfo, f);
  return out as A;
}

function spec<A extends object>(s: Parameters<typeof fields>[2]): Walk<A> {
  return (a, f) => fields(a, f, s);
}

/**
 * The payload fields of every event type; `null` for events that carry none. A mapped type over
 * the event types, so an event type added without saying where its payloads are fails to compile.
 */
const EVENT_WALKS: { [K in EventType]: Walk<EventAttributes[K]> } = {
  WorkflowExecutionStarted: spec({ args: ['args'], one: ['lastCompletionResult'], records: ['memo'], failures: ['continuedFailure'] }),
  WorkflowTaskScheduled: null,
  WorkflowTaskStarted: null,
  WorkflowTaskCompleted: null,
  WorkflowTaskTimedOut: null,
  WorkflowTaskFailed: spec({ failures: ['failure'] }),
  ActivityTaskScheduled: spec({ args: ['args'] }),
  ActivityTaskStarted: spec({ failures: ['lastFailure'] }),
  ActivityTaskCompleted: spec({ one: ['result'] }),
  ActivityTaskFailed: spec({ failures: ['failure'] }),
  ActivityTaskTimedOut: spec({ failures: ['failure'] }),
  ActivityTaskCancelRequested: null,
  ActivityTaskCanceled: spec({ one: ['details'] }),
  TimerStarted: null,
  TimerFired: null,
  TimerCanceled: null,
  MarkerRecorded: spec({ records: ['details'], failures: ['failure'] }),
  WorkflowPropertiesModified: spec({ records: ['upsertedMemo'] }),
  WorkflowExecutionCancelRequested: null,
  WorkflowExecutionCompleted: spec({ one: ['result'] }),
  WorkflowExecutionFailed: spec({ failures: ['failure'] }),
  WorkflowExecutionTimedOut: null,
  WorkflowExecutionCanceled: spec({ one: ['details'] }),
  WorkflowExecutionTerminated: spec({ one: ['details'] }),
  WorkflowExecutionContinuedAsNew: spec({ args: ['args'], one: ['lastCompletionResult'], failures: ['failure'] }),
  StartChildWorkflowExecutionInitiated: spec({ args: ['args'], records: ['memo'] }),
  StartChildWorkflowExecutionFailed: null,
  ChildWorkflowExecutionStarted: null,
  ChildWorkflowExecutionCompleted: spec({ one: ['result'] }),
  ChildWorkflowExecutionFailed: spec({ failures: ['failure'] }),
  ChildWorkflowExecutionCanceled: spec({ one: ['details'] }),
  ChildWorkflowExecutionTimedOut: null,
  ChildWorkflowExecutionTerminated: null,
  RequestCancelExternalWorkflowExecutionInitiated: null,
  ExternalWorkflowExecutionCancelRequested: null,
  RequestCancelExternalWorkflowExecutionFailed: null,
  WorkflowExecutionSignaled: spec({ args: ['args'] }),
  SignalExternalWorkflowExecutionInitiated: spec({ args: ['args'] }),
  ExternalWorkflowExecutionSignaled: null,
  SignalExternalWorkflowExecutionFailed: null,
  WorkflowExecutionUpdateAccepted: spec({ args: ['args'] }),
  WorkflowExecutionUpdateAdmitted: spec({ args: ['args'] }),
  WorkflowExecutionUpdateCompleted: (a, f) => ({ ...a, outcome: walkOutcome(a.outcome, f) }),
  // Search attributes are indexed by the server, so they are never encoded.
  UpsertWorkflowSearchAttributes: null,
};

/** The payload fields of every command type, as {@link EVENT_WALKS} for events. */
const COMMAND_WALKS: { [K in CommandType]: Walk<CommandAttributes[K]> } = {
  ScheduleActivityTask: spec({ args: ['args'] }),
  RequestCancelActivityTask: null,
  StartTimer: null,
  CancelTimer: null,
  RecordMarker: spec({ records: ['details'], failures: ['failure'] }),
  CompleteWorkflowExecution: (a, f) => ({ ...a, result: f(a.result) }),
  FailWorkflowExecution: spec({ failures: ['failure'] }),
  CancelWorkflowExecution: spec({ one: ['details'] }),
  ContinueAsNewWorkflowExecution: spec({ args: ['args'], records: ['memo'] }),
  ModifyWorkflowProperties: spec({ records: ['upsertedMemo'] }),
  UpsertWorkflowSearchAttributes: null,
  StartChildWorkflowExecution: spec({ args: ['args'], records: ['memo'] }),
  RequestCancelExternalWorkflowExecution: null,
  SignalExternalWorkflowExecution: spec({ args: ['args'] }),
  CompleteWorkflowExecutionUpdate: (a, f) => ({ ...a, outcome: walkOutcome(a.outcome, f) }),
};

/** Every payload of a history. */
export function walkEvents(events: HistoryEvent[], f: PayloadMap): HistoryEvent[] {
  return events.map((e) => {
    const walk = EVENT_WALKS[e.eventType] as Walk<unknown>;
    return walk ? { ...e, attributes: walk(e.attributes, f) } as HistoryEvent : e;
  });
}

/** Every payload of a workflow task's commands. */
export function walkCommands(commands: Command[], f: PayloadMap): Command[] {
  return commands.map((c) => {
    const walk = COMMAND_WALKS[c.commandType] as Walk<unknown>;
    return walk ? { ...c, attributes: walk(c.attributes, f) } as Command : c;
  });
}
