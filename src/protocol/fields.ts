import { z } from 'zod';
import { DEFAULT_NAMESPACE } from '../common/ids.ts';
import { FAILURE_KINDS, type FailureInfo } from '../common/failure.ts';
import { checkPolicyDurations, MAX_DURATION_MS, MAX_DURATION_RULE } from '../common/max-duration.ts';
import { MAX_TIME_MS, MIN_TIME_MS, TIME_RANGE_RULE } from '../common/time-range.ts';
import { encodePayload } from '../common/payload.ts';
import { MAX_HEADER_ENTRIES } from '../common/headers.ts';
import { resolveRetryPolicy } from '../retry/index.ts';
import type { RetryPolicyData } from '../retry/policy-data.ts';
import { checkUserMetadata, type UserMetadata } from '../history/user-metadata.ts';
import { MAX_ID_LENGTH, MAX_IDENTITY_LENGTH, MAX_NAME_LENGTH } from './limits.ts';

/*
 * The building blocks of the request schemas. Each carries the rule as its message, so that an
 * error reads `<field path> <rule>, got <value>` (see fromZodError): `taskQueue must be a
 * non-empty string, got ""`. A check that a lower layer owns (a retry policy, a payload's
 * size) runs inside the schema and throws that layer's ValidationError, which parsing passes on.
 */

const NON_EMPTY = 'must be a non-empty string';

/** A non-empty string of at most `max` characters. */
export function text(max: number = MAX_NAME_LENGTH) {
  return z.string({ error: NON_EMPTY }).min(1, NON_EMPTY).max(max, `must be at most ${max} characters`);
}

/**
 * A field that may be left out. A `null` counts as left out, as JSON clients write it:
 * parseRequest drops null fields before the schema runs (withoutNulls), which keeps this a plain
 * `.optional()`; a preprocessing step here doubled the cost of parsing a poll (measured: about
 * 1.5 µs against 0.8 µs).
 */
export function optional<S extends z.ZodType>(schema: S) {
  return schema.optional();
}

/** An integer in [min, max]. */
export function int(min = -Infinity, max = Infinity) {
  let s = z.number({ error: 'must be an integer' }).refine(Number.isInteger, 'must be an integer');
  if (min > -Infinity) s = s.min(min, `must be >= ${min}`);
  if (max < Infinity) s = s.max(max, `must be <= ${max}`);
  return s;
}

/** A duration in whole ms from `min` to MAX_DURATION_MS (100 years): a timer, a backoff, a timeout. */
export function durationMs(min: number) {
  return int(min).max(MAX_DURATION_MS, MAX_DURATION_RULE);
}

/** A positive timeout in ms, at most MAX_DURATION_MS. */
export const timeoutMs = durationMs(1);

/** An instant in whole ms since the epoch, from 1970 to the end of 9999 (MIN_TIME_MS..MAX_TIME_MS). */
export const epochMs = int().refine((v) => v >= MIN_TIME_MS && v <= MAX_TIME_MS, TIME_RANGE_RULE);

const PAGE_TOKEN_RULE = 'must be the nextPageToken of an earlier page';

/**
 * A page token of a list keyed by a name (schedules, namespaces): base64url, without padding, of
 * the last key of the previous page, a non-empty string of at most `maxKeyLength` characters, as
 * the service writes it. Anything else is refused rather than read as some other place to start.
 */
export function keyPageToken(maxKeyLength: number) {
  return z.string({ error: PAGE_TOKEN_RULE }).refine((token) => {
    const key = keyOfPageToken(token);
    return key !== undefined && key.length > 0 && key.length <= maxKeyLength;
  }, PAGE_TOKEN_RULE);
}

