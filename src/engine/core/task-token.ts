import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { ValidationError } from '../../errors/index.ts';

/**
 * What a task token names: a run, and within it a workflow task (by sequence number) or an
 * activity (by scheduled event id), with the attempt it was handed out for, so a response
 * from an earlier attempt is recognized and rejected. A workflow task's token also names the
 * start it was handed out by (`startId`, the start's request id): a task handed to a poll while
 * the transition that started it commits (eager-dispatch.ts) is refused when that commit
 * failed, even if a retry starts the same task and attempt again. Tokens without it (signed
 * before it existed) are checked by task and attempt alone.
 */
export type TaskTokenData =
  | { kind: 'workflow'; namespace: string; runId: string; seq: number; attempt: number; startId?: string | undefined }
  | { kind: 'activity'; namespace: string; runId: string; scheduledEventId: number; attempt: number };

/** One HMAC-SHA256 key that signs or verifies task tokens. */
export interface TaskTokenKey {
  /** Names the key inside each token, so a verifier picks the right one; 1-64 of `[A-Za-z0-9_-]`. */
  id: string;
  /** At least 32 bytes. */
  secret: Buffer;
}

/** The store's name of the signing key generated when none is configured (see {@link Store.sharedSecret}). */
export const STORED_TOKEN_KEY_NAME = 'task-token-key';
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MIN_SECRET_BYTES = 32;
const MAX_TOKEN_CHARS = 2000;
/** How many of the tokens signed last {@link TaskTokens.verify} knows without their MAC. */
const RECENTLY_SIGNED = 4096;

/** A fresh random key, as stored in the database: `id:base64url(secret)`. */
export function newStoredTokenKey(): string {
  return `db-${randomBytes(6).toString('hex')}:${randomBytes(32).toString('base64url')}`;
}

/** Reads a key written by {@link newStoredTokenKey}. */
export function parseStoredTokenKey(text: string): TaskTokenKey {
  const at = text.indexOf(':');
  return checkKey({ id: text.slice(0, at), secret: Buffer.from(text.slice(at + 1), 'base64url') }, 'stored task-token key');
}

/**
 * Parses a token key file: `{ "keys": [{ "id": "k2", "secret": "<base64>" }, …] }`, newest
 * first. The newest signs; every listed key verifies, so a key is rotated without downtime by
 * adding the new one first on every server, then dropping the old one after the longest task
 * timeout has passed.
 */
export function parseTaskTokenKeys(json: unknown, source: string): TaskTokenKey[] {
  const keys = (json as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new ValidationError(`${source}.keys`, 'must be a non-empty list of { id, secret }', keys);
  }
  return keys.map((k: unknown, i) => {
    const { id, secret } = (k ?? {}) as { id?: unknown; secret?: unknown };
    if (typeof secret !== 'string') throw new ValidationError(`${source}.keys[${i}].secret`, 'must be a base64 string', secret);
    return checkKey({ id: id as string, secret: Buffer.from(secret, 'base64') }, `${source}.keys[${i}]`);
  });
}

function checkKey(k: TaskTokenKey, field: string): TaskTokenKey {
  if (typeof k.id !== 'string' || !KEY_ID.test(k.id)) throw new ValidationError(`${field}.id`, 'must be 1-64 of A-Z a-z 0-9 _ -', k.id);
  if (k.secret.length < MIN_SECRET_BYTES) {
    throw new ValidationError(`${field}.secret`, `must hold at least ${MIN_SECRET_BYTES} bytes`, `${k.secret.length} bytes`);
  }
  return k;
}

function mac(secret: KeyObject, signed: string): Buffer {
  return createHmac('sha256', secret).update(signed).digest();
}

/** Splits a token into its parts without verifying it: `keyId.payload.mac`. */
function split(token: unknown): [string, string, string] | undefined {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_CHARS) return undefined;
  const parts = token.split('.');
  return parts.length === 3 ? (parts as [string, string, string]) : undefined;
}

