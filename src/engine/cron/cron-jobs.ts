import { parseCronSchedule } from '../../schedule/index.ts';
import type { RunOutcome } from '../core/feature.ts';
import { continueAsNew } from '../core/runs.ts';
import type { TransitionBuilder } from '../core/transition.ts';

/*
 * Cron jobs (seed: temporal-workflows.md, "What is a Temporal Cron Job?"): a run started with a
 * `cronSchedule` waits (firstWorkflowTaskBackoff) until the spec's next fire time; when it
 * completes, fails (its retry policy exhausted first), is canceled or reaches its run timeout,
 * the same transition closes it as ContinuedAsNew (initiator CronSchedule) and creates the next
 * run, with a backoff computed from the server's time and the spec. Terminate and the execution
 * timeout end the chain. Nothing is held in memory: the next run and its WorkflowBackoff timer
 * are rows of the closing transaction.
 */


/**
 * The first run's firstWorkflowTaskBackoff, ms: from `now` to the spec's next fire time (strictly
 * after now, as robfig/cron's Next); 0 for a spec with no fire time left before 2101 (its one run
 * starts at once and ends the chain).
 */
export function firstCronBackoffMs(spec: string, now: number): number {
  const next = parseCronSchedule(spec).next(now);
  return next === null ? 0 : next - now;
}

/**
 * Where a run of a cron chain closes: starts the chain's next run and closes this one as
 * ContinuedAsNew (initiator CronSchedule) when the run has a cron schedule whose next start
 * (`nextRunAfter` from this run's scheduled start, so a fire time that passed while the run was
 * open starts the next run at once) comes before the chain's expiration. Returns false, leaving
 * the close to the caller, otherwise.
 */
export function continueCron(b: TransitionBuilder, outcome: RunOutcome, workflowTaskCompletedEventId?: number): boolean {
  const spec = b.state.cfg.cronSchedule;
  if (spec === undefined) return false;
  const next = parseCronSchedule(spec).nextRunAfter(b.record.executionTime, b.now);
  const expiration = b.state.cfg.expirationTime;
  if (next === null || (expiration !== undefined && next >= expiration)) return false;
  const last = outcome.status === 'Completed' ? outcome.result : b.state.lastCompletionResult;
  continueAsNew(b, {
    initiator: 'CronSchedule', backoffMs: next - b.now, attempt: 1,
    ...(outcome.status !== 'Completed' ? { failure: outcome.failure } : {}),
    ...(last !== undefined ? { lastCompletionResult: last } : {}),
    ...(workflowTaskCompletedEventId ? { workflowTaskCompletedEventId } : {}),
  });
  return true;
}
