import type { z } from 'zod';
import { ValidationError } from '../errors/index.ts';
import { checkRequestText, withoutNulls } from './request-text.ts';

/** Most characters of an over-long string an error message repeats. */
const SHOWN_PREFIX = 20;

/**
 * The field path of an issue as error messages write it: keys joined by dots, array indexes in
 * brackets (`commands[2].attributes.taskQueue`), prefixed by `base` when the value sits there.
 */
function pathText(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The value at `path` inside `root`, or undefined where the path leaves the value. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * Our ValidationError for the first issue of a failed parse: the field path, the rule (the
 * issue's message, which the schemas word as a rule) and the value given. An unknown key of a
 * strict object is named as the field, with its value. `base` is the path of `input` itself.
 */
export function fromZodError(error: z.ZodError, input: unknown, base = ''): ValidationError {
  const issue = error.issues[0]!;
  let path: readonly PropertyKey[] = issue.path;
  if (issue.code === 'unrecognized_keys') path = [...path, issue.keys[0]!];
  const field = pathText(base, path) || 'request';
  const value = valueAt(input, path);
  if (issue.code === 'too_big' && typeof value === 'string') {
    return new ValidationError(field, issue.message, `${value.slice(0, SHOWN_PREFIX)}... (${value.length} characters)`);
  }
  return new ValidationError(field, issue.message, value);
}

/**
 * Validates one value at `field` with a schema.
 * @throws ValidationError naming the field path, the rule and the value.
 */
export function parseField<S extends z.ZodType>(schema: S, field: string, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw fromZodError(r.error, value, field);
  return r.data;
}

/**
 * Validates a service request: an object whose payloads nest at most MAX_PAYLOAD_DEPTH levels
 * and whose names and ids (every string outside the payload fields) are free of NUL and lone
 * surrogates (checkRequestText), then (its `null` fields taken as left out) the call's schema.
 * Every call of the engine starts here.
 * @throws ValidationError naming the field path, the rule and the value.
 */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ValidationError('request', 'must be an object', input);
  }
  const request = checkRequestText(input as Record<string, unknown>) ? withoutNulls(input as Record<string, unknown>) : input;
  const r = schema.safeParse(request);
  if (!r.success) throw fromZodError(r.error, request);
  return r.data;
}

/** Keys that `A` has and `B` lacks, or the reverse. */
type KeyDrift<A, B> = Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>;

/**
 * Ties a schema to the public type it validates, at compile time: the schema has exactly the
 * type's fields, and what it outputs is a `T`. So the interface (with its docs) and the
 * validator cannot drift apart: a field added to one and not the other fails to compile.
 * @example export const pollRequestSchema = schemaOf<PollRequest>()(z.object({ … }));
 */
export function schemaOf<T>() {
  return <S extends z.ZodType<T>>(
    schema: S & ([KeyDrift<T, z.output<S>>] extends [never] ? unknown : { fieldsOutOfStep: KeyDrift<T, z.output<S>> }),
  ): S => schema;
}
