import { encodePayload } from '../../common/payload.ts';
import {
  optionalArray, optionalBoolean, optionalInt, optionalRecord, optionalString, requireInt, requireOneOf, requireString,
} from '../../common/validate.ts';
import {
  SCHEDULE_OVERLAP_POLICIES, type ScheduleActionData, type ScheduleBackfillData, type ScheduleOverlapPolicy, type SchedulePoliciesData,
  type ScheduleStateData,
} from '../../history/schedule-types.ts';
import { ValidationError } from '../../retry/errors.ts';
import { compileScheduleSpec } from '../../schedule/schedule-spec.ts';
import { namespaceOf, optionalRetryPolicy, optionalTimeout, requireRequest } from '../requests.ts';
import { DEFAULT_CATCHUP_WINDOW_MS } from './schedule-state.ts';

/** A schedule id: what the started workflows' ids and the timers' run ids are built from. */
export function validateScheduleRef(input: unknown): { namespace: string; scheduleId: string } {
  const req = requireRequest(input);
  return { namespace: namespaceOf(req), scheduleId: requireString('scheduleId', req.scheduleId, 200) };
}

/** Checks a spec (compiling it) and returns it as JSON to store. */
export function validateSpec(spec: unknown): unknown {
  compileScheduleSpec(spec, 'spec');
  return JSON.parse(JSON.stringify(spec));
}

/** Checks an action; errors name `action.<field>`. */
export function validateAction(input: unknown): ScheduleActionData {
  const a = optionalRecord('action', input);
  if (!a) throw new ValidationError('action', 'is required: { workflowType, taskQueue, workflowId, ... }', input);
  const known = ['workflowType', 'taskQueue', 'workflowId', 'args', 'memo', 'searchAttributes', 'retryPolicy', 'workflowExecutionTimeoutMs', 'workflowRunTimeoutMs', 'workflowTaskTimeoutMs'];
  for (const key of Object.keys(a)) {
    if (!known.includes(key)) throw new ValidationError(`action.${key}`, `is not an action field (use ${known.join(', ')})`, a[key]);
  }
  const out: ScheduleActionData = {
    workflowType: requireString('action.workflowType', a.workflowType),
    taskQueue: requireString('action.taskQueue', a.taskQueue),
    workflowId: requireString('action.workflowId', a.workflowId, 800),
  };
  const args = optionalArray('action.args', a.args);
  encodePayload('action.args', args);
  if (args.length) out.args = args;
  const memo = optionalRecord('action.memo', a.memo);
  if (memo) {
    encodePayload('action.memo', memo);
    out.memo = memo;
  }
  const attributes = optionalRecord('action.searchAttributes', a.searchAttributes);
  if (attributes) out.searchAttributes = attributes as ScheduleActionData['searchAttributes'];
  const retry = optionalRetryPolicy('action.retryPolicy', a.retryPolicy);
  if (retry) out.retryPolicy = retry;
  for (const k of ['workflowExecutionTimeoutMs', 'workflowRunTimeoutMs', 'workflowTaskTimeoutMs'] as const) {
    const v = optionalTimeout(`action.${k}`, a[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** An overlap policy, or undefined. */
export function optionalOverlap(field: string, value: unknown): ScheduleOverlapPolicy | undefined {
  return value === undefined ? undefined : requireOneOf(field, value, SCHEDULE_OVERLAP_POLICIES);
}

/** Checks policies and fills in their defaults. */
export function validatePolicies(input: unknown): Required<SchedulePoliciesData> {
  const p = optionalRecord('policies', input) ?? {};
  for (const key of Object.keys(p)) {
    if (!['overlap', 'catchupWindowMs', 'pauseOnFailure'].includes(key)) {
      throw new ValidationError(`policies.${key}`, 'is not a policy (use overlap, catchupWindowMs, pauseOnFailure)', p[key]);
    }
  }
  return {
    overlap: optionalOverlap('policies.overlap', p.overlap) ?? 'Skip',
    catchupWindowMs: optionalInt('policies.catchupWindowMs', p.catchupWindowMs, 1000) ?? DEFAULT_CATCHUP_WINDOW_MS,
    pauseOnFailure: optionalBoolean('policies.pauseOnFailure', p.pauseOnFailure) ?? false,
  };
}

/** Checks the initial state. */
export function validateInitialState(input: unknown): Required<Pick<ScheduleStateData, 'paused' | 'note'>> & ScheduleStateData {
  const st = optionalRecord('state', input) ?? {};
  const out: Required<Pick<ScheduleStateData, 'paused' | 'note'>> & ScheduleStateData = {
    paused: optionalBoolean('state.paused', st.paused) ?? false,
    note: optionalString('state.note', st.note, 10_000) ?? '',
  };
  const remaining = optionalInt('state.remainingActions', st.remainingActions, 0);
  if (remaining !== undefined) out.remainingActions = remaining;
  return out;
}

/** Checks one backfill range. */
export function validateBackfill(input: unknown, i: number): ScheduleBackfillData {
  const b = optionalRecord(`backfill[${i}]`, input) ?? {};
  const startTime = requireInt(`backfill[${i}].startTime`, b.startTime, 0);
  const endTime = requireInt(`backfill[${i}].endTime`, b.endTime, 0);
  if (endTime < startTime) throw new ValidationError(`backfill[${i}].endTime`, `must not be before startTime (${new Date(startTime).toISOString()})`, endTime);
  const overlap = optionalOverlap(`backfill[${i}].overlap`, b.overlap);
  return { startTime, endTime, ...(overlap ? { overlap } : {}) };
}
