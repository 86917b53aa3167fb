import type { WireHeaders } from '../../common/headers.ts';
import type { SearchAttributeValue } from '../../visibility/attributes.ts';
import type { FailureInfo, RetryState } from '../../common/failure.ts';
import { newUuid } from '../../common/ids.ts';
import type { ContinueAsNewInitiator, ParentExecutionRef } from '../../history/events.ts';
import { decideRetry } from '../../retry/index.ts';
import { capDelay } from '../../common/max-duration.ts';
import type { RetryPolicyData } from '../../retry/policy-data.ts';
import type { ExecutionRecord } from '../../store/types.ts';
import { initialState, type RunConfig } from './state.ts';
import type { RunSpec } from './requests.ts';
import { TransitionBuilder, type RunHooks, type RunOutcome } from './transition.ts';

/** What a new run of a chain is made from (a start, a retry, a continue-as-new). */
export interface NewRunParams extends RunSpec {
  /** 1 for a start and a continue-as-new; +1 per workflow retry. */
  attempt: number;
  /** Carried along the chain; absent for the chain's first run. */
  chain?: { firstExecutionRunId: string; expirationTime?: number; chainStartTime: number; continuedFromRunId: string };
  initiator?: ContinueAsNewInitiator;
  /** Delay before the first workflow task, ms. */
  backoffMs: number;
  continuedFailure?: FailureInfo;
  lastCompletionResult?: unknown;
  /** The parent of a child workflow; carried along the child's chain. */
  parent?: ParentExecutionRef;
}

/**
 * Builds the insert of a new run: WorkflowExecutionStarted, then either the first workflow task
 * or a WorkflowBackoff timer that schedules it (retry backoff), and a RunTimeout timer at the
 * earlier of the run deadline and the chain's expiration.
 */
export function buildNewRun(features: RunHooks, input: NewRunParams, now: number): TransitionBuilder {
  const runId = newUuid();
  // Temporal's default: a run may last as long as the whole execution.
  const runTimeout = input.workflowRunTimeoutMs ?? input.workflowExecutionTimeoutMs;
  // A feature may delay the first workflow task (the first run of a cron chain waits for the spec's first fire time).
  const view = { firstOfChain: input.chain === undefined, cronSchedule: input.cronSchedule, backoffMs: input.backoffMs };
  let backoffMs = input.backoffMs;
  for (const delay of features.firstTaskBackoffMs) backoffMs = delay(view, now) ?? backoffMs;
  const p: NewRunParams = { ...input, ...(runTimeout !== undefined ? { workflowRunTimeoutMs: runTimeout } : {}), backoffMs };
  const expirationTime = p.chain ? p.chain.expirationTime
    : p.workflowExecutionTimeoutMs !== undefined ? now + p.workflowExecutionTimeoutMs : undefined;
  const cfg: RunConfig = {
    args: p.args, workflowTaskTimeoutMs: p.workflowTaskTimeoutMs, chainStartTime: p.chain?.chainStartTime ?? now,
  };
  if (p.workflowRunTimeoutMs !== undefined) cfg.workflowRunTimeoutMs = p.workflowRunTimeoutMs;
  if (p.workflowExecutionTimeoutMs !== undefined) cfg.workflowExecutionTimeoutMs = p.workflowExecutionTimeoutMs;
  if (p.retryPolicy) cfg.retryPolicy = p.retryPolicy;
  if (expirationTime !== undefined) cfg.expirationTime = expirationTime;
  if (p.cronSchedule !== undefined) cfg.cronSchedule = p.cronSchedule;
  if (p.header) cfg.header = p.header;
  if (p.userMetadata) cfg.userMetadata = p.userMetadata;
  const state = initialState(cfg, features.slices);
  if (p.chain) state.continuedFromRunId = p.chain.continuedFromRunId;
  if (p.lastCompletionResult !== undefined) state.lastCompletionResult = p.lastCompletionResult;
  if (p.parent) state.parent = p.parent;
  const record: ExecutionRecord = {
    namespace: p.namespace, workflowId: p.workflowId, runId, workflowType: p.workflowType, taskQueue: p.taskQueue,
    status: 'Running', startTime: now, executionTime: now + p.backoffMs, nextEventId: 1, attempt: p.attempt,
    firstExecutionRunId: p.chain?.firstExecutionRunId ?? runId, originalExecutionRunId: runId, version: 1, state,
  };
  if (p.memo) record.memo = p.memo;
  if (p.requestId !== undefined) record.requestId = p.requestId;
  if (p.searchAttributes) record.searchAttributes = p.searchAttributes;
  if (p.scheduledById !== undefined) record.scheduledById = p.scheduledById;
  if (p.scheduledStartTime !== undefined) record.scheduledStartTime = p.scheduledStartTime;
  const b = new TransitionBuilder(record, now, features, true);
  b.append('WorkflowExecutionStarted', {
    workflowType: p.workflowType, taskQueue: p.taskQueue, args: p.args,
    ...(p.memo ? { memo: p.memo } : {}),
    ...(p.searchAttributes ? { searchAttributes: p.searchAttributes } : {}),
    ...(p.retryPolicy ? { retryPolicy: p.retryPolicy } : {}),
    ...(p.workflowExecutionTimeoutMs !== undefined ? { workflowExecutionTimeoutMs: p.workflowExecutionTimeoutMs } : {}),
    ...(p.workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs: p.workflowRunTimeoutMs } : {}),
    workflowTaskTimeoutMs: p.workflowTaskTimeoutMs,
    attempt: p.attempt,
    firstExecutionRunId: record.firstExecutionRunId,
    originalExecutionRunId: runId,
    ...(p.chain ? { continuedExecutionRunId: p.chain.continuedFromRunId } : {}),
    ...(p.initiator ? { initiator: p.initiator } : {}),
    ...(p.backoffMs > 0 ? { firstWorkflowTaskBackoffMs: p.backoffMs } : {}),
    ...(expirationTime !== undefined ? { workflowExecutionExpirationTime: new Date(expirationTime).toISOString() } : {}),
    ...(p.continuedFailure ? { continuedFailure: p.continuedFailure } : {}),
    ...(p.lastCompletionResult !== undefined ? { lastCompletionResult: p.lastCompletionResult } : {}),
    ...(p.cronSchedule !== undefined ? { cronSchedule: p.cronSchedule } : {}),
    ...(p.parent ? { parent: p.parent } : {}),
    ...(p.identity !== undefined ? { identity: p.identity } : {}),
    ...(p.requestId !== undefined ? { requestId: p.requestId } : {}),
    ...(p.header ? { header: p.header } : {}),
    ...(p.userMetadata ? { userMetadata: p.userMetadata } : {}),
  });
  // As in Temporal, a run's timeout counts from the end of its first workflow task backoff: a
  // cron run waiting a day for its fire time is not timed out by a one-hour run timeout.
  const runDeadline = p.workflowRunTimeoutMs !== undefined ? now + p.backoffMs + p.workflowRunTimeoutMs : undefined;
  const deadline = runDeadline === undefined ? expirationTime
    : expirationTime === undefined ? runDeadline : Math.min(runDeadline, expirationTime);
  if (deadline !== undefined) b.addTimer('RunTimeout', deadline, {});
  if (p.backoffMs > 0) b.addTimer('WorkflowBackoff', now + p.backoffMs, {});
  else b.scheduleWorkflowTask();
  return b;
}

