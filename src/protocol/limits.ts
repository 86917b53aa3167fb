/*
 * The size limits of the wire contract, in one place: the request schemas check them and the
 * error messages quote them. Lengths are UTF-16 code units (JavaScript string length).
 */

/** Longest workflow id, workflow type, task queue or other name a request carries, characters. */
export const MAX_NAME_LENGTH = 1000;

/**
 * Longest namespace, run id, request id, update id, schedule id or worker instance id,
 * characters: the ids the stores index and repeat in every row of a run.
 */
export const MAX_ID_LENGTH = 200;

/** Longest worker or client identity, and longest signal, query or update name, characters. */
export const MAX_IDENTITY_LENGTH = 500;

/** Longest reason of a cancel, terminate or reset, and longest schedule note, characters. */
export const MAX_REASON_LENGTH = 10_000;

/**
 * Longest workflow id of a schedule's action, characters: each start's id is it plus `-` and
 * the action's nominal time (RFC 3339, at most 30 characters more), within {@link MAX_NAME_LENGTH}.
 */
export const MAX_SCHEDULE_WORKFLOW_ID_LENGTH = 800;

/**
 * Deepest a payload (arguments, results, memo, details, failures) may nest arrays and objects,
 * levels counted from the field's value (`[[1]]` is 2). The server walks and serializes payloads
 * with recursive code: arguments 2,500 levels deep overflowed the stack (a 500) where 2,000 did
 * not (measured), so the limit leaves that a margin of four; JSON parsers elsewhere stop at 100
 * (Ruby) to 10,000 (Go).
 */
export const MAX_PAYLOAD_DEPTH = 512;

/** Longest a long poll (task polls, history waits, update waits) is held open, ms. */
export const MAX_LONG_POLL_MS = 600_000;

/** How long a long poll is held open when the request does not say, ms. */
export const DEFAULT_LONG_POLL_MS = 30_000;

/** Longest a query or an update's validation waits for a worker's answer, ms. */
export const MAX_QUERY_TIMEOUT_MS = 600_000;

/** Upper bound of PollRequest.maxTasks: bounds one answer's size and the transitions one poll starts. */
export const MAX_TASKS_PER_POLL_REQUEST = 100;

/** Most events one history page holds. */
export const MAX_HISTORY_PAGE_SIZE = 10_000;

/** Events per history page when the request does not say. */
export const DEFAULT_HISTORY_PAGE_SIZE = 1000;

/** Most runs or schedules one list page holds. */
export const MAX_LIST_PAGE_SIZE = 1000;

/** Runs or schedules per list page when the request does not say. */
export const DEFAULT_LIST_PAGE_SIZE = 100;

/** Shortest catchup window a schedule accepts, ms. */
export const MIN_CATCHUP_WINDOW_MS = 1000;

/** The workflow task timeout when a start does not give one, ms. */
export const DEFAULT_WORKFLOW_TASK_TIMEOUT_MS = 10_000;

/** The most running local activities one workflow task completion reports (the rest are left out). */
export const MAX_RUNNING_LOCAL_ACTIVITIES = 100;
