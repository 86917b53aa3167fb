import { ValidationError } from '../retry/errors.ts';
import type { WorkflowServiceMethod } from '../protocol/index.ts';

/**
 * What a credential may do on a namespace, as Temporal's default authorizer names it: `reader`
 * reads executions and histories; `worker` also takes and answers tasks; `writer` also starts,
 * signals, updates, cancels and terminates; `admin` also resets.
 */
export type Role = 'reader' | 'worker' | 'writer' | 'admin';

/** The roles in order of reach; each grants what the ones before it grant. */
export const ROLES: readonly Role[] = ['reader', 'worker', 'writer', 'admin'];

/**
 * The namespace a permission names `system` to grant its role on every namespace, as
 * Temporal's default claim mapper treats `system:admin`.
 */
export const SYSTEM_SCOPE = 'system';

/**
 * Calls that act on namespaces themselves rather than inside one, and how each is authorized:
 * `system` needs the role on the {@link SYSTEM_SCOPE} (registering and changing namespaces is the
 * operator's, as in Temporal); `each` is open to every caller and answers only the namespaces on
 * which the caller holds the role.
 */
export const CROSS_NAMESPACE_ROLES = {
  registerNamespace: { scope: 'system', role: 'admin' },
  updateNamespace: { scope: 'system', role: 'admin' },
  listNamespaces: { scope: 'each', role: 'reader' },
} as const satisfies Partial<Record<WorkflowServiceMethod, { scope: 'system' | 'each'; role: Role }>>;

/** A method of {@link CROSS_NAMESPACE_ROLES}. */
export type CrossNamespaceMethod = keyof typeof CROSS_NAMESPACE_ROLES;

/**
 * The role each call needs on its namespace. Typed over every method of the contract but those
 * of {@link CROSS_NAMESPACE_ROLES}, so a method added without a role here does not compile.
 */
export const METHOD_ROLES: { readonly [M in Exclude<WorkflowServiceMethod, CrossNamespaceMethod>]: Role } = {
  describeWorkflowExecution: 'reader',
  getWorkflowExecutionHistory: 'reader',
  listWorkflowExecutions: 'reader',
  queryWorkflow: 'reader',
  pollWorkflowExecutionUpdate: 'reader',
  pollWorkflowTaskQueue: 'worker',
  respondWorkflowTaskCompleted: 'worker',
  respondWorkflowTaskFailed: 'worker',
  pollActivityTaskQueue: 'worker',
  shutdownWorker: 'worker',
  recordActivityTaskHeartbeat: 'worker',
  respondActivityTaskCompleted: 'worker',
  respondActivityTaskFailed: 'worker',
  respondActivityTaskCanceled: 'worker',
  pollQueryTaskQueue: 'worker',
  respondQueryTaskCompleted: 'worker',
  startWorkflowExecution: 'writer',
  signalWorkflowExecution: 'writer',
  signalWithStartWorkflowExecution: 'writer',
  updateWorkflowExecution: 'writer',
  requestCancelWorkflowExecution: 'writer',
  terminateWorkflowExecution: 'writer',
  resetWorkflowExecution: 'admin',
  describeSchedule: 'reader',
  listSchedules: 'reader',
  createSchedule: 'writer',
  updateSchedule: 'writer',
  patchSchedule: 'writer',
  deleteSchedule: 'writer',
  countWorkflowExecutions: 'reader',
  listSearchAttributes: 'reader',
  createSearchAttribute: 'admin',
  describeNamespace: 'reader',
};

/**
 * Calls whose history event records who made them (the audit trail): with authentication on,
 * their `identity` is the credential's, whatever the request said.
 */
export const AUDITED_METHODS: ReadonlySet<WorkflowServiceMethod> = new Set<WorkflowServiceMethod>([
  'startWorkflowExecution', 'signalWorkflowExecution', 'signalWithStartWorkflowExecution', 'updateWorkflowExecution',
  'requestCancelWorkflowExecution', 'terminateWorkflowExecution', 'resetWorkflowExecution',
]);

/** One grant: a role on a namespace (or on every namespace, for {@link SYSTEM_SCOPE}). */
export interface Permission {
  namespace: string;
  role: Role;
}

/**
 * Parses permissions written as Temporal's `permissions` claim: `["default:writer", "system:admin"]`.
 * @throws ValidationError naming `field` and the entry that is not `<namespace>:<role>`.
 */
export function parsePermissions(value: unknown, field: string): Permission[] {
  if (!Array.isArray(value)) throw new ValidationError(field, 'must be a list of "<namespace>:<role>" strings', value);
  return value.map((p: unknown, i) => {
    const at = typeof p === 'string' ? p.lastIndexOf(':') : -1;
    const role = at > 0 ? (p as string).slice(at + 1) : '';
    if (!ROLES.includes(role as Role)) {
      throw new ValidationError(`${field}[${i}]`, `must be "<namespace>:<role>" with a role of ${ROLES.join(', ')}`, p);
    }
    return { namespace: (p as string).slice(0, at), role: role as Role };
  });
}

/** Whether the permissions grant `needed` on `namespace`. */
export function grants(permissions: readonly Permission[], namespace: string, needed: Role): boolean {
  const rank = ROLES.indexOf(needed);
  return permissions.some((p) => (p.namespace === namespace || p.namespace === SYSTEM_SCOPE) && ROLES.indexOf(p.role) >= rank);
}
