import { resolveSpelling, temporalSpellings } from '../common/temporal-names.ts';
import { ValidationError } from '../errors/index.ts';
import type { WorkflowExecutionStatus } from './events.ts';
import type { WorkflowIdConflictPolicy } from './id-conflict-policy.ts';

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
export const WorkflowIdReusePolicy = temporalSpellings('WORKFLOW_ID_REUSE_POLICY_', {
  ALLOW_DUPLICATE: 'AllowDuplicate',
  ALLOW_DUPLICATE_FAILED_ONLY: 'AllowDuplicateFailedOnly',
  REJECT_DUPLICATE: 'RejectDuplicate',
  TERMINATE_IF_RUNNING: 'TerminateIfRunning',
} satisfies Record<string, Policy>);

/** One of {@link WORKFLOW_ID_REUSE_POLICIES}. @default "AllowDuplicate" */
export type WorkflowIdReusePolicy = Policy;

/** A workflow id reuse policy as an option takes it: steadfast's name or Temporal's spelling. */
export type WorkflowIdReusePolicyOption = Policy | keyof typeof WorkflowIdReusePolicy;

/** steadfast's name of a policy given in either spelling. @throws ValidationError naming `field`. */
export function resolveWorkflowIdReusePolicy(field: string, value: unknown): Policy {
  return resolveSpelling(field, value, WORKFLOW_ID_REUSE_POLICIES, WorkflowIdReusePolicy, 'WORKFLOW_ID_REUSE_POLICY_');
}

/** The latest run of a workflow id, as far as the reuse policy looks at it. */
export interface LatestRun {
  runId: string;
  status: WorkflowExecutionStatus;
}

/**
 * What a new run of a workflow id may do given its latest run: `start` beside it (or with no
 * run at all), `terminateAndStart` (a running run under TerminateIfRunning), or be `rejected`,
 * with the reason as the rest of the sentence "workflow <id> …".
 */
export type IdReuseVerdict = { kind: 'start' } | { kind: 'terminateAndStart' } | { kind: 'useExisting' } | { kind: 'rejected'; why: string };

/**
 * The one reading of the id reuse and conflict policies, used by start, signal-with-start and
 * child starts: a running run is used (UseExisting), terminated (TerminateExisting, or the reuse
 * policy TerminateIfRunning) or rejected (Fail, or no conflict policy); a closed one is rejected by
 * RejectDuplicate, and by AllowDuplicateFailedOnly when it completed.
 */
export function idReuseVerdict(policy: Policy, latest: LatestRun | undefined, conflict?: WorkflowIdConflictPolicy): IdReuseVerdict {
  if (latest === undefined) return { kind: 'start' };
  if (latest.status === 'Running') {
    if (conflict === 'UseExisting') return { kind: 'useExisting' };
    if (conflict === 'TerminateExisting' || policy === 'TerminateIfRunning') return { kind: 'terminateAndStart' };
    const by = conflict === 'Fail' ? ' and workflowIdConflictPolicy is Fail' : '';
    return { kind: 'rejected', why: `is already running (run ${latest.runId})${by}` };
  }
  if (policy === 'RejectDuplicate') {
    return { kind: 'rejected', why: `already ran (run ${latest.runId}, ${latest.status}) and workflowIdReusePolicy is RejectDuplicate` };
  }
  if (latest.status === 'Completed' && policy === 'AllowDuplicateFailedOnly') {
    return { kind: 'rejected', why: `already completed (run ${latest.runId}) and workflowIdReusePolicy is AllowDuplicateFailedOnly` };
  }
  return { kind: 'start' };
}

/**
 * Refuses the one pair of policies that contradict each other, as Temporal's server does: the
 * reuse policy TerminateIfRunning speaks of running runs, which a conflict policy now decides.
 * @throws ValidationError naming `field`.
 */
export function checkPolicyPair(field: string, reuse: Policy | undefined, conflict: WorkflowIdConflictPolicy | undefined): void {
  if (reuse === 'TerminateIfRunning' && conflict !== undefined) {
    throw new ValidationError(field, `cannot be given with workflowIdReusePolicy TerminateIfRunning (use workflowIdConflictPolicy TerminateExisting alone)`, conflict);
  }
}