/** Overrides a continue-as-new may carry. */
export interface ContinueOptions {
  initiator: ContinueAsNewInitiator;
  backoffMs: number;
  attempt: number;
  failure?: FailureInfo;
  workflowType?: string;
  taskQueue?: string;
  args?: unknown[];
  memo?: Record<string, unknown>;
  /** The new run's search attributes (validated; `{}` for none); absent: the closing run's. */
  searchAttributes?: Record<string, SearchAttributeValue>;
  retryPolicy?: RetryPolicyData;
  workflowRunTimeoutMs?: number;
  workflowTaskTimeoutMs?: number;
  workflowTaskCompletedEventId?: number;
  /** @default the closing run's own last completion result (carried along the chain) */
  lastCompletionResult?: unknown;
  /** The new run's start headers. @default the closing run's */
  header?: WireHeaders;
}

/**
 * Closes the run with WorkflowExecutionContinuedAsNew and creates the next run of the chain in
 * the same transaction. Returns the new run id.
 */
export function continueAsNew(b: TransitionBuilder, o: ContinueOptions): string {
  const r = b.record;
  const cfg = b.state.cfg;
  const workflowType = o.workflowType ?? r.workflowType;
  const taskQueue = o.taskQueue ?? r.taskQueue;
  const args = o.args ?? cfg.args;
  const workflowTaskTimeoutMs = o.workflowTaskTimeoutMs ?? cfg.workflowTaskTimeoutMs;
  const workflowRunTimeoutMs = o.workflowRunTimeoutMs ?? cfg.workflowRunTimeoutMs;
  const retryPolicy = o.retryPolicy ?? cfg.retryPolicy;
  const memo = o.memo ?? r.memo;
  const lastCompletionResult = o.lastCompletionResult !== undefined ? o.lastCompletionResult : b.state.lastCompletionResult;
  const given = o.searchAttributes;
  const searchAttributes = given === undefined ? r.searchAttributes : Object.keys(given).length > 0 ? given : undefined;
  const next = buildNewRun(b.features, {
    namespace: r.namespace, workflowId: r.workflowId, workflowType, taskQueue, args, workflowTaskTimeoutMs,
    attempt: o.attempt, initiator: o.initiator, backoffMs: o.backoffMs,
    chain: {
      firstExecutionRunId: r.firstExecutionRunId, chainStartTime: cfg.chainStartTime, continuedFromRunId: r.runId,
      ...(cfg.expirationTime !== undefined ? { expirationTime: cfg.expirationTime } : {}),
    },
    ...(memo ? { memo } : {}),
    ...(searchAttributes ? { searchAttributes } : {}),
    ...(r.scheduledById !== undefined ? { scheduledById: r.scheduledById } : {}),
    ...(r.scheduledStartTime !== undefined ? { scheduledStartTime: r.scheduledStartTime } : {}),
    ...(retryPolicy ? { retryPolicy } : {}),
    ...(workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs } : {}),
    ...(cfg.workflowExecutionTimeoutMs !== undefined ? { workflowExecutionTimeoutMs: cfg.workflowExecutionTimeoutMs } : {}),
    ...(o.failure ? { continuedFailure: o.failure } : {}),
    ...(lastCompletionResult !== undefined ? { lastCompletionResult } : {}),
    ...(cfg.cronSchedule !== undefined ? { cronSchedule: cfg.cronSchedule } : {}),
    ...((o.header ?? cfg.header) ? { header: o.header ?? cfg.header } : {}),
    ...(b.state.parent ? { parent: b.state.parent } : {}),
    ...(cfg.userMetadata ? { userMetadata: cfg.userMetadata } : {}),
  }, b.now);
  b.close('ContinuedAsNew', 'WorkflowExecutionContinuedAsNew', {
    newExecutionRunId: next.record.runId, workflowType, taskQueue, args, initiator: o.initiator, workflowTaskTimeoutMs,
    ...(workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs } : {}),
    ...(o.backoffMs > 0 ? { backoffStartIntervalMs: o.backoffMs } : {}),
    ...(o.failure ? { failure: o.failure } : {}),
    ...(o.lastCompletionResult !== undefined ? { lastCompletionResult: o.lastCompletionResult } : {}),
    ...(o.workflowTaskCompletedEventId !== undefined ? { workflowTaskCompletedEventId: o.workflowTaskCompletedEventId } : {}),
  });
  b.state.continuedAsNewToRunId = next.record.runId;
  for (const onContinue of b.features.onContinue) onContinue(b, next);
  b.others.push(next);
  return next.record.runId;
}

