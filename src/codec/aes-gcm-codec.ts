import { readFileSync } from 'node:fs';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { brandClass } from '../errors/index.ts';
import { ValidationError } from '../errors/index.ts';
import {
  deserializePayload, ENCODING_KEY, metaBytes, metaText, PayloadCodecError, serializePayload, type Payload, type PayloadCodec,
} from './payload-codec.ts';

/** The encoding of a payload {@link AesGcmCodec} encrypted. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** Metadata key naming the key a payload was encrypted with. */
export const KEY_ID_KEY = 'encryption-key-id';
/** Metadata key naming the cipher. */
export const CIPHER_KEY = 'encryption-cipher';
const CIPHER = 'AES256-GCM';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/**
 * A payload was encrypted with a key id this codec does not hold (a worker or codec server
 * missing a key, or a key removed too early during rotation).
 */
export class UnknownEncryptionKeyError extends PayloadCodecError {
  /** The key id the payload names. */
  readonly keyId: string;
  /** The key ids this codec holds. */
  readonly knownKeyIds: readonly string[];
  constructor(keyId: string, knownKeyIds: readonly string[]) {
    super(`a payload is encrypted with key id ${JSON.stringify(keyId)}, which this AesGcmCodec does not hold (known key ids: ${knownKeyIds.join(', ')})`);
    this.keyId = keyId;
    this.knownKeyIds = knownKeyIds;
  }
}
brandClass(UnknownEncryptionKeyError, 'UnknownEncryptionKeyError');

/** A payload's ciphertext does not authenticate under its key: altered, or a different key under the same id. */
export class PayloadDecryptionError extends PayloadCodecError {
  readonly keyId: string;
  constructor(keyId: string, why: string) {
    super(`a payload encrypted with key id ${JSON.stringify(keyId)} cannot be decrypted: ${why}`);
    this.keyId = keyId;
  }
}
brandClass(PayloadDecryptionError, 'PayloadDecryptionError');

/** Options of {@link AesGcmCodec}. */
export interface AesGcmCodecOptions {
  /** Keys by id, each 32 bytes (AES-256). Keep old keys here while payloads encrypted with them may still be read. */
  keys: Record<string, Uint8Array>;
  /** The id of the key new payloads are encrypted with; one of `keys`. */
  currentKeyId: string;
}

/**
 * Encrypts each payload with AES-256-GCM (node:crypto): a random 12-byte IV per payload, the key
 * id in the metadata (and authenticated with the ciphertext), so that keys can rotate: new
 * payloads use `currentKeyId`, and any key still in `keys` decrypts what it encrypted.
 * Payloads it did not encrypt pass through `decode` unchanged.
 * @example new AesGcmCodec({ keys: { k2: newKey, k1: oldKey }, currentKeyId: 'k2' })
 */
export class AesGcmCodec implements PayloadCodec {
  readonly currentKeyId: string;
  readonly #keys: Map<string, Buffer>;

  constructor(options: AesGcmCodecOptions) {
    if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be { keys, currentKeyId }', options);
    const { keys, currentKeyId } = options;
    if (typeof keys !== 'object' || keys === null || Object.keys(keys).length === 0) {
      throw new ValidationError('keys', 'must be an object of at least one key id to a 32-byte key', keys);
    }
    this.#keys = new Map();
    for (const [id, key] of Object.entries(keys)) {
      if (id.length === 0 || id.length > 200) throw new ValidationError('keys', 'must have key ids of 1 to 200 characters', id);
      if (!(key instanceof Uint8Array)) throw new ValidationError(`keys.${id}`, 'must be a Uint8Array (or Buffer) of 32 bytes', key);
      if (key.byteLength !== KEY_BYTES) {
        throw new ValidationError(`keys.${id}`, `must be ${KEY_BYTES} bytes (AES-256)`, `${key.byteLength} bytes`,
          `keys.${id} must be ${KEY_BYTES} bytes (AES-256), got ${key.byteLength} bytes`);
      }
      this.#keys.set(id, Buffer.from(key));
    }
    if (typeof currentKeyId !== 'string' || !this.#keys.has(currentKeyId)) {
      throw new ValidationError('currentKeyId', `must be one of the key ids of keys (${[...this.#keys.keys()].join(', ')})`, currentKeyId);
    }
    this.currentKeyId = currentKeyId;
  }

  /**
   * A codec from a key file: `{ "currentKeyId": "k2", "keys": { "k1": "<base64>", "k2": "<base64>" } }`,
   * each key 32 bytes in base64 (`openssl rand -base64 32`).
   * @throws ValidationError naming the file and the field that breaks a rule.
   */
  static fromKeyFile(path: string): AesGcmCodec {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ValidationError('keyFile', 'must be a readable JSON file { currentKeyId, keys: { id: base64 } }', path,
        `key file ${path} must be readable JSON { currentKeyId, keys: { id: base64 } }: ${(err as Error).message}`);
    }
    const { keys, currentKeyId } = (json ?? {}) as { keys?: unknown; currentKeyId?: unknown };
    if (typeof keys !== 'object' || keys === null) throw new ValidationError('keys', `must be an object of key id to base64 key (in ${path})`, keys);
    const bytes: Record<string, Uint8Array> = {};
    for (const [id, text] of Object.entries(keys)) {
      if (typeof text !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw new ValidationError(`keys.${id}`, `must be a base64 string (in ${path})`, text);
      bytes[id] = Buffer.from(text, 'base64');
    }
    return new AesGcmCodec({ keys: bytes, currentKeyId: currentKeyId as string });
  }

  /** Ids of the keys this codec decrypts with. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const key = this.#keys.get(this.currentKeyId)!;
    const aad = Buffer.from(this.currentKeyId, 'utf8');
    return payloads.map((p) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad);
      const body = Buffer.concat([cipher.update(serializePayload(p)), cipher.final()]);
      return {
        metadata: { [ENCODING_KEY]: metaBytes(ENCRYPTED_ENCODING), [KEY_ID_KEY]: metaBytes(this.currentKeyId), [CIPHER_KEY]: metaBytes(CIPHER) },
        data: new Uint8Array(Buffer.concat([iv, body, cipher.getAuthTag()])),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => {
      if (metaText(p, ENCODING_KEY) !== ENCRYPTED_ENCODING) return p;
      const keyId = metaText(p, KEY_ID_KEY);
      if (keyId === undefined) throw new PayloadDecryptionError('(none)', `its metadata lacks ${KEY_ID_KEY}`);
      const key = this.#keys.get(keyId);
      if (!key) throw new UnknownEncryptionKeyError(keyId, this.keyIds);
      const cipherName = metaText(p, CIPHER_KEY);
      if (cipherName !== undefined && cipherName !== CIPHER) throw new PayloadDecryptionError(keyId, `its cipher is ${cipherName}, not ${CIPHER}`);
      if (p.data.byteLength < IV_BYTES + TAG_BYTES) throw new PayloadDecryptionError(keyId, `it is ${p.data.byteLength} bytes, shorter than an IV and a tag`);
      const data = Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength);
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(keyId, 'utf8'));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      } catch {
        throw new PayloadDecryptionError(keyId, 'its authentication tag does not match (altered data, or another key under this id)');
      }
      return deserializePayload(plain, `the payload decrypted with key id ${JSON.stringify(keyId)}`);
    });
  }
}
