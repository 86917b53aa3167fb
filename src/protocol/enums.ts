import type { SearchAttributeType } from '../visibility/types.ts';
import { resolveSpelling, temporalSpellings } from '../common/temporal-names.ts';

/*
 * The closed sets of names the wire contract uses, as `as const` arrays: each type is derived
 * from its array, and each request schema checks with `z.enum` over the same array.
 */

/**
 * When a query is refused without asking a worker (Temporal's QueryRejectCondition):
 * `NotOpen` refuses any closed run, `NotCompletedCleanly` any run closed otherwise than
 * Completed; `None` refuses nothing.
 */
export const QUERY_REJECT_CONDITIONS = ['None', 'NotOpen', 'NotCompletedCleanly'] as const;
/** One of {@link QUERY_REJECT_CONDITIONS}. @default "None" */
export type QueryRejectCondition = (typeof QUERY_REJECT_CONDITIONS)[number];

/** Stages an update goes through, as callers see them. */
export const UPDATE_STAGES = ['Rejected', 'Admitted', 'Accepted', 'Completed'] as const;
/** One of {@link UPDATE_STAGES}. */
export type UpdateStage = (typeof UPDATE_STAGES)[number];

/** The stages an update request may wait for. */
export const UPDATE_WAIT_STAGES = ['Accepted', 'Completed'] as const;
/** One of {@link UPDATE_WAIT_STAGES}. @default "Accepted" */
export type UpdateWaitStage = (typeof UPDATE_WAIT_STAGES)[number];

/** Which WorkflowTaskCompleted event a reset without an event id goes back to. */
export const RESET_TYPES = ['FirstWorkflowTask', 'LastWorkflowTask'] as const;
/** One of {@link RESET_TYPES}. */
export type ResetType = (typeof RESET_TYPES)[number];

/**
 * Kinds of events after the reset point a reset may leave out of the new run (Temporal's
 * ResetReapplyExcludeType: SIGNAL, UPDATE): signals, and accepted updates.
 */
export const RESET_REAPPLY_EXCLUDE_TYPES = ['Signal', 'Update'] as const;
/** One of {@link RESET_REAPPLY_EXCLUDE_TYPES}. */
export type ResetReapplyExcludeType = (typeof RESET_REAPPLY_EXCLUDE_TYPES)[number];

/** What a schedule does when an action is due while a workflow it started still runs (the seed's six policies). */
export const SCHEDULE_OVERLAP_POLICIES = ['Skip', 'BufferOne', 'BufferAll', 'CancelOther', 'TerminateOther', 'AllowAll'] as const;
/** One of {@link SCHEDULE_OVERLAP_POLICIES}. @default "Skip" */
export type ScheduleOverlapPolicy = (typeof SCHEDULE_OVERLAP_POLICIES)[number];

/**
 * Temporal's spellings of the overlap policies, each mapped to steadfast's name:
 * `ScheduleOverlapPolicy.BUFFER_ONE` and `'SCHEDULE_OVERLAP_POLICY_BUFFER_ONE'` are `"BufferOne"`.
 */
export const ScheduleOverlapPolicy = temporalSpellings('SCHEDULE_OVERLAP_POLICY_', {
  SKIP: 'Skip',
  BUFFER_ONE: 'BufferOne',
  BUFFER_ALL: 'BufferAll',
  CANCEL_OTHER: 'CancelOther',
  TERMINATE_OTHER: 'TerminateOther',
  ALLOW_ALL: 'AllowAll',
} satisfies Record<string, ScheduleOverlapPolicy>);

/** An overlap policy as an option takes it: steadfast's name or Temporal's spelling. */
export type ScheduleOverlapPolicyOption = ScheduleOverlapPolicy | keyof typeof ScheduleOverlapPolicy;

/** steadfast's name of an overlap policy given in either spelling. @throws ValidationError naming `field`. */
export function resolveScheduleOverlapPolicy(field: string, value: unknown): ScheduleOverlapPolicy {
  return resolveSpelling(field, value, SCHEDULE_OVERLAP_POLICIES, ScheduleOverlapPolicy, 'SCHEDULE_OVERLAP_POLICY_');
}

/** Why an action was not taken as planned: skipped, dropped from a full buffer, missed beyond the catchup window, or a failed workflow. */
export const SCHEDULE_INCIDENT_KINDS = ['Skipped', 'BufferOverrun', 'MissedCatchup', 'Failed'] as const;
/** One of {@link SCHEDULE_INCIDENT_KINDS}. */
export type ScheduleIncidentKind = (typeof SCHEDULE_INCIDENT_KINDS)[number];

/** Search attribute types, as Temporal names them (the visibility layer's list). */
export { SEARCH_ATTRIBUTE_TYPES } from '../visibility/types.ts';
/** One of {@link SEARCH_ATTRIBUTE_TYPES}. */
export type SearchAttributeTypeName = SearchAttributeType;

/** States of a pending activity, as describe shows them. */
export const PENDING_ACTIVITY_STATES = ['Scheduled', 'Started', 'CancelRequested'] as const;
/** One of {@link PENDING_ACTIVITY_STATES}. */
export type PendingActivityState = (typeof PENDING_ACTIVITY_STATES)[number];

/** States of a pending workflow task, as describe shows them. */
export const PENDING_WORKFLOW_TASK_STATES = ['Scheduled', 'Started'] as const;
/** One of {@link PENDING_WORKFLOW_TASK_STATES}. */
export type PendingWorkflowTaskState = (typeof PENDING_WORKFLOW_TASK_STATES)[number];
