import { resolveSpelling, temporalSpellings } from '../common/temporal-names.ts';

/**
 * What a start does when a run of its workflow id is still running (Temporal's
 * `WorkflowIdConflictPolicy`); the reuse policy ({@link ./id-reuse-policy.ts}) decides beside a
 * closed run.
 */
export const WORKFLOW_ID_CONFLICT_POLICIES = ['Fail', 'UseExisting', 'TerminateExisting'] as const;

/** One of {@link WORKFLOW_ID_CONFLICT_POLICIES}. */
type Policy = (typeof WORKFLOW_ID_CONFLICT_POLICIES)[number];

/**
 * Temporal's spellings of the conflict policies, each mapped to steadfast's name:
 * `WorkflowIdConflictPolicy.USE_EXISTING` is `"UseExisting"`, as is
 * `WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING`.
 */
export const WorkflowIdConflictPolicy = temporalSpellings('WORKFLOW_ID_CONFLICT_POLICY_', {
  FAIL: 'Fail',
  USE_EXISTING: 'UseExisting',
  TERMINATE_EXISTING: 'TerminateExisting',
} satisfies Record<string, Policy>);

/** One of {@link WORKFLOW_ID_CONFLICT_POLICIES}. */
export type WorkflowIdConflictPolicy = Policy;

/** A conflict policy as an option takes it: steadfast's name or Temporal's spelling. */
export type WorkflowIdConflictPolicyOption = Policy | keyof typeof WorkflowIdConflictPolicy;

/** steadfast's name of a conflict policy given in either spelling. @throws ValidationError naming `field`. */
export function resolveWorkflowIdConflictPolicy(field: string, value: unknown): Policy {
  return resolveSpelling(field, value, WORKFLOW_ID_CONFLICT_POLICIES, WorkflowIdConflictPolicy, 'WORKFLOW_ID_CONFLICT_POLICY_');
}
