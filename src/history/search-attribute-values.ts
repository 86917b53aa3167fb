/**
 * Search attribute values as commands and events carry them. The engine checks them against the
 * namespace's registered attributes (src/visibility/attributes.ts); these types and the merge are
 * shared with the workflow sandbox, which cannot see the registrations.
 */

/** A value as stored for its registered type: Datetime as an ISO 8601 string, KeywordList as an array. */
export type SearchAttributeStoredValue = string | number | boolean | readonly string[];

/**
 * A value as workflow code gives it (Temporal's shape): one value, or an array of values. An
 * array of one value sets an attribute of a single-valued type; `[]` or `null` removes the attribute.
 */
export type SearchAttributeInputValue = string | number | boolean | readonly (string | number | boolean)[] | null;

/** Search attribute changes by name, as a command carries them. */
export type SearchAttributesInput = Record<string, SearchAttributeInputValue>;

/** Whether a value given to an upsert removes its attribute: `null` or an empty array. */
export function removesSearchAttribute(value: unknown): boolean {
  return value === null || (Array.isArray(value) && value.length === 0);
}

/**
 * The attributes after an upsert: each changed attribute is set, one whose value removes it
 * ({@link removesSearchAttribute}) is deleted. Undefined when none are left. Pure, so the engine
 * and the workflow sandbox compute the same set of names.
 */
export function mergeSearchAttributes<V>(
  current: Readonly<Record<string, V>> | undefined, changes: Readonly<Record<string, V | null>>,
): Record<string, V> | undefined {
  const out: Record<string, V> = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (removesSearchAttribute(value)) delete out[name];
    else out[name] = value as V;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
