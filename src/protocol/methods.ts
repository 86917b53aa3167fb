import { WORKFLOW_SERVICE_METHODS, type WorkflowService, type WorkflowServiceMethod } from './service.ts';

/** The roles in order of reach; each grants what the ones before it grant. */
export const ROLES = ['reader', 'worker', 'writer', 'admin'] as const;

/**
 * What a credential may do on a namespace, as Temporal's default authorizer names it: `reader`
 * reads executions and histories; `worker` also takes and answers tasks; `writer` also starts,
 * signals, updates, cancels and terminates; `admin` also resets.
 */
export type Role = (typeof ROLES)[number];

/**
 * The role a call that acts on namespaces themselves (not inside one) needs: `system` needs the
 * role on the `system` scope (registering and changing namespaces is the operator's, as in
 * Temporal); `each` is open to every caller and answers only the namespaces on which the caller
 * holds the role.
 */
export interface CrossNamespaceRole {
  scope: 'system' | 'each';
  role: Role;
}

/**
 * A per-namespace rate a call draws from (server/namespace-limits.ts): `starts` is
 * `startsPerSecond`, `signals` is `signalsPerSecond`.
 */
export type RateBucket = 'starts' | 'signals';

/** The facts about one service method; every set of methods is derived from these rows. */
export interface MethodFacts {
  /** The role the call needs on its namespace, or how a cross-namespace call is authorized. */
  role: Role | CrossNamespaceRole;
  /** The call may hold the request open (a long poll); it takes CallOptions. */
  longPoll: boolean;
  /**
   * The client retries the call when the server is unavailable: only calls safe to repeat (reads,
   * and writes that carry a request id or update id the server deduplicates on).
   */
  retriedByClient: boolean;
  /** The call acts on the run its task token names, so its namespace is the token's, never the request's. */
  tokenScoped: boolean;
  /**
   * The call acts inside the namespace its request names, which must be registered: the engine
   * answers NamespaceNotFound before anything else. False for token-scoped calls (the token names
   * the run) and for calls on namespaces themselves.
   */
  inNamespace: boolean;
  /**
   * The call records who made it, in its history event (or, for a query, which writes none, in the
   * engine's audit log line): with authentication on, its `identity` is the credential's.
   */
  audited: boolean;
  /** The per-namespace rates the call draws from; empty when it is not rate-limited. */
  rateBuckets: readonly RateBucket[];
}

/**
 * One row of facts for every method of a service. Mapped over the service's method names, so a
 * method added to {@link WorkflowService} without its row in {@link METHODS} does not compile.
 */
export type MethodTable<S = WorkflowService> = { readonly [M in keyof S]-?: MethodFacts };

/**
 * The facts about every service method, one row each (as Temporal's server keeps one metadata
 * row per API). Not retried by the client: reset and the schedule, search-attribute and namespace
 * writes (no request id: a repeat of one that took effect would reset twice, trigger twice, or
 * answer AlreadyExists / NotFound for a call that succeeded), and the worker's polls and reports
 * (the worker retries those itself, within the task's deadline). Task reports are never
 * rate-limited: refusing them would only make finished work time out and be redone.
 */
export const METHODS = {
  startWorkflowExecution: { role: 'writer', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: true, rateBuckets: ['starts'] },
  describeWorkflowExecution: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  getWorkflowExecutionHistory: { role: 'reader', longPoll: true, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  listWorkflowExecutions: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  requestCancelWorkflowExecution: { role: 'writer', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: true, rateBuckets: [] },
  terminateWorkflowExecution: { role: 'writer', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: true, rateBuckets: [] },
  resetWorkflowExecution: { role: 'admin', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: true, rateBuckets: [] },
  pollWorkflowTaskQueue: { role: 'worker', longPoll: true, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  respondWorkflowTaskCompleted: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: true, inNamespace: false, audited: false, rateBuckets: [] },
  respondWorkflowTaskFailed: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: true, inNamespace: false, audited: false, rateBuckets: [] },
  pollActivityTaskQueue: { role: 'worker', longPoll: true, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  shutdownWorker: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  recordActivityTaskHeartbeat: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: true, inNamespace: false, audited: false, rateBuckets: [] },
  respondActivityTaskCompleted: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: true, inNamespace: false, audited: false, rateBuckets: [] },
  respondActivityTaskFailed: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: true, inNamespace: false, audited: false, rateBuckets: [] },
  respondActivityTaskCanceled: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: true, inNamespace: false, audited: false, rateBuckets: [] },
  recordActivityTaskHeartbeatById: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  respondActivityTaskCompletedById: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  respondActivityTaskFailedById: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  respondActivityTaskCanceledById: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  describeTaskQueue: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  listTaskQueues: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  signalWorkflowExecution: { role: 'writer', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: true, rateBuckets: ['signals'] },
  signalWithStartWorkflowExecution: { role: 'writer', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: true, rateBuckets: ['starts', 'signals'] },
  queryWorkflow: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: true, rateBuckets: [] },
  pollQueryTaskQueue: { role: 'worker', longPoll: true, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  respondQueryTaskCompleted: { role: 'worker', longPoll: false, retriedByClient: false, tokenScoped: true, inNamespace: false, audited: false, rateBuckets: [] },
  updateWorkflowExecution: { role: 'writer', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: true, rateBuckets: [] },
  updateWithStartWorkflowExecution: { role: 'writer', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: true, rateBuckets: ['starts'] },
  pollWorkflowExecutionUpdate: { role: 'reader', longPoll: true, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  createSchedule: { role: 'writer', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  describeSchedule: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  updateSchedule: { role: 'writer', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  patchSchedule: { role: 'writer', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  deleteSchedule: { role: 'writer', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  listSchedules: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  countWorkflowExecutions: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  createSearchAttribute: { role: 'admin', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  listSearchAttributes: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  removeSearchAttributes: { role: 'admin', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  deleteWorkflowExecution: { role: 'admin', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: true, audited: false, rateBuckets: [] },
  registerNamespace: { role: { scope: 'system', role: 'admin' }, longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: false, audited: false, rateBuckets: [] },
  describeNamespace: { role: 'reader', longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: false, audited: false, rateBuckets: [] },
  listNamespaces: { role: { scope: 'each', role: 'reader' }, longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: false, audited: false, rateBuckets: [] },
  updateNamespace: { role: { scope: 'system', role: 'admin' }, longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: false, audited: false, rateBuckets: [] },
  deleteNamespace: { role: { scope: 'system', role: 'admin' }, longPoll: false, retriedByClient: false, tokenScoped: false, inNamespace: false, audited: false, rateBuckets: [] },
} as const satisfies MethodTable;

/** The methods whose row passes `test`, in the order of WORKFLOW_SERVICE_METHODS. */
export function methodsWhere(test: (facts: MethodFacts, method: WorkflowServiceMethod) => boolean): WorkflowServiceMethod[] {
  return WORKFLOW_SERVICE_METHODS.filter((m) => test(METHODS[m], m));
}

/** Calls that may hold the request open (long polls); they take CallOptions. */
export const LONG_POLL_METHODS: readonly WorkflowServiceMethod[] = methodsWhere((f) => f.longPoll);
