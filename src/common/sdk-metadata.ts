import { ValidationError } from '../errors/index.ts';
import { optionalArray, optionalRecord, requireInt } from './validate.ts';

/**
 * Version of the history format this code writes and reads, recorded nowhere on its own: it
 * names which fields a history may hold. 1: histories before replay flags. 2: a
 * WorkflowTaskCompleted event may carry {@link SdkMetadata} with the replay flags its task used
 * (histories of version 1 simply lack it, and replay exactly as before).
 */
export const HISTORY_FORMAT_VERSION = 2;

/** Flags one workflow task may record, at most. */
const MAX_USED_FLAGS = 64;

/**
 * What a worker records about its workflow code on WorkflowTaskCompleted, as Temporal's
 * `sdkMetadata`: the numbered replay flags (src/workflow/flags.ts) the task used for the first
 * time in the run, so that a later replay takes the same branch.
 */
export interface SdkMetadata {
  /** Ids of the replay flags first used by this task, ascending. */
  langUsedFlags?: number[];
}

/**
 * Checks a request's `sdkMetadata`.
 * @throws ValidationError naming the field: not an object, a flag that is not an integer in
 *   1..2^31-1, or more than {@link MAX_USED_FLAGS} flags.
 */
export function optionalSdkMetadata(value: unknown): SdkMetadata | undefined {
  const record = optionalRecord('sdkMetadata', value);
  if (record === undefined) return undefined;
  for (const key of Object.keys(record)) {
    if (key !== 'langUsedFlags') throw new ValidationError(`sdkMetadata.${key}`, 'is not a known field (known: langUsedFlags)', record[key]);
  }
  const flags = optionalArray('sdkMetadata.langUsedFlags', record.langUsedFlags);
  if (flags.length > MAX_USED_FLAGS) throw new ValidationError('sdkMetadata.langUsedFlags', `must hold at most ${MAX_USED_FLAGS} flags`, flags.length);
  const ids = flags.map((f, i) => requireInt(`sdkMetadata.langUsedFlags[${i}]`, f, 1, 2 ** 31 - 1));
  return ids.length ? { langUsedFlags: [...new Set(ids)].sort((a, b) => a - b) } : {};
}
