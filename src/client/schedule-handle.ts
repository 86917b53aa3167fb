import { ValidationError } from '../errors/index.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import type { TemporalRetryPolicy } from '../retry/index.ts';
import { optionalString } from '../common/validate.ts';
import { checkTime } from '../common/time-range.ts';
import { resolveScheduleOverlapPolicy, type ScheduleActionData, type ScheduleOverlapPolicyOption } from '../protocol/index.ts';
import { toScheduleDescription, type ScheduleDescription } from './schedule-description.ts';
import type { WorkflowService } from '../protocol/index.ts';
import type { ScheduleSpec } from '../schedule/schedule-spec.ts';
import {
  actionToWire, policiesToWire, specToWire, type SchedulePolicies, type ScheduleStartWorkflowAction,
} from './schedule-options.ts';

/** What `handle.update` reads and returns: the schedule's spec, action and policies in the options' shape. */
export interface ScheduleUpdateOptions {
  spec: ScheduleSpec;
  action: ScheduleStartWorkflowAction;
  policies: SchedulePolicies;
}

/** One backfill of `handle.backfill`: every nominal time of the spec in [start, end]. */
export interface Backfill {
  /** From 1970 to the end of 9999. */
  start: Date | string | number;
  /** From 1970 to the end of 9999, not before `start`. */
  end: Date | string | number;
  /** steadfast's name or Temporal's spelling. @default the schedule's overlap policy */
  overlap?: ScheduleOverlapPolicyOption;
}

function instantMs(value: unknown, field: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) throw new ValidationError(field, 'must be a Date, an ISO 8601 time or ms since the epoch', value);
  return checkTime(field, ms, value);
}

function actionFromWire(a: ScheduleActionData): ScheduleStartWorkflowAction {
  const out: ScheduleStartWorkflowAction = { type: 'startWorkflow', workflowType: a.workflowType, taskQueue: a.taskQueue, workflowId: a.workflowId };
  if (a.args) out.args = a.args;
  if (a.memo) out.memo = a.memo;
  if (a.searchAttributes) out.searchAttributes = a.searchAttributes;
  const r = a.retryPolicy as RetryPolicyData | undefined;
  if (r) {
    const retry: TemporalRetryPolicy = {
      initialInterval: r.initialIntervalMs, backoffCoefficient: r.backoffCoefficient, maximumInterval: r.maximumIntervalMs,
      maximumAttempts: r.maximumAttempts, nonRetryableErrorTypes: r.nonRetryableErrorTypes,
    };
    out.retry = retry;
  }
  if (a.workflowExecutionTimeoutMs !== undefined) out.workflowExecutionTimeout = a.workflowExecutionTimeoutMs;
  if (a.workflowRunTimeoutMs !== undefined) out.workflowRunTimeout = a.workflowRunTimeoutMs;
  if (a.workflowTaskTimeoutMs !== undefined) out.workflowTaskTimeout = a.workflowTaskTimeoutMs;
  return out;
}

/** A handle to one schedule: describe, update, pause, unpause, trigger, backfill, delete. */
export class ScheduleHandle {
  constructor(private readonly service: WorkflowService, readonly namespace: string, readonly scheduleId: string) {}

  #ref(): { namespace: string; scheduleId: string } {
    return { namespace: this.namespace, scheduleId: this.scheduleId };
  }

  /**
   * Spec, action, policies, state, the next 10 action times, the 10 most recent actions,
   * incidents, counters and health, in the shape of Temporal's `ScheduleDescription`.
   */
  async describe(): Promise<ScheduleDescription> {
    return toScheduleDescription(await this.service.describeSchedule(this.#ref()));
  }

  /**
   * Replaces spec, action and policies at once: `fn` gets the current ones and returns the new
   * ones; refused (FailedPrecondition) if the schedule changed in between.
   */
  async update(fn: (previous: ScheduleUpdateOptions) => ScheduleUpdateOptions): Promise<void> {
    if (typeof fn !== 'function') throw new ValidationError('update', 'takes a function (previous) => options', fn);
    const d = (await this.describe()).raw;
    const previous: ScheduleUpdateOptions = {
      spec: d.spec as unknown as ScheduleSpec,
      action: actionFromWire(d.action),
      policies: { overlap: d.policies.overlap, catchupWindow: d.policies.catchupWindowMs, pauseOnFailure: d.policies.pauseOnFailure },
    };
    const next = fn(structuredClone(previous));
    await this.service.updateSchedule({
      ...this.#ref(), spec: specToWire(next.spec), action: actionToWire(next.action, this.scheduleId), policies: policiesToWire(next.policies),
      conflictToken: d.conflictToken,
    });
  }

  /** Pauses: the spec has no effect until unpaused (triggers and backfills still act). */
  pause(note?: string): Promise<void> {
    return this.service.patchSchedule({ ...this.#ref(), pause: optionalString('note', note, 10_000) ?? 'paused' });
  }

  /** Unpauses; times that passed while paused are not taken (backfill them). */
  unpause(note?: string): Promise<void> {
    return this.service.patchSchedule({ ...this.#ref(), unpause: optionalString('note', note, 10_000) ?? 'unpaused' });
  }

  /** Takes one action now (also while paused); it does not count against remaining actions. */
  async trigger(overlap?: ScheduleOverlapPolicyOption): Promise<void> {
    return this.service.patchSchedule({
      ...this.#ref(), trigger: overlap === undefined ? {} : { overlap: resolveScheduleOverlapPolicy('overlap', overlap) },
    });
  }

  /** Takes every action the spec names in each range, now, each with its nominal time. */
  async backfill(backfills: Backfill | Backfill[]): Promise<void> {
    const list = Array.isArray(backfills) ? backfills : [backfills];
    await this.service.patchSchedule({
      ...this.#ref(),
      backfill: list.map((b, i) => ({
        startTime: instantMs(b?.start, `backfill[${i}].start`), endTime: instantMs(b?.end, `backfill[${i}].end`),
        ...(b.overlap !== undefined ? { overlap: resolveScheduleOverlapPolicy(`backfill[${i}].overlap`, b.overlap) } : {}),
      })),
    });
  }

  /** Deletes the schedule; workflows it started keep running. */
  delete(): Promise<void> {
    return this.service.deleteSchedule(this.#ref());
  }
}
