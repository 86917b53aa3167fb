import { userMetadataOf } from '../history/user-metadata.ts';
import type { Duration } from '../retry/duration.ts';
import { resolveRetryPolicy, type TemporalRetryPolicy } from '../retry/index.ts';
import { ValidationError } from '../errors/index.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { optionalBoolean, optionalDurationAtLeast, optionalPositiveDuration, optionalRecord, requireString } from '../common/validate.ts';
import { MIN_CATCHUP_WINDOW_MS } from '../protocol/limits.ts';
import { payloadOf } from './request-limits.ts';
import { searchAttributesToWire, type SearchAttributesOption } from './start-options.ts';
import {
  resolveScheduleOverlapPolicy, type ScheduleActionData, type ScheduleOverlapPolicyOption, type SchedulePoliciesData,
} from '../protocol/index.ts';
import type { ScheduleSpec } from '../schedule/schedule-spec.ts';

/** The workflow a schedule starts, in the Temporal TypeScript SDK's shape. */
export interface ScheduleStartWorkflowAction {
  type: 'startWorkflow';
  /** A workflow function's name or the type name. */
  workflowType: string | ((...args: never[]) => Promise<unknown>);
  taskQueue: string;
  /**
   * Each started workflow's id is this id, `-`, and the action's nominal time (RFC 3339).
   * @default `${scheduleId}-workflow`, as in Temporal
   */
  workflowId?: string;
  args?: unknown[];
  memo?: Record<string, unknown>;
  /**
   * Custom search attributes of every started workflow (registered in the namespace); each also
   * gets `TemporalScheduledById` and `TemporalScheduledStartTime`.
   */
  searchAttributes?: SearchAttributesOption;
  retry?: TemporalRetryPolicy;
  workflowExecutionTimeout?: Duration;
  workflowRunTimeout?: Duration;
  workflowTaskTimeout?: Duration;
  /** Each started workflow's static summary (Temporal's `staticSummary`). */
  staticSummary?: string;
  /** Each started workflow's static details (Temporal's `staticDetails`). */
  staticDetails?: string;
}

/** Policies of a schedule. */
export interface SchedulePolicies {
  /**
   * What to do when an action is due while a started workflow runs: steadfast's names or
   * Temporal's spellings (`ScheduleOverlapPolicy.BUFFER_ONE`). @default "Skip"
   */
  overlap?: ScheduleOverlapPolicyOption;
  /** How late a missed action may still be taken; at least 1s, at most 100 years. @default "1 minute" (the seed's; Temporal's server uses a year) */
  catchupWindow?: Duration;
  /** The same window in ms, as `describe()` gives it beside `catchupWindow`; when both are given they must agree. */
  catchupWindowMs?: number;
  /** Pause when a started workflow fails or times out. @default false */
  pauseOnFailure?: boolean;
}

/** The state a schedule is created with. */
export interface ScheduleOptionsState {
  /** @default false */
  paused?: boolean;
  /** @default "" */
  note?: string;
  /** Scheduled actions allowed (triggers and backfills do not count); then it acts as paused. @default unlimited */
  remainingActions?: number;
}

/** Options of `client.schedule.create`. */
export interface ScheduleOptions {
  scheduleId: string;
  spec: ScheduleSpec;
  action: ScheduleStartWorkflowAction;
  policies?: SchedulePolicies;
  state?: ScheduleOptionsState;
}

/** The keys of {@link ScheduleOptions}. */
export const SCHEDULE_OPTION_KEYS = optionKeys<ScheduleOptions>({ scheduleId: true, spec: true, action: true, policies: true, state: true });

const ACTION_KEYS = optionKeys<ScheduleStartWorkflowAction>({
  type: true, workflowType: true, taskQueue: true, workflowId: true, args: true, memo: true, searchAttributes: true, retry: true,
  workflowExecutionTimeout: true, workflowRunTimeout: true, workflowTaskTimeout: true, staticSummary: true, staticDetails: true,
});

const POLICY_KEYS = optionKeys<SchedulePolicies>({ overlap: true, catchupWindow: true, catchupWindowMs: true, pauseOnFailure: true });

