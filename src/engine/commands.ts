import { encodePayload } from '../common/payload.ts';
import { optionalArray, optionalRecord, optionalString, requireArray, requireInt, requireOneOf, requireString } from '../common/validate.ts';
import { mergeMemo } from '../history/memo.ts';
import { COMMAND_TYPES, TERMINAL_COMMAND_TYPES, type Command, type CommandType } from '../history/commands.ts';
import { ValidationError } from '../retry/errors.ts';
import { armActivityTimer, requestCancelActivity } from './activities.ts';
import { optionalRetryPolicy, optionalTimeout, requireDurationMs, requireFailure, requireObject, requireRetryPolicy } from './requests.ts';
import { MESSAGE_COMMAND_HANDLERS } from './messages.ts';
import { continueAsNew, retryOrClose } from './runs.ts';
import { canceledRunFailure, continueCron } from './cron-jobs.ts';
import { requestCancelExternalCommand, startChildCommand } from './child-commands.ts';
import { checkPending, DEFAULT_LIMITS, type EngineLimits } from './limits.ts';
import type { ActivityInfo } from './state.ts';
import type { TransitionBuilder } from './transition.ts';

/** What a command handler works with. */
export interface CommandContext {
  b: TransitionBuilder;
  /** Id of the WorkflowTaskCompleted event the commands follow. */
  completedEventId: number;
  /** `commands[i].attributes`, for error messages. */
  field: string;
  limits: EngineLimits;
}

type Handler = (ctx: CommandContext, attrs: Record<string, unknown>) => void;

/**
 * One handler per command type: each validates its attributes against the run's state (errors
 * name `commands[i].attributes.<field>` and fail the workflow task with BadCommand) and applies
 * the command. New command types (signals, children, updates) plug in here.
 */
