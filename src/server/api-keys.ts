import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ValidationError } from '../errors/index.ts';
import { parsePermissions, type Permission } from './method-roles.ts';

/** Who a credential says the caller is, and what it may do. */
export interface Principal {
  /** Recorded in the history events of audited calls. */
  identity: string;
  permissions: Permission[];
}

/** One entry of an API key file: the key's SHA-256 (hex), never the key itself. */
export interface ApiKeyEntry {
  sha256: string;
  identity: string;
  /** `"<namespace>:<role>"` strings, as the JWT `permissions` claim. */
  permissions: string[];
}

interface StoredKey {
  hash: Buffer;
  principal: Principal;
}

/** The SHA-256 of an API key, hex: what a key file stores. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new random API key (`sfk_` and 43 base64url characters: 256 bits). */
export function newApiKey(): string {
  return `sfk_${randomBytes(32).toString('base64url')}`;
}

/**
 * The API keys a server accepts, from a key file: `{ "keys": [{ "sha256", "identity",
 * "permissions" }] }`. Only hashes are kept; a presented key is hashed and compared with every
 * entry in constant time.
 */
export class ApiKeys {
  readonly #keys: StoredKey[];

  private constructor(keys: StoredKey[]) {
    this.#keys = keys;
  }

  /**
   * Checks a parsed key file.
   * @throws ValidationError naming the entry and field that break a rule.
   */
  static parse(json: unknown, source: string): ApiKeys {
    const list = (json as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(list)) throw new ValidationError(`${source}.keys`, 'must be a list of { sha256, identity, permissions }', list);
    const seen = new Set<string>();
    return new ApiKeys(list.map((raw: unknown, i) => {
      const e = (raw ?? {}) as Partial<Record<keyof ApiKeyEntry, unknown>>;
      const at = `${source}.keys[${i}]`;
      if (typeof e.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(e.sha256)) {
        throw new ValidationError(`${at}.sha256`, 'must be the 64 hex digits of the key\'s SHA-256 (`steadfast api-key create` prints it)', e.sha256);
      }
      if (seen.has(e.sha256)) throw new ValidationError(`${at}.sha256`, 'must not repeat an earlier entry', e.sha256);
      seen.add(e.sha256);
      if (typeof e.identity !== 'string' || e.identity.length === 0 || e.identity.length > 200) {
        throw new ValidationError(`${at}.identity`, 'must be a string of 1 to 200 characters', e.identity);
      }
      return {
        hash: Buffer.from(e.sha256, 'hex'),
        principal: { identity: e.identity, permissions: parsePermissions(e.permissions, `${at}.permissions`) },
      };
    }));
  }

  /** Reads and checks a key file. */
  static load(path: string): ApiKeys {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ValidationError('apiKeys', `must be a readable JSON key file (${(err as Error).message})`, path);
    }
    return ApiKeys.parse(json, path);
  }

  /** The principal of a presented key, or undefined when no entry matches. */
  verify(key: string): Principal | undefined {
    const hash = createHash('sha256').update(key, 'utf8').digest();
    let found: Principal | undefined;
    // Every entry is compared, so the time taken does not tell which entry (if any) matched.
    for (const k of this.#keys) if (timingSafeEqual(k.hash, hash)) found = k.principal;
    return found;
  }
}
