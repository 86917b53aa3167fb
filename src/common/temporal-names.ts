import { ValidationError } from '../errors/index.ts';

/**
 * An enum object in the shape of Temporal's TypeScript SDK: each short key (`ABANDON`) and its
 * protobuf spelling (`PARENT_CLOSE_POLICY_ABANDON`), both mapped to one of steadfast's names.
 */
export type TemporalSpellings<S extends Record<string, string>, P extends string> = Readonly<
  S & { [K in keyof S & string as `${P}${K}`]: S[K] }
>;

/**
 * Builds a {@link TemporalSpellings} object from the short keys: every `prefix + key` is added
 * with the same value, so the two spellings cannot disagree.
 */
export function temporalSpellings<const S extends Record<string, string>, const P extends string>(
  prefix: P, short: S,
): TemporalSpellings<S, P> {
  const all: Record<string, string> = { ...short };
  for (const [key, name] of Object.entries(short)) all[`${prefix}${key}`] = name;
  return Object.freeze(all) as TemporalSpellings<S, P>;
}

/**
 * steadfast's name for a value given as that name or as one of Temporal's spellings.
 * @throws ValidationError naming `field`, the valid names and the Temporal prefix.
 */
export function resolveSpelling<N extends string>(
  field: string, value: unknown, names: readonly N[], spellings: Readonly<Record<string, N>>, prefix: string,
): N {
  if (typeof value === 'string') {
    if ((names as readonly string[]).includes(value)) return value as N;
    if (Object.hasOwn(spellings, value)) return spellings[value]!;
  }
  const short = Object.keys(spellings).filter((k) => !k.startsWith(prefix));
  throw new ValidationError(field, `must be one of ${names.join(', ')} (or Temporal's ${short.join(', ')}, also as ${prefix}…)`, value);
}
