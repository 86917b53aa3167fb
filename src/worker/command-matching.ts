import type { Command, CommandType } from '../history/commands.ts';
import type { EventType, HistoryEvent } from '../history/events.ts';
import { MESSAGE_COMMAND_MATCHERS } from './message-jobs.ts';

type AnyAttrs = Record<string, unknown>;

/**
 * How each command shows up in history: the event types it may produce and the attributes
 * that must agree on replay (Temporal's rules: activity type and id, timer id, marker name).
 * Arguments, timeouts and durations are free to change between deployments. New commands
 * (child workflows, external signals, upserts) are one entry each.
 */
export const COMMAND_EVENT_MATCHERS: { [K in CommandType]: { events: readonly EventType[]; keys: readonly string[] } } = {
  ScheduleActivityTask: { events: ['ActivityTaskScheduled'], keys: ['activityId', 'activityType'] },
  RequestCancelActivityTask: { events: ['ActivityTaskCancelRequested'], keys: ['scheduledEventId'] },
  StartTimer: { events: ['TimerStarted'], keys: ['timerId'] },
  CancelTimer: { events: ['TimerCanceled'], keys: ['timerId'] },
  RecordMarker: { events: ['MarkerRecorded'], keys: ['markerName'] },
  CompleteWorkflowExecution: { events: ['WorkflowExecutionCompleted', 'WorkflowExecutionContinuedAsNew'], keys: [] },
  // A failed run with a retry policy closes as ContinuedAsNew (initiator RetryPolicy), as in Cadence.
  FailWorkflowExecution: { events: ['WorkflowExecutionFailed', 'WorkflowExecutionContinuedAsNew'], keys: [] },
  CancelWorkflowExecution: { events: ['WorkflowExecutionCanceled'], keys: [] },
  ContinueAsNewWorkflowExecution: { events: ['WorkflowExecutionContinuedAsNew'], keys: [] },
  StartChildWorkflowExecution: { events: ['StartChildWorkflowExecutionInitiated'], keys: ['workflowType', 'workflowId'] },
  RequestCancelExternalWorkflowExecution: { events: ['RequestCancelExternalWorkflowExecutionInitiated'], keys: ['workflowId'] },
  ModifyWorkflowProperties: { events: ['WorkflowPropertiesModified'], keys: [] },
  ...MESSAGE_COMMAND_MATCHERS,
};

const COMMAND_EVENT_TYPES = new Set<string>(Object.values(COMMAND_EVENT_MATCHERS).flatMap((m) => m.events));

/** True for events written because a workflow task completed with a command. */
export function isCommandEvent(event: HistoryEvent): boolean {
  return COMMAND_EVENT_TYPES.has(event.eventType)
    && (event.attributes as AnyAttrs).workflowTaskCompletedEventId !== undefined;
}

/** Undefined when `event` records `command`; otherwise what differs. */
export function commandMismatch(command: Command, event: HistoryEvent): string | undefined {
  const matcher = COMMAND_EVENT_MATCHERS[command.commandType];
  if (!matcher.events.includes(event.eventType)) return 'the event type differs';
  const c = command.attributes as AnyAttrs;
  const e = event.attributes as AnyAttrs;
  const differing = matcher.keys.filter((k) => c[k] !== e[k]);
  return differing.length ? `${differing.join(' and ')} differ` : undefined;
}

function pick(attrs: AnyAttrs, keys: readonly string[]): string {
  const shown = keys.filter((k) => attrs[k] !== undefined).map((k) => `${k}: ${JSON.stringify(attrs[k])}`);
  return shown.length ? ` { ${shown.join(', ')} }` : '';
}

const EVENT_KEYS: Partial<Record<EventType, readonly string[]>> = Object.fromEntries(
  Object.values(COMMAND_EVENT_MATCHERS).flatMap((m) => m.events.map((e) => [e, m.keys])),
);

/** `ScheduleActivityTask { activityId: "1", activityType: "charge" }` */
export function describeCommand(command: Command): string {
  return `${command.commandType}${pick(command.attributes as AnyAttrs, COMMAND_EVENT_MATCHERS[command.commandType].keys)}`;
}

/** `event 5 TimerStarted { timerId: "1" }` */
export function describeEvent(event: HistoryEvent): string {
  return `event ${event.eventId} ${event.eventType}${pick(event.attributes as AnyAttrs, EVENT_KEYS[event.eventType] ?? [])}`;
}
