import { ValidationError } from '../errors/index.ts';
import { MAX_PAYLOAD_DEPTH } from './limits.ts';

/**
 * Whether `value` nests arrays and objects more than `limit` levels deep (`1` and `"a"` are 0
 * levels, `[1]` one, `{ a: [1] }` two). Iterative, so a value of any depth gets an answer; it
 * stops at the first level past the limit. A circular reference (an in-process value; JSON has
 * none) is not depth: the payload check names it.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > limit) return !circularWithin(value, limit);
    const items = Array.isArray(v) ? v : Object.values(v);
    for (const item of items) if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
  }
  return false;
}

/**
 * Whether a circular reference lies within `limit` levels of `value`: what made the plain walk
 * of {@link nestsDeeperThan} go past the limit, if not true depth. It keeps each object's
 * ancestors, so it runs only then.
 */
function circularWithin(value: object, limit: number): boolean {
  const ancestors = new Set<object>();
  const stack: [object, number, boolean][] = [[value, 1, false]];
  while (stack.length > 0) {
    const [v, depth, leaving] = stack.pop()!;
    if (leaving) {
      ancestors.delete(v);
      continue;
    }
    if (ancestors.has(v)) return true;
    if (depth > limit) continue;
    ancestors.add(v);
    stack.push([v, depth, true]);
    const items = Array.isArray(v) ? v : Object.values(v);
    for (const item of items) if (typeof item === 'object' && item !== null) stack.push([item, depth + 1, false]);
  }
  return false;
}

/**
 * Refuses a payload nested more than {@link MAX_PAYLOAD_DEPTH} levels of arrays and objects: the
 * server would overflow its stack walking or serializing it.
 * @throws ValidationError `args must nest at most 512 levels of arrays and objects, got more than 512 levels`.
 */
export function checkPayloadDepth(field: string, value: unknown, limit = MAX_PAYLOAD_DEPTH): void {
  if (nestsDeeperThan(value, limit)) throw tooDeep(field, limit);
}

/** The error of a value at `field` nested more than `limit` levels deep. */
export function tooDeep(field: string, limit = MAX_PAYLOAD_DEPTH): ValidationError {
  const rule = `must nest at most ${limit} levels of arrays and objects`;
  return new ValidationError(field, rule, `more than ${limit} levels`, `${field} ${rule}, got more than ${limit} levels`);
}
