import type { StartWorkflowExecutionRequest, WorkflowService, WorkflowTask } from '../protocol/index.ts';

/**
 * A worker of this process that takes workflow tasks handed to it by an eager start (Temporal's
 * `requestEagerStart`), with no poll between: a client of the same connection, namespace and task
 * queue reserves a slot before the start and hands the task over when the answer carries it.
 */
export interface EagerWorkflowWorker {
  /** Takes a workflow task slot now; false when none is free (the start is then an ordinary one). */
  reserve(): boolean;
  /** Gives back a slot {@link reserve} took, when no task came with the answer. */
  release(): void;
  /**
   * Runs the task in the reserved slot, which frees when the task is done. With `written`, the
   * task came ahead of its start's commit (StartCallOptions.eagerTaskAhead): nothing of it
   * leaves the worker until `written` is true, and it is dropped when false.
   */
  run(task: WorkflowTask, written?: Promise<boolean>): void;
}

const byKey = new Map<string, Set<EagerWorkflowWorker>>();
const connectionIds = new WeakMap<object, number>();
let nextConnectionId = 1;

/**
 * What makes a client's and a worker's connections the same: the server's origin for an address,
 * the object itself for an in-process connection.
 */
export function connectionKeyOf(connection: { address?: string | undefined; connection?: WorkflowService | undefined }): string | undefined {
  if (connection.connection !== undefined) {
    let id = connectionIds.get(connection.connection);
    if (id === undefined) connectionIds.set(connection.connection, (id = nextConnectionId++));
    return `in-process#${id}`;
  }
  if (connection.address === undefined) return undefined;
  try {
    return new URL(connection.address).origin;
  } catch {
    return undefined;
  }
}

function keyOf(connectionKey: string, namespace: string, taskQueue: string): string {
  return JSON.stringify([connectionKey, namespace, taskQueue]);
}

/** Makes `worker` available to eager starts of its connection, namespace and task queue; returns the function that withdraws it. */
export function offerEagerWorker(connectionKey: string, namespace: string, taskQueue: string, worker: EagerWorkflowWorker): () => void {
  const key = keyOf(connectionKey, namespace, taskQueue);
  let set = byKey.get(key);
  if (!set) byKey.set(key, (set = new Set()));
  set.add(worker);
  return () => {
    set.delete(worker);
    if (set.size === 0 && byKey.get(key) === set) byKey.delete(key);
  };
}

/** A worker of this process for the queue with a slot reserved for the task, if any. */
export function reserveEagerWorker(connectionKey: string | undefined, namespace: string, taskQueue: string): EagerWorkflowWorker | undefined {
  if (connectionKey === undefined) return undefined;
  for (const worker of byKey.get(keyOf(connectionKey, namespace, taskQueue)) ?? []) if (worker.reserve()) return worker;
  return undefined;
}

/**
 * Starts the run; with `worker` (a slot reserved), asks for its first workflow task and hands it
 * to that worker: ahead of the start's commit from an in-process engine, else with the answer.
 * Gives the slot back when no task came.
 */
export async function startWithEagerWorker(
  service: WorkflowService, request: StartWorkflowExecutionRequest, worker: EagerWorkflowWorker | undefined,
): Promise<{ runId: string; eagerlyStarted: boolean }> {
  if (!worker) return { runId: (await service.startWorkflowExecution(request)).runId, eagerlyStarted: false };
  let answer;
  let ahead: Promise<boolean> | undefined;
  try {
    answer = await service.startWorkflowExecution({ ...request, requestEagerExecution: true }, {
      eagerTaskAhead: (task, written) => {
        ahead = written;
        worker.run(task, written);
      },
    });
  } catch (err) {
    // A task that went ahead holds the slot until the worker has dropped it.
    if (!ahead) worker.release();
    throw err;
  }
  // The engine settles `written` before it answers.
  if (ahead) return { runId: answer.runId, eagerlyStarted: await ahead };
  if (!answer.eagerWorkflowTask) {
    worker.release();
    return { runId: answer.runId, eagerlyStarted: false };
  }
  worker.run(answer.eagerWorkflowTask);
  return { runId: answer.runId, eagerlyStarted: true };
}
