import { optionalRecord } from '../common/validate.ts';
import type { SearchAttributeInputValue, SearchAttributesInput } from '../history/search-attribute-values.ts';
import { ValidationError } from '../errors/index.ts';

/** A search attribute value as workflow code gives it: one value or an array of values; a Date travels as its ISO string. */
export type SearchAttributeOptionValue = string | number | boolean | Date | readonly (string | number | boolean | Date)[] | null;

/** Search attributes by name as `upsertSearchAttributes`, child options and continue-as-new options take them. */
export type SearchAttributesOption = Record<string, SearchAttributeOptionValue>;

const RULE = 'must be a string, number, boolean or Date, an array of them, or [] (or null) to remove the attribute';

function scalar(field: string, value: unknown): string | number | boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  // JSON would turn NaN and Infinity into null, which removes the attribute.
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value instanceof Date) {
    if (Number.isFinite(value.getTime())) return value.toISOString();
    throw new ValidationError(field, 'must be a valid Date', value, `${field} must be a valid Date, got Invalid Date`);
  }
  throw new ValidationError(field, RULE, value);
}

/**
 * Search attributes given in workflow code as a command carries them: Dates as ISO strings, the
 * rest as given; the engine checks them against the namespace's registered attributes.
 * @throws ValidationError naming `field.<attribute>` for a value no attribute type takes.
 */
export function searchAttributesToCommand(field: string, values: unknown): SearchAttributesInput {
  const given = optionalRecord(field, values);
  if (given === undefined) throw new ValidationError(field, 'must be an object of attribute name to value', values);
  const out: SearchAttributesInput = {};
  for (const [name, value] of Object.entries(given)) {
    const f = `${field}.${name}`;
    out[name] = value === null ? null
      : Array.isArray(value) ? value.map((v: unknown, i) => scalar(`${f}[${i}]`, v)) as SearchAttributeInputValue
        : scalar(f, value);
  }
  return out;
}