export const COMMAND_HANDLERS: Record<CommandType, Handler> = {
  ScheduleActivityTask({ b, completedEventId, field, limits }, a) {
    const activityId = requireString(`${field}.activityId`, a.activityId);
    const activityType = requireString(`${field}.activityType`, a.activityType);
    const taskQueue = optionalString(`${field}.taskQueue`, a.taskQueue) ?? b.record.taskQueue;
    const args = optionalArray(`${field}.args`, a.args);
    encodePayload(`${field}.args`, args);
    const retryPolicy = requireRetryPolicy(`${field}.retryPolicy`, a.retryPolicy);
    const s2c = optionalTimeout(`${field}.scheduleToCloseTimeoutMs`, a.scheduleToCloseTimeoutMs);
    const s2s = optionalTimeout(`${field}.scheduleToStartTimeoutMs`, a.scheduleToStartTimeoutMs);
    const stc = optionalTimeout(`${field}.startToCloseTimeoutMs`, a.startToCloseTimeoutMs);
    const hb = optionalTimeout(`${field}.heartbeatTimeoutMs`, a.heartbeatTimeoutMs);
    if (stc === undefined && s2c === undefined) {
      throw new ValidationError(`${field}.startToCloseTimeoutMs`, 'is required when scheduleToCloseTimeoutMs is not set', undefined);
    }
    const pending = Object.values(b.state.activities);
    if (pending.some((x) => x.activityId === activityId)) {
      throw new ValidationError(`${field}.activityId`, 'must be unique among the pending activities of the run', activityId);
    }
    checkPending(field, pending.length, limits, 'maxPendingActivities');
    const timeouts = {
      startToCloseTimeoutMs: stc ?? s2c!,
      ...(s2c !== undefined ? { scheduleToCloseTimeoutMs: s2c } : {}),
      ...(s2s !== undefined ? { scheduleToStartTimeoutMs: s2s } : {}),
      ...(hb !== undefined ? { heartbeatTimeoutMs: hb } : {}),
    };
    const ev = b.append('ActivityTaskScheduled', {
      activityId, activityType, taskQueue, args, retryPolicy, workflowTaskCompletedEventId: completedEventId, ...timeouts,
    });
    const act: ActivityInfo = {
      scheduledEventId: ev.eventId, activityId, activityType, taskQueue, args, retryPolicy, timeouts, attempt: 1,
      state: 'Scheduled', scheduledTime: b.now, attemptScheduledTime: b.now, cancelRequested: false,
    };
    act.taskId = b.addTask('activity', taskQueue, { scheduledEventId: ev.eventId, attempt: 1 });
    b.state.activities[String(ev.eventId)] = act;
    armActivityTimer(b, act);
  },

  RequestCancelActivityTask({ b, completedEventId, field }, a) {
    const id = requireInt(`${field}.scheduledEventId`, a.scheduledEventId, 1);
    const act = b.state.activities[String(id)];
    if (!act) throw new ValidationError(`${field}.scheduledEventId`, 'must be the scheduled event id of a pending activity', id);
    requestCancelActivity(b, act, completedEventId);
  },

  StartTimer({ b, completedEventId, field }, a) {
    const timerId = requireString(`${field}.timerId`, a.timerId);
    const ms = requireDurationMs(`${field}.startToFireTimeoutMs`, a.startToFireTimeoutMs, 1);
    if (b.state.timers[timerId]) throw new ValidationError(`${field}.timerId`, 'must be unique among the pending timers of the run', timerId);
    const ev = b.append('TimerStarted', { timerId, startToFireTimeoutMs: ms, workflowTaskCompletedEventId: completedEventId });
    const dueAt = b.now + ms;
    b.state.timers[timerId] = { startedEventId: ev.eventId, dueAt, timerRowId: b.addTimer('UserTimer', dueAt, { timerId }) };
  },

  CancelTimer({ b, completedEventId, field }, a) {
    const timerId = requireString(`${field}.timerId`, a.timerId);
    const t = b.state.timers[timerId];
    if (!t) throw new ValidationError(`${field}.timerId`, 'must name a pending timer', timerId);
    b.append('TimerCanceled', { timerId, startedEventId: t.startedEventId, workflowTaskCompletedEventId: completedEventId });
    b.deleteTimer(t.timerRowId);
    delete b.state.timers[timerId];
  },

  RecordMarker({ b, completedEventId, field }, a) {
    const markerName = requireString(`${field}.markerName`, a.markerName);
    const details = optionalRecord(`${field}.details`, a.details) ?? {};
    encodePayload(`${field}.details`, details);
    const failure = a.failure === undefined ? undefined : requireFailure(`${field}.failure`, a.failure);
    b.append('MarkerRecorded', { markerName, details, workflowTaskCompletedEventId: completedEventId, ...(failure ? { failure } : {}) });
  },

  CompleteWorkflowExecution({ b, completedEventId, field }, a) {
    encodePayload(`${field}.result`, a.result);
    if (continueCron(b, { status: 'Completed', result: a.result === undefined ? null : a.result }, completedEventId)) return;
    b.close('Completed', 'WorkflowExecutionCompleted', { result: a.result === undefined ? null : a.result, workflowTaskCompletedEventId: completedEventId });
  },

  FailWorkflowExecution({ b, completedEventId, field }, a) {
    retryOrClose(b, requireFailure(`${field}.failure`, a.failure), 'failed', completedEventId);
  },

  CancelWorkflowExecution({ b, completedEventId, field }, a) {
    encodePayload(`${field}.details`, a.details);
    // The seed: a cancel request affects only the current run of a cron job; the chain goes on.
    if (continueCron(b, { status: 'Canceled', failure: canceledRunFailure(a.details) }, completedEventId)) return;
    b.close('Canceled', 'WorkflowExecutionCanceled', {
      workflowTaskCompletedEventId: completedEventId, ...(a.details !== undefined ? { details: a.details } : {}),
    });
  },

  ContinueAsNewWorkflowExecution({ b, completedEventId, field }, a) {
    const args = optionalArray(`${field}.args`, a.args);
    encodePayload(`${field}.args`, args);
    const memo = optionalRecord(`${field}.memo`, a.memo);
    const retryPolicy = optionalRetryPolicy(`${field}.retryPolicy`, a.retryPolicy);
    const workflowType = optionalString(`${field}.workflowType`, a.workflowType);
    const taskQueue = optionalString(`${field}.taskQueue`, a.taskQueue);
    const workflowRunTimeoutMs = optionalTimeout(`${field}.workflowRunTimeoutMs`, a.workflowRunTimeoutMs);
    const workflowTaskTimeoutMs = optionalTimeout(`${field}.workflowTaskTimeoutMs`, a.workflowTaskTimeoutMs);
    const backoff = a.backoffStartIntervalMs === undefined ? 0 : requireDurationMs(`${field}.backoffStartIntervalMs`, a.backoffStartIntervalMs, 0);
    continueAsNew(b, {
      initiator: 'Workflow', backoffMs: backoff, attempt: 1, args, workflowTaskCompletedEventId: completedEventId,
      ...(memo ? { memo } : {}), ...(retryPolicy ? { retryPolicy } : {}), ...(workflowType ? { workflowType } : {}),
      ...(taskQueue ? { taskQueue } : {}), ...(workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs } : {}),
      ...(workflowTaskTimeoutMs !== undefined ? { workflowTaskTimeoutMs } : {}),
    });
  },

  ModifyWorkflowProperties({ b, completedEventId, field }, a) {
    const upsertedMemo = optionalRecord(`${field}.upsertedMemo`, a.upsertedMemo);
    if (upsertedMemo === undefined) throw new ValidationError(`${field}.upsertedMemo`, 'must be an object of memo fields', a.upsertedMemo);
    encodePayload(`${field}.upsertedMemo`, upsertedMemo);
    b.append('WorkflowPropertiesModified', { upsertedMemo, workflowTaskCompletedEventId: completedEventId });
    const memo = mergeMemo(b.record.memo, upsertedMemo);
    if (memo) b.record.memo = memo;
    else delete b.record.memo;
  },

  ...MESSAGE_COMMAND_HANDLERS,

  StartChildWorkflowExecution: startChildCommand,
  RequestCancelExternalWorkflowExecution: requestCancelExternalCommand,
};

/**
 * The shape checks that need no state: an array of `{ commandType, attributes }`, known types,
 * and at most one run-closing command, last.
 */
export function validateCommandList(value: unknown): Command[] {
  const list = requireArray('commands', value);
  list.forEach((c, i) => {
    const cmd = requireObject(`commands[${i}]`, c);
    const type = requireOneOf(`commands[${i}].commandType`, cmd.commandType, COMMAND_TYPES);
    requireObject(`commands[${i}].attributes`, cmd.attributes);
    if (TERMINAL_COMMAND_TYPES.includes(type) && i !== list.length - 1) {
      throw new ValidationError(`commands[${i}].commandType`, 'closes the run and must be the last command', type);
    }
  });
  return list as Command[];
}

/** True when the list ends with a command that closes the run. */
export function hasTerminalCommand(commands: Command[]): boolean {
  const last = commands[commands.length - 1];
  return last !== undefined && TERMINAL_COMMAND_TYPES.includes(last.commandType);
}

/** Applies the commands in order. @throws ValidationError for a command the run's state rejects. */
export function applyCommands(b: TransitionBuilder, commands: Command[], completedEventId: number, limits: EngineLimits = DEFAULT_LIMITS): void {
  commands.forEach((c, i) => {
    COMMAND_HANDLERS[c.commandType]({ b, completedEventId, field: `commands[${i}].attributes`, limits }, c.attributes as unknown as Record<string, unknown>);
  });
}
