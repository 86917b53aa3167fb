import type { Feature } from '../core/feature.ts';
import { continueCron, firstCronBackoffMs } from './cron-jobs.ts';

/**
 * Cron jobs: a chain's first run waits for the spec's first fire time, and a run that ends
 * (completes, fails past its retries, is canceled, times out) continues the chain as new instead
 * of closing while the spec has a next time. Its state is the run's `cfg.cronSchedule` and the
 * chain's `lastCompletionResult` (both the core's: they ride the chain).
 */
export const cronFeature = {
  onRunEnding: continueCron,
  firstTaskBackoffMs: (run, now) => (run.firstOfChain && run.cronSchedule !== undefined ? firstCronBackoffMs(run.cronSchedule, now) : undefined),
} satisfies Feature;