/** The spec as JSON (Dates become ISO strings); the server validates it whole. */
export function specToWire(spec: ScheduleSpec): unknown {
  if (typeof spec !== 'object' || spec === null) throw new ValidationError('spec', 'must be an object (intervals, calendars, cronExpressions, ...)', spec);
  return JSON.parse(JSON.stringify(spec));
}

/** The action as the service takes it; errors name `action.<option>`. */
export function actionToWire(action: ScheduleStartWorkflowAction, scheduleId: string): ScheduleActionData {
  const a = optionalRecord('action', action);
  if (!a) throw new ValidationError('action', "is required: { type: 'startWorkflow', workflowType, taskQueue, workflowId }", action);
  if (a.type !== 'startWorkflow') throw new ValidationError('action.type', "must be 'startWorkflow'", a.type);
  refuseUnknownKeys('startWorkflow', a, ACTION_KEYS, { field: 'action' });
  const type = typeof a.workflowType === 'function' ? (a.workflowType as { name: string }).name : a.workflowType;
  const out: ScheduleActionData = {
    workflowType: requireString('action.workflowType', type),
    taskQueue: requireString('action.taskQueue', a.taskQueue),
    workflowId: a.workflowId === undefined ? `${scheduleId}-workflow` : requireString('action.workflowId', a.workflowId),
  };
  if (a.args !== undefined) {
    if (!Array.isArray(a.args)) throw new ValidationError('action.args', 'must be an array of the workflow\'s arguments', a.args);
    out.args = payloadOf('action.args', a.args) as unknown[];
  }
  const memo = optionalRecord('action.memo', a.memo);
  if (memo) out.memo = payloadOf('action.memo', memo) as Record<string, unknown>;
  const attributes = searchAttributesToWire('action.searchAttributes', a.searchAttributes);
  if (attributes) out.searchAttributes = attributes;
  if (a.retry !== undefined) out.retryPolicy = resolveRetryPolicy(a.retry as TemporalRetryPolicy, 'action.retry');
  const timeouts = [['workflowExecutionTimeout', 'workflowExecutionTimeoutMs'], ['workflowRunTimeout', 'workflowRunTimeoutMs'],
    ['workflowTaskTimeout', 'workflowTaskTimeoutMs']] as const;
  for (const [name, wire] of timeouts) {
    const ms = optionalPositiveDuration(`action.${name}`, a[name]);
    if (ms !== undefined) out[wire] = ms;
  }
  const userMetadata = userMetadataOf({ field: 'action.staticSummary', value: a.staticSummary }, { field: 'action.staticDetails', value: a.staticDetails });
  if (userMetadata) out.userMetadata = userMetadata;
  return out;
}

/** Policies as the service takes them. */
export function policiesToWire(policies: SchedulePolicies | undefined): SchedulePoliciesData {
  const p = optionalRecord('policies', policies) ?? {};
  refuseUnknownKeys('schedule policy', p, POLICY_KEYS, { field: 'policies', noun: 'schedule policy' });
  const out: SchedulePoliciesData = {};
  if (p.overlap !== undefined) out.overlap = resolveScheduleOverlapPolicy('policies.overlap', p.overlap);
  // A described schedule's policies carry the window twice (catchupWindow, catchupWindowMs): passed back, they must agree.
  const described = optionalDurationAtLeast('policies.catchupWindowMs', p.catchupWindowMs, MIN_CATCHUP_WINDOW_MS);
  const catchup = optionalDurationAtLeast('policies.catchupWindow', p.catchupWindow, MIN_CATCHUP_WINDOW_MS) ?? described;
  if (described !== undefined && described !== catchup) {
    throw new ValidationError('policies.catchupWindowMs', `must equal policies.catchupWindow (${catchup} ms) when both are given`, p.catchupWindowMs);
  }
  if (catchup !== undefined) out.catchupWindowMs = catchup;
  const pof = optionalBoolean('policies.pauseOnFailure', p.pauseOnFailure);
  if (pof !== undefined) out.pauseOnFailure = pof;
  return out;
}