/**
 * A run failed (`failed`) or hit its run timeout (`timedOut`): retried as a new run of the chain
 * when its retry policy allows and the retry starts before the chain's expiration; then, for a
 * feature that ends it otherwise (a cron job continues its chain: cron/), by that feature; closed
 * as Failed / TimedOut otherwise, with the retry state saying why.
 */
export function retryOrClose(b: TransitionBuilder, failure: FailureInfo, how: 'failed' | 'timedOut', workflowTaskCompletedEventId = 0): void {
  const cfg = b.state.cfg;
  let retryState: RetryState = 'RetryPolicyNotSet';
  if (cfg.retryPolicy) {
    const d = decideRetry(cfg.retryPolicy, {
      attempt: b.record.attempt, failure, elapsedMs: b.now - cfg.chainStartTime, seedKey: b.record.workflowId,
    });
    if (d.retry && (cfg.expirationTime === undefined || b.now + d.delayMs < cfg.expirationTime)) {
      continueAsNew(b, {
        initiator: 'RetryPolicy', backoffMs: capDelay(d.delayMs), attempt: b.record.attempt + 1, failure,
        ...(workflowTaskCompletedEventId ? { workflowTaskCompletedEventId } : {}),
      });
      return;
    }
    retryState = d.retry ? 'Timeout' : d.retryState;
  }
  if (endedByFeature(b, { status: how === 'failed' ? 'Failed' : 'TimedOut', failure }, workflowTaskCompletedEventId)) return;
  if (how === 'failed') b.close('Failed', 'WorkflowExecutionFailed', { failure, retryState, workflowTaskCompletedEventId });
  else b.close('TimedOut', 'WorkflowExecutionTimedOut', { retryState });
}

/**
 * Ends the run at once: buffered events first (they happened before), then
 * WorkflowExecutionTerminated. `newExecutionRunId` names the run a reset replaces it with.
 */
export function terminateRun(b: TransitionBuilder, reason: string, details?: unknown, identity?: string, newExecutionRunId?: string): void {
  b.flushBuffered();
  b.close('Terminated', 'WorkflowExecutionTerminated', {
    reason, ...(details !== undefined ? { details } : {}), ...(identity !== undefined ? { identity } : {}),
    ...(newExecutionRunId !== undefined ? { newExecutionRunId } : {}),
  });
}

/**
 * Offers a run's end to the features' `onRunEnding` hooks: true when one ended the run itself (a
 * cron run continues its chain as new), so the caller writes no close.
 */
export function endedByFeature(b: TransitionBuilder, outcome: RunOutcome, workflowTaskCompletedEventId?: number): boolean {
  return b.features.onRunEnding.some((ending) => ending(b, outcome, workflowTaskCompletedEventId));
}
