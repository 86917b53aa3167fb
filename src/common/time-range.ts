import { ValidationError } from '../errors/index.ts';

/**
 * Earliest instant a schedule time (a spec's startAt/endAt, a backfill's range) may be: the Unix
 * epoch, where schedule calendars begin (their years are 1970-2100).
 */
export const MIN_TIME_MS = 0;

/**
 * Latest instant a schedule time may be: 9999-12-31T23:59:59.999Z, the last an RFC 3339 time
 * with a four-digit year writes. Far inside Date's range (±8.64e15 ms), so a time plus a
 * duration of at most MAX_DURATION_MS is still a Date and a BIGINT.
 */
export const MAX_TIME_MS = 253_402_300_799_999;

/** The rule a time outside [MIN_TIME_MS, MAX_TIME_MS] breaks, as error messages word it. */
export const TIME_RANGE_RULE = 'must be between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z';

/**
 * Checks that `ms` (since the epoch) is within [MIN_TIME_MS, MAX_TIME_MS].
 * @param given the value as the caller wrote it (`"+010000-01-01T00:00:00Z"`, `1e300`), for the message.
 * @throws ValidationError naming the field and the range.
 */
export function checkTime(field: string, ms: number, given: unknown = ms): number {
  if (!(ms >= MIN_TIME_MS && ms <= MAX_TIME_MS)) throw new ValidationError(field, TIME_RANGE_RULE, given);
  return ms;
}
