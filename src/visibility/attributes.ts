import { ValidationError, describeValue } from '../errors/index.ts';
import { InvalidSearchAttributeError, withArticle } from './errors.ts';
import {
  BUILT_IN_ATTRIBUTES, SEARCH_ATTRIBUTE_TYPES, isBuiltInAttribute, type SearchAttributeDefinition, type SearchAttributeType,
} from './types.ts';
import { parseRfc3339 } from './values.ts';

/** A search attribute value after validation; Datetime values are ISO 8601 strings in UTC, ms precision. */
export type SearchAttributeValue = string | number | boolean | readonly string[];

/** Longest Keyword value (and KeywordList element), in characters. */
export const MAX_KEYWORD_LENGTH = 2048;
/** Longest Text value, in characters. */
export const MAX_TEXT_LENGTH = 32_768;
/** Most elements in one KeywordList value. */
export const MAX_KEYWORD_LIST_LENGTH = 1000;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_NAME_LENGTH = 64;

/**
 * Checks the custom attribute definitions of a namespace: names are identifiers of at most
 * 64 characters, unique, not built in and not starting with `Temporal`; types are known.
 * @throws ValidationError naming `searchAttributes[i].name` or `.type`.
 */
export function validateAttributeDefinitions(definitions: unknown): SearchAttributeDefinition[] {
  if (!Array.isArray(definitions)) throw new ValidationError('searchAttributes', 'must be an array of { name, type }', definitions);
  const seen = new Set<string>();
  return definitions.map((d: unknown, i) => {
    const field = `searchAttributes[${i}]`;
    if (typeof d !== 'object' || d === null) throw new ValidationError(field, 'must be an object { name, type }', d);
    const { name, type } = d as { name?: unknown; type?: unknown };
    if (typeof name !== 'string' || !NAME.test(name) || name.length > MAX_NAME_LENGTH) {
      throw new ValidationError(`${field}.name`, `must be letters, digits and underscores, not starting with a digit, at most ${MAX_NAME_LENGTH} characters`, name);
    }
    if (isBuiltInAttribute(name)) throw new ValidationError(`${field}.name`, 'must not be the name of a built-in attribute', name);
    if (name.startsWith('Temporal')) throw new ValidationError(`${field}.name`, 'must not start with "Temporal" (reserved)', name);
    if (seen.has(name)) throw new ValidationError(`${field}.name`, 'must be unique', name);
    seen.add(name);
    if (typeof type !== 'string' || !(SEARCH_ATTRIBUTE_TYPES as readonly string[]).includes(type)) {
      throw new ValidationError(`${field}.type`, `must be one of ${SEARCH_ATTRIBUTE_TYPES.join(', ')}`, type);
    }
    return { name, type: type as SearchAttributeType };
  });
}

/**
 * Validates the search attribute values given at start or upsert against the namespace's
 * definitions and returns them normalized. `null` means "remove" (upsert) and is kept.
 * @throws InvalidSearchAttributeError naming the attribute, its type and the value when the
 *   attribute is unregistered, built in, or the value does not fit the type.
 */
export function validateSearchAttributes(
  definitions: readonly SearchAttributeDefinition[],
  values: unknown,
  field = 'searchAttributes',
): Record<string, SearchAttributeValue | null> {
  const out: Record<string, SearchAttributeValue | null> = {};
  for (const [name, value, def] of registeredEntries(definitions, values, field)) {
    out[name] = value === null ? null : normalizeValue(def, value, field);
  }
  return out;
}

/**
 * The entries of an object of attribute values, each with its definition.
 * @throws ValidationError when `values` is not an object; InvalidSearchAttributeError for a
 *   built-in or unregistered name.
 */
