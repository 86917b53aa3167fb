import { ValidationError } from '../errors/index.ts';
import { UsageError } from './args.ts';

/**
 * An option's ValidationError retold with the flag that set it and the text typed there
 * (`--catchup-window must be >= 1s (1000 ms), got "-1s"`), when `flagOfField` names a flag for
 * the error's field (exactly, or as the start of its path); otherwise the error as it is.
 * @param flagOfField option field → flag name without its dashes, e.g. `{ 'policies.catchupWindow': 'catchup-window' }`.
 * @param values the parsed flags, for the text typed.
 */
export function asFlagErrorOf(err: unknown, flagOfField: Readonly<Record<string, string>>, values: object, rule = (r: string) => r): unknown {
  if (!(err instanceof ValidationError)) return err;
  const field = Object.keys(flagOfField).find((f) => err.field === f || err.field.startsWith(`${f}.`) || err.field.startsWith(`${f}[`));
  if (field === undefined) return err;
  const flag = flagOfField[field]!;
  const typed = (values as Record<string, unknown>)[flag];
  const got = typeof typed === 'string' ? `"${typed}"` : JSON.stringify(err.value);
  return new UsageError(`--${flag} ${rule(err.rule)}, got ${got}`);
}
