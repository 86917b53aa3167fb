import { ValidationError } from '../errors/index.ts';
import { MAX_PAYLOAD_DEPTH } from './limits.ts';
import { checkPayloadDepth, tooDeep } from './payload-depth.ts';

/**
 * Fields whose values are the user's data (arguments, results, memo, failures, details): the
 * stores keep them as JSON text, where NUL and lone surrogates are escaped and round-trip
 * exactly, so any string is allowed in them. Every other string of a request is a name or an
 * id that the stores index as a column, where PostgreSQL refuses NUL and a lone surrogate
 * stops matching itself.
 */
export const PAYLOAD_FIELDS: ReadonlySet<string> = new Set([
  'args', 'signalArgs', 'memo', 'result', 'details', 'lastHeartbeatDetails', 'heartbeatDetails', 'failure', 'outcome',
]);

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks one name or id: refuses NUL (U+0000) and lone UTF-16 surrogates, which the two stores
 * would treat differently (PostgreSQL fails on NUL; a lone surrogate is stored as U+FFFD).
 * @throws ValidationError `workflowId must not contain NUL (U+0000), got "a\u0000"`.
 */
export function checkText(field: string, value: string): string {
  const nul = value.indexOf('\u0000');
  if (nul >= 0) throw new ValidationError(field, 'must not contain NUL (U+0000)', shown(value, nul));
  const lone = LONE_SURROGATE.exec(value);
  if (lone) {
    const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
    throw new ValidationError(field, `must not contain a lone surrogate (U+${code} at index ${lone.index})`, shown(value, lone.index));
  }
  return value;
}

/** Most characters of the offending value an error message repeats. */
const SHOWN_CHARS = 80;

/** The value for the message: whole when short, else the stretch around `at` and the length. */
function shown(value: string, at: number): string {
  if (value.length <= SHOWN_CHARS) return value;
  const from = Math.max(0, Math.min(at - SHOWN_CHARS / 2, value.length - SHOWN_CHARS));
  return `${from > 0 ? '…' : ''}${value.slice(from, from + SHOWN_CHARS)}… (${value.length} characters)`;
}

/**
 * Checks every string of a request, at any depth, with {@link checkText}, except inside
 * {@link PAYLOAD_FIELDS}, and the depth of every payload field with checkPayloadDepth (the rest
 * of the request may nest as deep, no deeper). Every service request goes through here (see
 * `requireRequest`), so a new field is covered without a check of its own. Errors name the path:
 * `commands[2].attributes.taskQueue must not contain NUL (U+0000), got …`.
 * @returns whether a `null` was met outside the payload fields (see {@link withoutNulls}).
 */
export function checkRequestText(request: Record<string, unknown>): boolean {
  return walkRequest(request, true);
}

/**
 * Checks the depth of a request as {@link checkRequestText} does, without its text rules: what the
 * HTTP client runs before it serializes a request.
 * @throws ValidationError naming the field path and the limit.
 */
export function checkRequestDepth(request: unknown): void {
  if (typeof request === 'object' && request !== null) walkRequest(request as Record<string, unknown>, false);
}

/** A value met by {@link walkRequest}: its path is spelled out only for an error. */
interface Step {
  parent: Step | undefined;
  key: string | number;
  value: unknown;
  depth: number;
}

/** `commands[2].attributes.taskQueue`: the path of a step, from the request's top. */
function pathOf(step: Step): string {
  let path = '';
  for (let s: Step | undefined = step; s; s = s.parent) {
    path = typeof s.key === 'number' ? `[${s.key}]${path}` : s.parent ? `.${s.key}${path}` : `${s.key}${path}`;
  }
  return path;
}

function walkRequest(request: Record<string, unknown>, texts: boolean): boolean {
  let sawNull = false;
  // Iterative: a deeply nested body must give a named error, not a stack overflow.
  const stack: Step[] = [];
  const enter = (parent: Step | undefined, key: string, value: unknown, depth: number) => {
    if (PAYLOAD_FIELDS.has(key)) {
      if (typeof value === 'object' && value !== null) checkPayloadDepth(pathOf({ parent, key, value, depth }), value);
    } else {
      stack.push({ parent, key, value, depth });
    }
  };
  const top = Object.keys(request);
  for (let i = top.length - 1; i >= 0; i--) enter(undefined, top[i]!, request[top[i]!], 1);
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value, depth } = step;
    if (typeof value === 'string') {
      // The path is spelled out only for a text that fails.
      if (texts && (value.includes('\u0000') || LONE_SURROGATE.test(value))) checkText(pathOf(step), value);
    } else if (value === null) {
      sawNull = true;
    } else if (typeof value === 'object') {
      if (depth > MAX_PAYLOAD_DEPTH) throw tooDeep(pathOf(step));
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ parent: step, key: i, value: value[i], depth: depth + 1 });
      } else {
        const keys = Object.keys(value);
        for (let i = keys.length - 1; i >= 0; i--) enter(step, keys[i]!, (value as Record<string, unknown>)[keys[i]!], depth + 1);
      }
    }
  }
  return sawNull;
}

/**
 * The request with its `null` fields left out, at the top level and in the objects it holds
 * directly (a schedule's action, policies, state): JSON clients write `null` for "not given".
 * Payload fields keep their nulls. Copies only what it changes.
 */
export function withoutNulls(request: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) {
    if (value === null) continue;
    out[key] = !PAYLOAD_FIELDS.has(key) && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([k, v]) => v !== null || PAYLOAD_FIELDS.has(k)))
      : value;
  }
  return out;
}