function registeredEntries(
  definitions: readonly SearchAttributeDefinition[], values: unknown, field: string,
): [name: string, value: unknown, def: SearchAttributeDefinition][] {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new ValidationError(field, 'must be an object of attribute name to value', values);
  }
  const byName = new Map(definitions.map((d) => [d.name, d]));
  return Object.entries(values).map(([name, value]) => {
    if (isBuiltInAttribute(name)) {
      throw new InvalidSearchAttributeError(name, 'is a built-in attribute and cannot be set', value, BUILT_IN_ATTRIBUTES[name].type, field);
    }
    const def = byName.get(name);
    if (!def) throw new InvalidSearchAttributeError(name, 'is not a registered search attribute of this namespace', value, undefined, field);
    return [name, value, def];
  });
}

/**
 * Validates the values of an upsert from workflow code (Temporal's shape) and returns them as
 * {@link validateSearchAttributes} does: a value may also be an array of one value for a
 * single-valued type, and `null` or `[]` removes the attribute (kept as `null`). The names are
 * checked either way: a built-in or unregistered name fails, even to remove it.
 * @throws InvalidSearchAttributeError naming `field.<attribute>`.
 */
export function validateUpsertAttributes(
  definitions: readonly SearchAttributeDefinition[],
  values: unknown,
  field = 'searchAttributes',
): Record<string, SearchAttributeValue | null> {
  const single: Record<string, unknown> = {};
  for (const [name, value, def] of registeredEntries(definitions, values, field)) {
    if (value === null || (Array.isArray(value) && value.length === 0)) single[name] = null;
    else if (!Array.isArray(value) || def.type === 'KeywordList') single[name] = value;
    else if (value.length === 1) single[name] = value[0];
    else throw new InvalidSearchAttributeError(name, `is ${withArticle(def.type)} attribute and takes a single value`, value, def.type, field);
  }
  return validateSearchAttributes(definitions, single, field);
}

function normalizeValue(def: SearchAttributeDefinition, value: unknown, field: string): SearchAttributeValue {
  const fail = (rule: string): never => {
    throw new InvalidSearchAttributeError(def.name, `is ${withArticle(def.type)} attribute and ${rule}`, value, def.type, field);
  };
  switch (def.type) {
    case 'Keyword':
      return keyword(value, fail);
    case 'Text':
      if (typeof value !== 'string') return fail('must be a string');
      if (value.length > MAX_TEXT_LENGTH) return fail(`must be at most ${MAX_TEXT_LENGTH} characters`);
      return value;
    case 'Int':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return fail('must be an integer between -(2^53 - 1) and 2^53 - 1');
      return value;
    case 'Double':
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail('must be a finite number');
      return value;
    case 'Bool':
      if (typeof value !== 'boolean') return fail('must be true or false');
      return value;
    case 'Datetime': {
      const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? parseRfc3339(value) : undefined;
      if (ms === undefined || !Number.isFinite(ms)) return fail('must be a Date or an RFC 3339 date-time string');
      return new Date(Math.floor(ms)).toISOString();
    }
    case 'KeywordList': {
      if (!Array.isArray(value)) return fail('must be an array of strings');
      if (value.length > MAX_KEYWORD_LIST_LENGTH) return fail(`must have at most ${MAX_KEYWORD_LIST_LENGTH} elements`);
      return value.map((v: unknown, i) => keyword(v, (rule) => fail(`element ${i} ${rule} (got ${describeValue(v)})`)));
    }
  }
}

function keyword(value: unknown, fail: (rule: string) => never): string {
  if (typeof value !== 'string') return fail('must be a string');
  if (value.length > MAX_KEYWORD_LENGTH) return fail(`must be at most ${MAX_KEYWORD_LENGTH} characters`);
  return value;
}

/**
 * Checks one attribute to register, `{ name, type }`, by the rules of
 * {@link validateAttributeDefinitions}; errors name the field `name` or `type`.
 * @throws ValidationError
 */
export function validateNewAttribute(definition: { name?: unknown; type?: unknown }): SearchAttributeDefinition {
  try {
    return validateAttributeDefinitions([{ name: definition.name, type: definition.type }])[0]!;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const field = err.field.replace('searchAttributes[0].', '');
    throw new ValidationError(field, err.rule, field === 'name' ? definition.name : definition.type);
  }
}
