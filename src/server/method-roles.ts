import { ValidationError } from '../errors/index.ts';
import { METHODS, methodsWhere, ROLES, WORKFLOW_SERVICE_METHODS, type Role, type WorkflowServiceMethod } from '../protocol/index.ts';

export { ROLES, type Role };

/**
 * The namespace a permission names `system` to grant its role on every namespace, as
 * Temporal's default claim mapper treats `system:admin`.
 */
export const SYSTEM_SCOPE = 'system';

/** A method that acts on namespaces themselves rather than inside one (its row's role has a scope). */
export type CrossNamespaceMethod = {
  [M in WorkflowServiceMethod]: (typeof METHODS)[M]['role'] extends Role ? never : M;
}[WorkflowServiceMethod];

/**
 * Calls that act on namespaces themselves rather than inside one, and how each is authorized:
 * `system` needs the role on the {@link SYSTEM_SCOPE}; `each` is open to every caller and answers
 * only the namespaces on which the caller holds the role. Taken from {@link METHODS}.
 */
export const CROSS_NAMESPACE_ROLES = Object.fromEntries(
  WORKFLOW_SERVICE_METHODS.flatMap((m) => {
    const role = METHODS[m].role;
    return typeof role === 'string' ? [] : [[m, role]];
  }),
) as { readonly [M in CrossNamespaceMethod]: (typeof METHODS)[M]['role'] };

/**
 * The role each call needs on its namespace, for every method but those of
 * {@link CROSS_NAMESPACE_ROLES}. Taken from {@link METHODS}, whose rows a new method cannot
 * compile without.
 */
export const METHOD_ROLES = Object.fromEntries(
  WORKFLOW_SERVICE_METHODS.flatMap((m) => {
    const role = METHODS[m].role;
    return typeof role === 'string' ? [[m, role]] : [];
  }),
) as { readonly [M in Exclude<WorkflowServiceMethod, CrossNamespaceMethod>]: Role };

/**
 * Calls whose history event records who made them (the audit trail): with authentication on,
 * their `identity` is the credential's, whatever the request said. Taken from {@link METHODS}.
 */
export const AUDITED_METHODS: ReadonlySet<WorkflowServiceMethod> = new Set(methodsWhere((f) => f.audited));

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
