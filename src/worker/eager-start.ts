import { connectionKeyOf, offerEagerWorker } from '../client/eager-workers.ts';
import type { WorkflowTask } from '../protocol/index.ts';
import type { Slots } from './poller.ts';
import type { ResolvedWorkerOptions } from './worker-options.ts';

/**
 * Offers a running worker's workflow task slots to the eager starts of clients in this process
 * that share its connection, namespace and task queue (`requestEagerStart`): such a start takes
 * a free slot, and the first task its answer carries runs here in it. Returns the function that
 * withdraws the offer (at shutdown).
 */
export function offerToEagerStarts(
  options: ResolvedWorkerOptions, slots: Slots, draining: AbortSignal, runTask: (task: WorkflowTask, written?: Promise<boolean>) => Promise<void>,
): () => void {
  const connectionKey = connectionKeyOf(options);
  if (connectionKey === undefined) return () => undefined;
  return offerEagerWorker(connectionKey, options.namespace, options.taskQueue, {
    reserve: () => !draining.aborted && slots.tryAcquire(1) === 1,
    release: () => slots.release(),
    run: (task, written) => {
      runTask(task, written).catch((err: unknown) => options.logger.error(`task handling failed: ${(err as Error)?.message}`))
        .finally(() => slots.release());
    },
  });
}
