import { ValidationError } from '../retry/errors.ts';

/** Whether a start may reuse the id of an earlier workflow, by how that workflow ended. */
export const WORKFLOW_ID_REUSE_POLICIES = [
  'AllowDuplicate', 'AllowDuplicateFailedOnly', 'RejectDuplicate', 'TerminateIfRunning',
] as const;

/** One of {@link WORKFLOW_ID_REUSE_POLICIES}. @default "AllowDuplicate" */
type Policy = (typeof WORKFLOW_ID_REUSE_POLICIES)[number];

/**
 * Temporal's spellings of the workflow id reuse policies, each mapped to steadfast's name:
 * `WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE` is `"RejectDuplicate"`.
 * Both the long (`WORKFLOW_ID_REUSE_POLICY_…`) and the short (`REJECT_DUPLICATE`) keys exist.
 */
export const WorkflowIdReusePolicy = Object.freeze({
  ALLOW_DUPLICATE: 'AllowDuplicate',
  ALLOW_DUPLICATE_FAILED_ONLY: 'AllowDuplicateFailedOnly',
  REJECT_DUPLICATE: 'RejectDuplicate',
  TERMINATE_IF_RUNNING: 'TerminateIfRunning',
  WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE: 'AllowDuplicate',
  WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY: 'AllowDuplicateFailedOnly',
  WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE: 'RejectDuplicate',
  WORKFLOW_ID_REUSE_POLICY_TERMINATE_IF_RUNNING: 'TerminateIfRunning',
} as const satisfies Record<string, Policy>);

/** One of {@link WORKFLOW_ID_REUSE_POLICIES}. @default "AllowDuplicate" */
export type WorkflowIdReusePolicy = Policy;

/** A workflow id reuse policy as an option takes it: steadfast's name or Temporal's spelling. */
export type WorkflowIdReusePolicyOption = Policy | keyof typeof WorkflowIdReusePolicy;

/** steadfast's name of a policy given in either spelling. @throws ValidationError naming `field`. */
export function resolveWorkflowIdReusePolicy(field: string, value: unknown): Policy {
  if (typeof value === 'string') {
    if ((WORKFLOW_ID_REUSE_POLICIES as readonly string[]).includes(value)) return value as Policy;
    const mapped = (WorkflowIdReusePolicy as Record<string, Policy>)[value];
    if (mapped !== undefined) return mapped;
  }
  throw new ValidationError(field, `must be one of ${WORKFLOW_ID_REUSE_POLICIES.join(', ')} (or Temporal's WORKFLOW_ID_REUSE_POLICY_… spellings)`, value);
}
