import { toMs, type Duration } from '../retry/duration.ts';
import type { TemporalRetryPolicy } from '../retry/index.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import type {
  CanonicalSpecData, ScheduleActionData, ScheduleActionResult, ScheduleDescription as WireScheduleDescription, ScheduleOverlapPolicy,
} from '../protocol/index.ts';
import { CALENDAR_FIELDS, FIELD_DEFS, type CalendarFieldName } from '../schedule/field.ts';

/** Temporal's month and day names, as its `CalendarSpecDescription` gives them. */
const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'] as const;
const DAYS_OF_WEEK = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const;

/** A set of values of a calendar field, as Temporal describes it: `start` to `end` (inclusive) by `step`. */
export interface ScheduleRange<Unit> {
  start: Unit;
  end: Unit;
  step: number;
}

/** A calendar of the spec, in Temporal's `CalendarSpecDescription` shape: every field as ranges, months and days by name. */
export interface CalendarSpecDescription {
  second: ScheduleRange<number>[];
  minute: ScheduleRange<number>[];
  hour: ScheduleRange<number>[];
  dayOfMonth: ScheduleRange<number>[];
  month: ScheduleRange<(typeof MONTHS)[number]>[];
  year: ScheduleRange<number>[];
  dayOfWeek: ScheduleRange<(typeof DAYS_OF_WEEK)[number]>[];
  comment?: string;
}

/**
 * The spec as `describe()` gives it, in Temporal's `ScheduleSpecDescription` shape (cron
 * expressions appear as the calendars they mean); it can be passed back to create or update.
 */
export interface ScheduleSpecDescription {
  calendars: CalendarSpecDescription[];
  /** Each `every` and `offset` in ms. */
  intervals: { every: number; offset: number }[];
  skip: CalendarSpecDescription[];
  startAt?: Date;
  endAt?: Date;
  /** ms. */
  jitter: number;
  timezone: string;
}

/**
 * The schedule's action in Temporal's shape (`type`, `retry`, timeouts in ms): the options it was
 * created with, so it can be passed back to create or update (`raw.action` has the service's form).
 */
export interface ScheduleDescriptionAction {
  type: 'startWorkflow';
  workflowType: string;
  taskQueue: string;
  workflowId: string;
  args?: unknown[];
  memo?: Record<string, unknown>;
  searchAttributes?: NonNullable<ScheduleActionData['searchAttributes']>;
  retry?: TemporalRetryPolicy;
  workflowExecutionTimeout?: number;
  workflowRunTimeout?: number;
  workflowTaskTimeout?: number;
  staticSummary?: string;
  staticDetails?: string;
}

/** A workflow the schedule started, as Temporal names it. */
export interface ScheduleExecutionActionResult {
  type: 'startWorkflow';
  workflow: { workflowId: string; firstExecutionRunId: string };
}

/** An action the schedule took: Temporal's `ScheduleExecutionResult`, with the service's workflow id, run id and last known status beside it. */
export interface ScheduleExecutionResult extends Omit<ScheduleActionResult, 'scheduledAt' | 'takenAt'> {
  /** The time the action was scheduled for, jitter included. */
  scheduledAt: Date;
  takenAt: Date;
  action: ScheduleExecutionActionResult;
}

/**
 * What `scheduleHandle.describe()` returns, in the shape of Temporal's `ScheduleDescription`:
 * `spec`, `action`, `policies` (`catchupWindow` in ms), `state`, and `info` with Temporal's
 * counters, `recentActions` and `nextActionTimes` as Dates; beside them the service's fields
 * (incidents, buffered actions, health, `catchupWindowMs`, …) and `raw`, the answer as it came.
 * `policies.overlap` is steadfast's name (`"BufferOne"`), which `ScheduleOverlapPolicy.BUFFER_ONE` equals.
 */
export interface ScheduleDescription {
  scheduleId: string;
  spec: ScheduleSpecDescription;
  action: ScheduleDescriptionAction;
  policies: { overlap: ScheduleOverlapPolicy; catchupWindow: number; catchupWindowMs: number; pauseOnFailure: boolean };
  /** Paused or not, the note (absent when empty, as in Temporal), the actions left when limited. */
  state: { paused: boolean; note?: string; remainingActions?: number };
  info: Omit<WireScheduleDescription['info'], 'nextActionTimes' | 'recentActions'> & {
    /** The next 10 action times (actual, with jitter). */
    nextActionTimes: Date[];
    /** The 10 most recent actions, oldest first. */
    recentActions: ScheduleExecutionResult[];
    numActionsTaken: number;
    numActionsMissedCatchupWindow: number;
    numActionsSkippedOverlap: number;
    createdAt: Date;
    lastUpdatedAt: Date;
    /** The workflows it started that still run. */
    runningActions: ScheduleExecutionActionResult[];
  };
  /** Pass to update to make it conditional on nothing having changed since. */
  conflictToken: number;
  /** The service's answer as it came over the wire. */
  raw: WireScheduleDescription;
}

