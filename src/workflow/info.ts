import type { WorkflowInfo } from './activation.ts';
import { activator } from './activator.ts';
import { uuid4From } from './random.ts';

/** Ids, type, task queue, attempt and memo of the run this code belongs to. */
export function workflowInfo(): WorkflowInfo {
  return activator().info;
}

/**
 * A version-4 UUID from the run's seeded generator: the same on every replay of the run,
 * different across runs. Use it for idempotency keys passed to activities.
 */
export function uuid4(): string {
  return uuid4From(activator().random);
}

/**
 * The result of the last run of this cron chain that completed, as it returned it; undefined in
 * the first run and until a run completes. (Temporal's name for it.)
 */
export function getLastCompletionResult<T = unknown>(): T | undefined {
  return activator().info.lastCompletionResult as T | undefined;
}