function readBody(payload: string): unknown {
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The namespace a task token (of a workflow, activity or query task) claims, read without
 * verifying it: the HTTP server authorizes a task call against it, and the engine then refuses
 * the call unless the signature holds.
 */
export function taskTokenNamespace(token: unknown): string | undefined {
  const parts = split(token);
  const body = parts && readBody(parts[1]);
  return Array.isArray(body) && typeof body[1] === 'string' ? body[1] : undefined;
}

/**
 * Signs and verifies task tokens with HMAC-SHA256 (`keyId.base64url(JSON).base64url(mac)`), so
 * that a token names exactly the namespace, run, task and attempt it was handed out for: a
 * token built from what describe shows, or one whose fields were rewritten, is refused.
 */
export class TaskTokens {
  readonly #signingId: string;
  /** Secrets as key objects: an HMAC keyed by one is about a fifth cheaper than by a Buffer. */
  readonly #signingKey: KeyObject;
  readonly #byId: Map<string, KeyObject>;
  /**
   * The bodies of the tokens signed last, by token: a token equal to one of them is authentic
   * without computing its MAC again (the MAC of a verification was about 2 % of an embedded
   * engine's main thread under load, where every task's token comes back within milliseconds).
   * Oldest first; a token that fell out is verified by its MAC as any other.
   */
  readonly #signed = new Map<string, readonly unknown[]>();

  /** @param keys newest first: the first signs, all verify. */
  constructor(keys: readonly TaskTokenKey[]) {
    if (keys.length === 0) throw new ValidationError('taskTokenKeys', 'must hold at least one key', keys);
    const signing = checkKey(keys[0]!, 'taskTokenKeys[0]');
    this.#byId = new Map(keys.map((k, i) => [checkKey(k, `taskTokenKeys[${i}]`).id, createSecretKey(k.secret)]));
    this.#signingId = signing.id;
    this.#signingKey = createSecretKey(signing.secret);
  }

  /** Signs a token body (a JSON array whose second item is the namespace). */
  sign(body: readonly unknown[]): string {
    const signed = `${this.#signingId}.${Buffer.from(JSON.stringify(body), 'utf8').toString('base64url')}`;
    const token = `${signed}.${mac(this.#signingKey, signed).toString('base64url')}`;
    if (this.#signed.size >= RECENTLY_SIGNED) this.#signed.delete(this.#signed.keys().next().value!);
    this.#signed.set(token, body);
    return token;
  }

  /** The body of a token this service signed with a listed key, or undefined for any other string. */
  verify(token: unknown): unknown[] | undefined {
    const known = typeof token === 'string' ? this.#signed.get(token) : undefined;
    if (known) return [...known];
    const parts = split(token);
    const secret = parts && this.#byId.get(parts[0]);
    if (!parts || !secret) return undefined;
    const given = Buffer.from(parts[2], 'base64url');
    const want = mac(secret, `${parts[0]}.${parts[1]}`);
    if (given.length !== want.length || !timingSafeEqual(given, want)) return undefined;
    const body = readBody(parts[1]);
    return Array.isArray(body) ? body : undefined;
  }

  /** Encodes and signs a task token (opaque to workers). */
  encode(t: TaskTokenData): string {
    if (t.kind === 'activity') return this.sign(['a', t.namespace, t.runId, t.scheduledEventId, t.attempt]);
    return this.sign(t.startId === undefined ? ['w', t.namespace, t.runId, t.seq, t.attempt] : ['w', t.namespace, t.runId, t.seq, t.attempt, t.startId]);
  }

  /**
   * Verifies and decodes a task token.
   * @throws ValidationError naming `taskToken` when this service did not sign it (forged,
   *   altered, or signed by a key no longer listed) or it names the other kind of task.
   */
  decode(token: unknown, expected: 'workflow' | 'activity'): TaskTokenData {
    const refuse = () => new ValidationError('taskToken', 'must be a task token this service signed', token);
    const body = this.verify(token);
    if (!body || (body.length !== 5 && !(body.length === 6 && body[0] === 'w' && typeof body[5] === 'string'))
      || typeof body[1] !== 'string' || typeof body[2] !== 'string' || !Number.isInteger(body[3]) || !Number.isInteger(body[4])) {
      throw refuse();
    }
    const [k, namespace, runId, n, attempt, startId] = body as [string, string, string, number, number, string | undefined];
    if (k === 'w' && expected === 'workflow') return { kind: 'workflow', namespace, runId, seq: n, attempt, ...(startId === undefined ? {} : { startId }) };
    if (k === 'a' && expected === 'activity') return { kind: 'activity', namespace, runId, scheduledEventId: n, attempt };
    throw new ValidationError('taskToken', `must be a token of ${expected === 'workflow' ? 'a workflow' : 'an activity'} task`, token);
  }
}
