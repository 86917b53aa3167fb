import { ValidationError } from '../errors/index.ts';

/*
 * The keys each options object of the public API accepts are listed beside the type that owns
 * them with {@link optionKeys}, and checked with {@link refuseUnknownKeys}, so that an unknown key
 * (a typo, an option of another SDK) is refused naming the valid ones.
 */

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
 * @param at.field where the options sit, when they are nested: the key is named `<field>.<key>`.
 * @param at.noun what a key is, when not `<kind> option`: `limits.rps is not a limit (known: …)`.
 * @throws ValidationError naming the key.
 */
export function refuseUnknownKeys(kind: string, options: object, known: readonly string[], at: { field?: string; noun?: string } = {}): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const noun = at.noun ?? `${kind} option`;
      const article = /^[aeiou]/i.test(noun) ? 'an' : 'a';
      throw new ValidationError(at.field === undefined ? key : `${at.field}.${key}`, `is not ${article} ${noun} (known: ${known.join(', ')})`,
        (options as Record<string, unknown>)[key]);
    }
  }
}
