import { brandClass, SteadfastError } from '../errors/index.ts';

/**
 * One encoded value, shaped as Temporal's `Payload`: metadata entries and data, all bytes. A
 * value becomes a payload with `metadata.encoding = "json/plain"` and its JSON as `data`; each
 * codec of the chain then turns payloads into other payloads (compressed, encrypted).
 */
export interface Payload {
  metadata: Record<string, Uint8Array>;
  data: Uint8Array;
}

/**
 * Turns payloads into other payloads and back, outside the workflow sandbox (encryption,
 * compression), as Temporal's `PayloadCodec`. `decode` must pass through, unchanged, a payload
 * its own `encode` did not make (its metadata says so), so codecs can be chained and added.
 */
export interface PayloadCodec {
  /** Encodes payloads about to be sent; `payloads` may be empty. */
  encode(payloads: Payload[]): Promise<Payload[]>;
  /** Decodes payloads received, the inverse of {@link encode}. */
  decode(payloads: Payload[]): Promise<Payload[]>;
}

/**
 * How a client, worker or codec server converts payloads, as Temporal's `DataConverter` option:
 * `payloadCodecs` encode in array order and decode in reverse, so `[compression, encryption]`
 * compresses before it encrypts.
 */
export interface DataConverter {
  /** @default [] (payloads travel and are stored as plain JSON) */
  payloadCodecs?: readonly PayloadCodec[];
}

/** Metadata key of a payload's encoding, as Temporal names it. */
export const ENCODING_KEY = 'encoding';

/** The encoding of a payload holding a JSON value as UTF-8 text. */
export const JSON_ENCODING = 'json/plain';

/** A payload's metadata and data as base64 strings: the JSON form of Temporal's codec server. */
export interface JsonPayload {
  metadata: Record<string, string>;
  data: string;
}

/**
 * The envelope an encoded payload travels and is stored in: a JSON object the server keeps as
 * it came. Values sent without codecs stay plain JSON and are never wrapped.
 */
export interface PayloadEnvelope {
  $payload: JsonPayload;
}

/** A payload's metadata is not what a decoder expects, or a codec's output cannot be read. */
export class PayloadCodecError extends SteadfastError {}
brandClass(PayloadCodecError, 'PayloadCodecError');

/**
 * A payload arrived encoded and nothing here can decode it: no `payloadCodecs` are configured, or
 * none of them made it. The message names the payload's encoding and, for ciphertext, its key id.
 */
export class PayloadNotDecodedError extends PayloadCodecError {
  /** The payload's `encoding` metadata, e.g. `binary/encrypted`. */
  readonly encoding: string;
  constructor(message: string, encoding: string) {
    super(message);
    this.encoding = encoding;
  }
}
brandClass(PayloadNotDecodedError, 'PayloadNotDecodedError');

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 bytes of a metadata string. */
export function metaBytes(text: string): Uint8Array {
  return utf8.encode(text);
}

/** A metadata entry as a string, or undefined when absent. */
export function metaText(payload: Payload, key: string): string | undefined {
  const v = payload.metadata[key];
  return v === undefined ? undefined : fromUtf8.decode(v);
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Temporal's JSON form of a payload: metadata values and data as base64. */
export function toJsonPayload(p: Payload): JsonPayload {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.metadata)) metadata[k] = base64(v);
  return { metadata, data: base64(p.data) };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function bytesOf(field: string, text: unknown): Uint8Array {
  if (typeof text !== 'string' || text.length % 4 !== 0 || !BASE64.test(text)) {
    throw new PayloadCodecError(`${field} must be a base64 string, got ${typeof text === 'string' ? JSON.stringify(text.slice(0, 40)) : typeof text}`);
  }
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/**
 * A payload from Temporal's JSON form.
 * @throws PayloadCodecError naming the field that is not base64.
 */
export function fromJsonPayload(json: unknown, field = 'payload'): Payload {
  if (typeof json !== 'object' || json === null) throw new PayloadCodecError(`${field} must be { metadata, data }, got ${json === null ? 'null' : typeof json}`);
  const j = json as { metadata?: unknown; data?: unknown };
  const metadata: Record<string, Uint8Array> = {};
  if (j.metadata !== undefined) {
    if (typeof j.metadata !== 'object' || j.metadata === null) throw new PayloadCodecError(`${field}.metadata must be an object of base64 strings`);
    for (const [k, v] of Object.entries(j.metadata)) metadata[k] = bytesOf(`${field}.metadata.${k}`, v);
  }
  return { metadata, data: bytesOf(`${field}.data`, j.data ?? '') };
}

/** True when a stored value is a {@link PayloadEnvelope}. */
export function isEnvelope(value: unknown): value is PayloadEnvelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const inner = (value as { $payload?: unknown }).$payload;
  return typeof inner === 'object' && inner !== null && typeof (inner as { data?: unknown }).data === 'string';
}

/** A value as a `json/plain` payload. `undefined` is carried as `null`, as JSON does. */
export function valueToPayload(value: unknown): Payload {
  return { metadata: { [ENCODING_KEY]: metaBytes(JSON_ENCODING) }, data: utf8.encode(JSON.stringify(value ?? null)) };
}

/**
 * The value a fully decoded payload holds.
 * @throws PayloadNotDecodedError when the payload is still encoded (no codec made it plain).
 */
export function payloadToValue(p: Payload): unknown {
  const encoding = metaText(p, ENCODING_KEY) ?? '(none)';
  if (encoding !== JSON_ENCODING) throw notDecoded(p, encoding, 'none of the configured payloadCodecs decodes it');
  return JSON.parse(fromUtf8.decode(p.data));
}

/** The error for a payload left encoded, naming its encoding and its key id when it has one. */
export function notDecoded(p: Payload, encoding: string, why: string): PayloadNotDecodedError {
  const keyId = metaText(p, 'encryption-key-id');
  return new PayloadNotDecodedError(
    `a payload is encoded (encoding ${encoding}${keyId !== undefined ? `, key id ${JSON.stringify(keyId)}` : ''}) and ${why}`, encoding);
}

/** A whole payload (metadata and data) as bytes, for a codec that wraps it: its JSON form as UTF-8. */
export function serializePayload(p: Payload): Uint8Array {
  return utf8.encode(JSON.stringify(toJsonPayload(p)));
}

/**
 * The payload {@link serializePayload} made.
 * @throws PayloadCodecError when the bytes are not a serialized payload.
 */
export function deserializePayload(bytes: Uint8Array, what: string): Payload {
  let json: unknown;
  try {
    json = JSON.parse(fromUtf8.decode(bytes));
  } catch (err) {
    throw new PayloadCodecError(`${what} does not hold a serialized payload: ${(err as Error).message}`);
  }
  return fromJsonPayload(json, what);
}

/**
 * Refuses values that hold an envelope at the top level, for a client or worker without codecs:
 * a check of each value's shape, no walk and no copy, so the path without codecs stays as cheap.
 * @throws PayloadNotDecodedError naming the payload's encoding and key id.
 */
export function refuseEnvelopes(values: readonly unknown[] | undefined, where: string): void {
  if (values === undefined) return;
  for (const v of values) {
    if (!isEnvelope(v)) continue;
    let p: Payload;
    try {
      p = fromJsonPayload(v.$payload);
    } catch {
      continue;
    }
    throw notDecoded(p, metaText(p, ENCODING_KEY) ?? '(none)', `${where} has no dataConverter.payloadCodecs to decode it`);
  }
}