/** A canonical field (`*`, `9-17`, `*\/15`, `1,3,5-9`) as Temporal's ranges. */
function rangesOf(text: string, name: CalendarFieldName): ScheduleRange<number>[] {
  const { min, max } = FIELD_DEFS[name];
  return text.split(',').map((part) => {
    const [base = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (base === '*') return { start: min, end: max, step };
    const [a, b] = base.split('-').map(Number) as [number, number | undefined];
    // A stepped value without an end (`5/15`) runs to the field's maximum.
    return { start: a, end: b ?? (stepText === undefined ? a : max), step };
  });
}

function named<N>(ranges: ScheduleRange<number>[], names: readonly N[], base: number): ScheduleRange<N>[] {
  return ranges.map((r) => ({ start: names[r.start - base]!, end: names[r.end - base]!, step: r.step }));
}

function calendarOf(c: Record<string, string>): CalendarSpecDescription {
  const f = Object.fromEntries(CALENDAR_FIELDS.map((n) => [n, rangesOf(c[n] ?? '*', n)])) as Record<CalendarFieldName, ScheduleRange<number>[]>;
  return {
    second: f.second, minute: f.minute, hour: f.hour, dayOfMonth: f.dayOfMonth, year: f.year,
    month: named(f.month, MONTHS, 1), dayOfWeek: named(f.dayOfWeek, DAYS_OF_WEEK, 0),
    ...(c.comment ? { comment: c.comment } : {}),
  };
}

function specOf(s: CanonicalSpecData): ScheduleSpecDescription {
  return {
    calendars: s.calendars.map(calendarOf),
    intervals: s.intervals.map((i) => ({ every: toMs(i.every as Duration, 'every'), offset: toMs(i.offset as Duration, 'offset') })),
    skip: s.skip.map(calendarOf),
    ...(s.startAt !== undefined ? { startAt: new Date(s.startAt) } : {}),
    ...(s.endAt !== undefined ? { endAt: new Date(s.endAt) } : {}),
    jitter: toMs(s.jitter as Duration, 'jitter'),
    timezone: s.timezone,
  };
}

function actionOf(a: ScheduleActionData): ScheduleDescriptionAction {
  const out: ScheduleDescriptionAction = { type: 'startWorkflow', workflowType: a.workflowType, taskQueue: a.taskQueue, workflowId: a.workflowId };
  if (a.args !== undefined) out.args = a.args;
  if (a.memo !== undefined) out.memo = a.memo;
  if (a.searchAttributes !== undefined) out.searchAttributes = a.searchAttributes;
  const r = a.retryPolicy as RetryPolicyData | undefined;
  if (r) {
    out.retry = {
      initialInterval: r.initialIntervalMs, backoffCoefficient: r.backoffCoefficient, maximumInterval: r.maximumIntervalMs,
      maximumAttempts: r.maximumAttempts, nonRetryableErrorTypes: r.nonRetryableErrorTypes,
    };
  }
  if (a.workflowExecutionTimeoutMs !== undefined) out.workflowExecutionTimeout = a.workflowExecutionTimeoutMs;
  if (a.workflowRunTimeoutMs !== undefined) out.workflowRunTimeout = a.workflowRunTimeoutMs;
  if (a.workflowTaskTimeoutMs !== undefined) out.workflowTaskTimeout = a.workflowTaskTimeoutMs;
  if (a.userMetadata?.summary !== undefined) out.staticSummary = a.userMetadata.summary;
  if (a.userMetadata?.details !== undefined) out.staticDetails = a.userMetadata.details;
  return out;
}

const started = (workflowId: string, runId: string): ScheduleExecutionActionResult =>
  ({ type: 'startWorkflow', workflow: { workflowId, firstExecutionRunId: runId } });

/** The Temporal-shaped description of the service's answer. */
export function toScheduleDescription(raw: WireScheduleDescription): ScheduleDescription {
  const i = raw.info;
  return {
    scheduleId: raw.scheduleId,
    spec: specOf(raw.spec),
    action: actionOf(raw.action),
    policies: { ...raw.policies, catchupWindow: raw.policies.catchupWindowMs },
    state: {
      paused: raw.state.paused,
      ...(raw.state.note ? { note: raw.state.note } : {}),
      ...(raw.state.remainingActions !== undefined ? { remainingActions: raw.state.remainingActions } : {}),
    },
    info: {
      ...i,
      nextActionTimes: i.nextActionTimes.map((t) => new Date(t)),
      recentActions: i.recentActions.map((a) => ({
        ...a, scheduledAt: new Date(a.scheduledAt), takenAt: new Date(a.takenAt), action: started(a.workflowId, a.runId),
      })),
      numActionsTaken: i.counters.actions,
      numActionsMissedCatchupWindow: i.counters.missedCatchup,
      numActionsSkippedOverlap: i.counters.skipped,
      createdAt: new Date(i.createTime),
      lastUpdatedAt: new Date(i.updateTime),
      runningActions: i.runningWorkflows.map((w) => started(w.workflowId, w.runId)),
    },
    conflictToken: raw.conflictToken,
    raw,
  };
}