const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The key a {@link keyPageToken} holds, or undefined when the token is not one the service writes. */
function keyOfPageToken(token: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(token) || token.length % 4 === 1) return undefined;
  const binary = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
  const reencoded = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  if (reencoded !== token) return undefined;
  try {
    return FATAL_UTF8.decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** true or false. */
export const bool = z.boolean({ error: 'must be true or false' });

/** One of `values`, named in the message. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

/** A plain object of any values. */
export const record = z.record(z.string(), z.unknown(), { error: 'must be an object' });

/** A namespace, `"default"` when left out. */
export const namespace = optional(text(MAX_ID_LENGTH)).default(DEFAULT_NAMESPACE);

/** An id the stores index: a request id, an update id. */
export const id = text(MAX_ID_LENGTH);

/** What a run id looks like: a UUID, as every run id the engine makes (newUuid). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A run id: a UUID (`01a21f60-d0da-7733-a90c-69b76202dfe2`), in either case, read in lower case
 * as the engine writes them. Anything else names no run, and is refused as malformed rather than
 * answered NotFound.
 */
export const runId = z.string({ error: 'must be a run id, a UUID such as 01a21f60-d0da-7733-a90c-69b76202dfe2' })
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  .regex(UUID, 'must be a run id, a UUID such as 01a21f60-d0da-7733-a90c-69b76202dfe2')
  .transform((s) => s.toLowerCase());

/** A worker's or client's identity (also the limit of signal, query and update names). */
export const identity = text(MAX_IDENTITY_LENGTH);

/** Throws encodePayload's ValidationError (not serializable, over the size limit) for the field. */
function encodable(field: string) {
  return (value: unknown) => (encodePayload(field, value), true);
}

/** User data of any shape at `field`, or left out: JSON-serializable and within the payload size limit. */
export function payload(field: string) {
  const encode = encodable(field);
  return z.unknown().refine((v) => v === undefined || encode(v)).optional();
}

/**
 * A field whose rules a later layer owns (a cron spec, a visibility query, a search attribute,
 * a task token): passed through as given, typed as `T`, for the engine to check with that
 * layer's validator. Left out is allowed here; the later check decides.
 */
export function checkedLater<T>(): z.ZodType<T> {
  return z.unknown().optional() as unknown as z.ZodType<T>;
}

/** Arguments at `field`: an array, `[]` when left out, encodable as a payload. */
export function payloadArray(field: string) {
  return z.array(z.unknown(), { error: 'must be an array' }).refine(encodable(field)).default([]);
}

/** A memo or other user record at `field`: an object, encodable as a payload. */
export function payloadRecord(field: string) {
  return optional(record.refine(encodable(field)));
}

/** A failure in its stored form at `field`: an object with `kind` and `message`, encodable as a payload. */
export function failure(field: string): z.ZodType<FailureInfo> {
  return z.looseObject({
    kind: oneOf(FAILURE_KINDS),
    message: z.string({ error: 'must be a string' }),
    nextRetryDelayMs: durationMs(0).optional(),
  }, { error: 'must be an object' }).refine(encodable(field)) as z.ZodType<FailureInfo>;
}

/** A workflow's retry policy at `field` (Temporal's fields), with the retry library's rules and intervals at most MAX_DURATION_MS. */
export function retryPolicy(field: string) {
  return optional(z.unknown().transform((v): RetryPolicyData | undefined => (v === null ? undefined
    : checkPolicyDurations(field, resolveRetryPolicy(v as RetryPolicyData, field), 'wire'))));
}

/** A start's user metadata at `field` (`{ summary?, details? }`), with the history layer's rules; empty texts are left out. */
export function userMetadata(field: string) {
  return optional(z.unknown().transform((v): UserMetadata | undefined => checkUserMetadata(field, v)));
}

const BASE64_TEXT = z.string({ error: 'must be a base64 string' }).regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be a base64 string');

/**
 * Headers at `field` (Temporal's `Headers` in wire form: payloads of base64 metadata and data), or
 * left out: at most MAX_HEADER_ENTRIES, within the payload size limit. The engine stores them and
 * never reads them.
 */
export function headers(field: string) {
  return optional(z.record(z.string(), z.strictObject({
    metadata: z.record(z.string(), BASE64_TEXT, { error: 'must be an object of base64 strings' }),
    data: BASE64_TEXT,
  }, { error: 'must be a payload { metadata, data } of base64 strings' }), { error: 'must be an object of payloads' })
    .refine((h) => Object.keys(h).length <= MAX_HEADER_ENTRIES, `must have at most ${MAX_HEADER_ENTRIES} entries`)
    .refine(encodable(field)));
}
