/** A task a poll produced, as handed back: its token, and for an activity task its activity id. */
export interface UndeliveredTask {
  taskToken: string;
  activityId?: string;
}

/**
 * What an in-process engine offers beside the wire contract: the HTTP server gives back a task a
 * poll produced for a caller that was gone before the answer could be delivered (its connection
 * closed first), so it is handed out again now instead of after its timeout. Not an HTTP call.
 */
export interface UndeliveredTaskReturn {
  /** Hands the task out again: a workflow task times out at once, an activity attempt goes back on its queue. */
  returnUndeliveredTask(task: UndeliveredTask): Promise<void>;
}

/** Whether `service` takes back undelivered tasks (an in-process Engine does; a remote service does not). */
export function returnsUndeliveredTasks(service: object): service is UndeliveredTaskReturn {
  return typeof (service as Partial<UndeliveredTaskReturn>).returnUndeliveredTask === 'function';
}
