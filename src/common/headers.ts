import { ValidationError } from '../errors/index.ts';

/*
 * Headers: named payloads that travel beside a call's arguments (a start, a signal, a query, an
 * update, an activity, a child), as Temporal's `Headers`. Interceptors write them on one side and
 * read them on the other; the engine stores them in the call's event and never reads them. This
 * module runs inside the workflow sandbox too, so it uses no Node API (no Buffer, no TextEncoder).
 */

/** One encoded value, in the shape of Temporal's `Payload`: metadata entries and data, all bytes. */
export interface Payload {
  metadata: Record<string, Uint8Array>;
  data: Uint8Array;
}

/** Headers of a call, by name, as Temporal's `Headers`. */
export type Headers = Record<string, Payload>;

/** A payload as it travels and is stored: metadata values and data as base64 (Temporal's JSON form). */
export interface WirePayload {
  metadata: Record<string, string>;
  data: string;
}

/** {@link Headers} as they travel and are stored in events. */
export type WireHeaders = Record<string, WirePayload>;

/** Most headers one call may carry. */
export const MAX_HEADER_ENTRIES = 32;

/** Metadata key of a payload's encoding. */
const ENCODING = 'encoding';
const JSON_PLAIN = 'json/plain';

/* UTF-8 and base64 by hand: the sandbox has neither TextEncoder nor Buffer. */

function utf8Encode(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
}

function utf8Decode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    let c = n === 1 ? (b < 0x80 ? b : 0xfffd) : b & (0xff >> (n + 1));
    for (let k = 1; k < n; k++) c = (c << 6) | ((bytes[i + k] ?? 0) & 63);
    out += String.fromCodePoint(c > 0x10ffff ? 0xfffd : c);
    i += n;
  }
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!
      + (i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63]! : '=') + (i + 2 < bytes.length ? ALPHABET[n & 63]! : '=');
  }
  return out;
}

function fromBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const ch = text[i + k]!;
      n = (n << 6) | (ch === '=' ? 0 : ALPHABET.indexOf(ch));
    }
    for (const shift of [16, 8, 0]) if (o < out.length) out[o++] = (n >> shift) & 0xff;
  }
  return out;
}

/**
 * Converts values to payloads and back as JSON (`json/plain`), as Temporal's
 * `defaultPayloadConverter` does for header values.
 */
export const defaultPayloadConverter = Object.freeze({
  /** The value as a `json/plain` payload; `undefined` is carried as `null`. */
  toPayload(value: unknown): Payload {
    return { metadata: { [ENCODING]: utf8Encode(JSON_PLAIN) }, data: utf8Encode(JSON.stringify(value ?? null)) };
  },
  /**
   * The value a `json/plain` payload holds.
   * @throws ValidationError for a payload of another encoding.
   */
  fromPayload<T = unknown>(payload: Payload): T {
    const enc = payload?.metadata?.[ENCODING];
    const encoding = enc instanceof Uint8Array || ArrayBuffer.isView(enc) ? utf8Decode(enc as Uint8Array) : undefined;
    if (encoding !== JSON_PLAIN) throw new ValidationError('payload.metadata.encoding', `must be "${JSON_PLAIN}"`, encoding);
    return JSON.parse(utf8Decode(payload.data)) as T;
  },
});

function isBytes(v: unknown): v is Uint8Array {
  return ArrayBuffer.isView(v) && (v as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT === 1;
}

/**
 * Headers in their wire form, or undefined when there are none.
 * @throws ValidationError naming `${field}.<name>` when an entry is not a Payload.
 */
export function headersToWire(headers: Headers | undefined, field = 'headers'): WireHeaders | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof headers !== 'object' || Array.isArray(headers)) throw new ValidationError(field, 'must be an object of Payloads', headers);
  const names = Object.keys(headers);
  if (names.length === 0) return undefined;
  if (names.length > MAX_HEADER_ENTRIES) throw new ValidationError(field, `must have at most ${MAX_HEADER_ENTRIES} entries`, names.length);
  const out: WireHeaders = {};
  for (const name of names) {
    const p = headers[name] as Partial<Payload> | undefined;
    if (typeof p !== 'object' || p === null || !isBytes(p.data) || typeof p.metadata !== 'object' || p.metadata === null) {
      throw new ValidationError(`${field}.${name}`, 'must be a Payload ({ metadata: Record<string, Uint8Array>, data: Uint8Array })', p,
        `${field}.${name} must be a Payload ({ metadata, data } of Uint8Array); make one with defaultPayloadConverter.toPayload(value)`);
    }
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(p.metadata)) {
      if (!isBytes(v)) throw new ValidationError(`${field}.${name}.metadata.${k}`, 'must be a Uint8Array', v);
      metadata[k] = toBase64(v);
    }
    out[name] = { metadata, data: toBase64(p.data) };
  }
  return out;
}

/**
 * Headers from their wire form. Entries that are not a wire payload (the plain trace strings of
 * histories written before headers carried payloads) are left out.
 */
export function headersFromWire(wire: unknown): Headers {
  const out: Headers = {};
  if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) return out;
  for (const [name, v] of Object.entries(wire as Record<string, unknown>)) {
    if (typeof v !== 'object' || v === null) continue;
    const { metadata, data } = v as { metadata?: unknown; data?: unknown };
    const bytes = typeof data === 'string' ? fromBase64(data) : undefined;
    if (!bytes) continue;
    const meta: Record<string, Uint8Array> = {};
    let ok = true;
    if (typeof metadata === 'object' && metadata !== null) {
      for (const [k, m] of Object.entries(metadata)) {
        const b = typeof m === 'string' ? fromBase64(m) : undefined;
        if (!b) ok = false;
        else meta[k] = b;
      }
    }
    if (ok) out[name] = { metadata: meta, data: bytes };
  }
  return out;
}
