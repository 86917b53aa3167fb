/*
 * Payloads a client or worker encoded (docs/security.md) reach the UI as envelopes
 * `{ $payload: { metadata, data } }`. With a codec endpoint set (a `steadfast codec-server`), the
 * UI sends them there to decode, with the user's credential and the namespace in `X-Namespace`;
 * without one, or when it refuses, each shows as a marked `<encoded …>` text.
 */
import { getCredential } from './credential.ts';

const KEY = 'steadfast.codecEndpoint';

interface Storage { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void }
const { localStorage } = globalThis as unknown as { localStorage: Storage };

/** The codec endpoint set in this browser, if any. */
export function getCodecEndpoint(): string | undefined {
  return localStorage.getItem(KEY) || undefined;
}

/** Sets (or, with an empty value, forgets) the codec endpoint. */
export function setCodecEndpoint(value: string | undefined): void {
  if (value) localStorage.setItem(KEY, value.replace(/\/+$/, ''));
  else localStorage.removeItem(KEY);
}

interface JsonPayload { metadata?: Record<string, string>; data: string }
type Envelope = { $payload: JsonPayload };

function isEnvelope(v: unknown): v is Envelope {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const p = (v as { $payload?: unknown }).$payload;
  return typeof p === 'object' && p !== null && typeof (p as { data?: unknown }).data === 'string';
}

function text(base64: string | undefined): string | undefined {
  if (base64 === undefined) return undefined;
  const bin = atob(base64);
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/** `<encoded binary/encrypted key k1>`, with why it was not decoded when there is a reason. */
function encodedMark(p: JsonPayload, why?: string): string {
  const keyId = text(p.metadata?.['encryption-key-id']);
  return `<encoded ${text(p.metadata?.encoding) ?? '?'}${keyId ? ` key ${keyId}` : ''}${why ? `: ${why}` : ''}>`;
}

function collect(v: unknown, out: Envelope[]): void {
  if (isEnvelope(v)) out.push(v);
  else if (Array.isArray(v)) for (const x of v) collect(x, out);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) collect(x, out);
}

function replace(v: unknown, shown: Map<Envelope, unknown>): unknown {
  if (isEnvelope(v)) return shown.get(v);
  if (Array.isArray(v)) return v.map((x) => replace(x, shown));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x, shown)]));
  return v;
}

async function decodeAt(endpoint: string, namespace: string, payloads: JsonPayload[]): Promise<JsonPayload[]> {
  const credential = getCredential();
  const res = await fetch(`${endpoint}/codec/decode`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-namespace': namespace, ...(credential ? { authorization: `Bearer ${credential}` } : {}) },
    body: JSON.stringify({ payloads }),
  });
  const body = await res.json().catch(() => undefined) as { payloads?: JsonPayload[]; error?: { message?: string } } | undefined;
  if (!res.ok || !body?.payloads) throw new Error(`codec endpoint answered ${res.status}${body?.error?.message ? `: ${body.error.message}` : ''}`);
  return body.payloads;
}

/** `value` with every envelope in it decoded through the codec endpoint, or marked as encoded. */
export async function showPayloads<T>(value: T, namespace: string): Promise<T> {
  const found: Envelope[] = [];
  collect(value, found);
  if (found.length === 0) return value;
  const shown = new Map<Envelope, unknown>();
  const endpoint = getCodecEndpoint();
  if (!endpoint) {
    for (const e of found) shown.set(e, encodedMark(e.$payload));
    return replace(value, shown) as T;
  }
  try {
    const decoded = await decodeAt(endpoint, namespace, found.map((e) => e.$payload));
    found.forEach((e, i) => {
      const p = decoded[i]!;
      shown.set(e, text(p.metadata?.encoding) === 'json/plain' ? JSON.parse(text(p.data)!) : encodedMark(p, 'not decoded by the codec endpoint'));
    });
  } catch (err) {
    for (const e of found) shown.set(e, encodedMark(e.$payload, (err as Error).message));
  }
  return replace(value, shown) as T;
}
