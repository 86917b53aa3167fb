import { ValidationError } from '../errors/index.ts';

/**
 * Checks a time argument of a next-fire function: a finite number of ms since the epoch.
 * @throws ValidationError naming the argument.
 */
export function requireTime(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ValidationError(field, 'must be a finite number of milliseconds since the epoch', value);
  }
  return value;
}
