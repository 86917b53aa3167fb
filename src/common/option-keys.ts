import { ValidationError } from '../retry/errors.ts';

/*
 * The keys each options object of the public API accepts, one list per kind of options, so that
 * an unknown key (a typo, an option of another SDK) is refused naming the valid ones. A new
 * option is added to its list here and to its interface.
 */

/** Keys of `client.workflow.start()` / `execute()` options. */
export const WORKFLOW_START_OPTION_KEYS = [
  'taskQueue', 'workflowId', 'args', 'retry', 'workflowExecutionTimeout', 'workflowRunTimeout', 'workflowTaskTimeout',
  'workflowIdReusePolicy', 'memo', 'requestId', 'cronSchedule', 'searchAttributes',
];

/** Keys of `client.workflow.signalWithStart()` options: the start options and the signal. */
export const SIGNAL_WITH_START_OPTION_KEYS = [...WORKFLOW_START_OPTION_KEYS, 'signal', 'signalArgs'];

/** Keys of `client.workflow.list()` filters. */
export const LIST_OPTION_KEYS = [
  'workflowType', 'status', 'workflowIdPrefix', 'startTimeFrom', 'startTimeTo', 'closeTimeFrom', 'closeTimeTo', 'pageSize', 'query',
];

/** Keys of `handle.queryWithOptions()` options. */
export const QUERY_OPTION_KEYS = ['timeout', 'queryRejectCondition'];

/** Keys of `handle.executeUpdate()` options (`startUpdate` also takes `waitForStage`). */
export const UPDATE_OPTION_KEYS = ['args', 'updateId'];

/** Keys of `handle.reset()` options. */
export const RESET_OPTION_KEYS = ['eventId', 'type', 'reason', 'reapplySignals'];

/** Keys of `makeContinueAsNewFunc()` options. */
export const CONTINUE_AS_NEW_OPTION_KEYS = ['workflowType', 'taskQueue', 'workflowRunTimeout', 'workflowTaskTimeout', 'memo', 'searchAttributes'];


/** Keys of `Replayer.replayHistory()` / `replayHistories()` options. */
export const REPLAY_OPTION_KEYS = ['workflowsPath', 'workflowId', 'runId', 'namespace', 'dataConverter'];

/**
 * The keys of an options type, listed once beside the type that owns them: the compiler fails
 * when the type gains a key the list lacks, or the list names one the type does not have.
 */
export function optionKeys<T>(keys: { [K in keyof Required<T>]: true }): string[] {
  return Object.keys(keys);
}

/**
 * Refuses a key that is not in `known`: `taskQeue is not a workflow start option (known: taskQueue, …)`.
 * Keys whose value is `undefined` are refused too: a misspelt key is a mistake whatever its value.
 * @throws ValidationError naming the key.
 */
export function refuseUnknownKeys(kind: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const article = /^[aeiou]/i.test(kind) ? 'an' : 'a';
      throw new ValidationError(key, `is not ${article} ${kind} option (known: ${known.join(', ')})`, (options as Record<string, unknown>)[key]);
    }
  }
}
