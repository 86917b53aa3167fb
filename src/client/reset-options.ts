import { requireOneOf } from '../common/validate.ts';
import { ValidationError } from '../errors/index.ts';
import { RESET_REAPPLY_EXCLUDE_TYPES, type ResetReapplyExcludeType } from '../protocol/index.ts';

/**
 * `resetReapplyExcludeTypes` of a reset (Temporal's field): an array naming `Signal`, `Update`
 * or both, each once, or undefined.
 * @throws ValidationError naming `field` and the rule.
 */
export function optionalReapplyExcludeTypes(field: string, value: unknown): ResetReapplyExcludeType[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new ValidationError(field, `must be an array of ${RESET_REAPPLY_EXCLUDE_TYPES.join(', ')}`, value);
  const kinds = value.map((v, i) => requireOneOf(`${field}[${i}]`, v, RESET_REAPPLY_EXCLUDE_TYPES));
  if (new Set(kinds).size !== kinds.length) throw new ValidationError(field, 'must name each kind at most once', value);
  return kinds;
}
