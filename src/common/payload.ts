import { ValidationError } from '../errors/index.ts';

/** Largest encoded payload (arguments, results, details) accepted. @default 2 MiB */
export const DEFAULT_MAX_PAYLOAD_BYTES = 2 * 1024 * 1024;

/** Objects JSON would silently turn into `{}` or lose, by their `Object.prototype.toString` tag. */
const LOSSY_TAGS: Record<string, string> = {
  Map: 'a Map', Set: 'a Set', WeakMap: 'a WeakMap', WeakSet: 'a WeakSet', RegExp: 'a RegExp', Error: 'an Error',
  Promise: 'a Promise', ArrayBuffer: 'an ArrayBuffer', SharedArrayBuffer: 'a SharedArrayBuffer', DataView: 'a DataView',
};
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function refuse(path: string, what: string, value: unknown, hint = ''): never {
  throw new ValidationError(path, 'must be a JSON value', value, `${path} is ${what}, which JSON cannot carry${hint}`);
}

/** `typeof` tags JSON cannot carry anywhere, with how to name them. */
function describeUncarried(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint': return 'a BigInt';
    case 'symbol': return 'a Symbol';
    case 'function': return `a function (${(value as { name?: string }).name || 'anonymous'})`;
    case 'number': return Number.isFinite(value) ? undefined : String(value);
    default: return undefined;
  }
}

/** What a walk learnt besides errors: whether JSON would change the value (toJSON, left-out keys). */
interface WalkState {
  ancestors: Map<object, string>;
  reshaped: boolean;
}

function walk(path: string, value: unknown, key: string, state: WalkState): void {
  let v = value;
  const jsonable = (typeof v === 'object' && v !== null) || typeof v === 'bigint';
  if (jsonable && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    const tag = Object.prototype.toString.call(v);
    v = (v as { toJSON(key: string): unknown }).toJSON(key);
    state.reshaped = true;
    if (tag === '[object Date]' && v === null) refuse(path, 'an invalid Date', value);
  }
  const uncarried = describeUncarried(v);
  if (uncarried) refuse(path, uncarried, v, typeof v === 'bigint' ? '; convert it to a string or a number' : '');
  if (typeof v !== 'object' || v === null) return;
  const { ancestors } = state;
  const seen = ancestors.get(v);
  if (seen !== undefined) refuse(path, `a circular reference to ${seen}`, '[circular]');
  const tag = Object.prototype.toString.call(v).slice(8, -1);
  if (LOSSY_TAGS[tag]) refuse(path, LOSSY_TAGS[tag], v);
  if (ArrayBuffer.isView(v)) refuse(path, `a ${tag}`, v, '; convert it to an array or a base64 string');
  ancestors.set(v, path);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (item === undefined) refuse(childPath(path, i), 'undefined', item, '; use null');
      walk(childPath(path, i), item, String(i), state);
    }
  } else {
    for (const k of Object.keys(v)) {
      const item = (v as Record<string, unknown>)[k];
      // An undefined property is left out, as JSON does: `{ a: undefined }` arrives as `{}`.
      if (item === undefined) state.reshaped = true;
      else walk(childPath(path, k), item, k, state);
    }
  }
  ancestors.delete(v);
}

/**
 * Checks that a value crosses the wire unchanged as JSON, the payload format of steadfast.
 * Refused, with the path of the offending part (`args[0].customer.id is a BigInt, which JSON
 * cannot carry`): BigInt, Symbol, functions, NaN and ±Infinity, circular references, Map, Set,
 * RegExp, Error, typed arrays and other objects JSON would turn into `{}`, an invalid Date, and
 * `undefined` as an array element (JSON would make it `null`). Allowed, by JSON's rules: an
 * object property whose value is `undefined` is left out, and an object with a `toJSON()` method
 * is sent as what that returns, so a `Date` arrives as its ISO string
 * (`"2024-05-01T12:00:00.000Z"`), as Temporal's default payload converter does.
 * A top-level `undefined` (a workflow or activity that returns nothing) is sent as `null`.
 * @throws ValidationError naming the path.
 */
export function checkPayload(field: string, value: unknown): void {
  toPayload(field, value);
}

/**
 * Checks a value with {@link checkPayload} and returns it as the receiver will see it: the value
 * itself, or, when JSON reshapes it (a `Date`, a `toJSON()` method, an `undefined` property), its
 * JSON round trip, so that an in-process connection delivers what HTTP would.
 * @throws ValidationError naming the path.
 */
export function toPayload<T>(field: string, value: T): T {
  if (value === undefined) return value;
  const state: WalkState = { ancestors: new Map(), reshaped: false };
  walk(field, value, '', state);
  return state.reshaped ? JSON.parse(JSON.stringify(value)) as T : value;
}

/**
 * Encodes a value as JSON for storage, checking with {@link checkPayload} that it survives the
 * round trip and that it fits the size limit. `undefined` is stored as `null`.
 * @throws ValidationError naming the field when the value cannot be encoded or is too large.
 */
export function encodePayload(field: string, value: unknown, maxBytes = DEFAULT_MAX_PAYLOAD_BYTES): string {
  checkPayload(field, value);
  let text: string | undefined;
  try {
    text = JSON.stringify(value === undefined ? null : value);
  } catch (err) {
    throw new ValidationError(field, 'must be JSON-serializable', value, `${field} must be JSON-serializable: ${(err as Error).message}`);
  }
  if (text === undefined) throw new ValidationError(field, 'must be JSON-serializable', value);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw new ValidationError(field, `must be at most ${maxBytes} bytes`, value,
      `${field} is ${bytes} bytes, over the payload limit of ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(0)} MiB)`);
  }
  return text;
}

/** Decodes a stored payload. */
export function decodePayload(text: string | null | undefined): unknown {
  return text === null || text === undefined ? undefined : JSON.parse(text);
}
