import { ValidationError } from '../errors/index.ts';

/*
 * User metadata (Temporal's `UserMetadata`): a one-line summary and longer details that a
 * start, a child, an activity or a timer carries for people to read in describe, the list, the
 * CLI and the web UI. The engine stores them as text and never acts on them.
 */

/** Longest summary, characters (Temporal's server limits a summary to 400 bytes). */
export const MAX_SUMMARY_LENGTH = 400;

/** Longest details, characters (Temporal's server limits details to 20,000 bytes). */
export const MAX_DETAILS_LENGTH = 20_000;

/** Longest current details a workflow sets (`setCurrentDetails`), characters. */
export const MAX_CURRENT_DETAILS_LENGTH = MAX_DETAILS_LENGTH;

/** The summary and details of a start, a child, an activity or a timer, as events carry them. */
export interface UserMetadata {
  /** One line, at most {@link MAX_SUMMARY_LENGTH} characters. */
  summary?: string | undefined;
  /** Any number of lines, at most {@link MAX_DETAILS_LENGTH} characters; only starts and children have details. */
  details?: string | undefined;
}

/**
 * A summary or details at `field`: a string of at most `max` characters, or undefined when left
 * out (`null` too); an empty string counts as left out.
 * @throws ValidationError naming `field` for a value that is not a string, or a longer one.
 */
export function optionalMetadataText(field: string, value: unknown, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ValidationError(field, 'must be a string', value);
  if (value.length > max) {
    throw new ValidationError(field, `must be at most ${max} characters`, `${value.slice(0, 20)}... (${value.length} characters)`);
  }
  return value === '' ? undefined : value;
}

/** `{ summary, details }` with the texts given (checked as {@link optionalMetadataText}), or undefined when both are absent. */
export function userMetadataOf(
  summary: { field: string; value: unknown }, details?: { field: string; value: unknown },
): UserMetadata | undefined {
  const s = optionalMetadataText(summary.field, summary.value, MAX_SUMMARY_LENGTH);
  const d = details ? optionalMetadataText(details.field, details.value, MAX_DETAILS_LENGTH) : undefined;
  if (s === undefined && d === undefined) return undefined;
  return { ...(s !== undefined ? { summary: s } : {}), ...(d !== undefined ? { details: d } : {}) };
}

/**
 * User metadata as a request or command carries it at `field` (`{ summary?, details? }`), checked;
 * undefined when left out or empty. `withDetails` false refuses details (activities, timers).
 * @throws ValidationError naming the field and the rule.
 */
export function checkUserMetadata(field: string, value: unknown, withDetails = true): UserMetadata | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new ValidationError(field, 'must be an object { summary?, details? }', value);
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (key !== 'summary' && (key !== 'details' || !withDetails)) {
      throw new ValidationError(`${field}.${key}`, `is not a user metadata field (${withDetails ? 'summary, details' : 'summary'})`, v[key]);
    }
  }
  return userMetadataOf({ field: `${field}.summary`, value: v.summary }, withDetails ? { field: `${field}.details`, value: v.details } : undefined);
}
