import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { ValidationError } from '../errors/index.ts';
import type { Principal } from './api-keys.ts';
import { parsePermissions } from './method-roles.ts';

/** How JWTs are verified. Exactly one of `publicKeyFile` and `jwksFile`. */
export interface JwtOptions {
  /** A PEM public key (RSA, EC or Ed25519) that signs the tokens. */
  publicKeyFile?: string;
  /** A JSON Web Key Set file; a token's `kid` picks its key. */
  jwksFile?: string;
  /** When set, tokens must carry this `iss`. */
  issuer?: string;
  /** When set, tokens must carry this `aud`. */
  audience?: string;
}

/** Signature algorithms accepted: asymmetric only, so the server holds no key that can mint tokens. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Tolerated clock difference between the token's issuer and this server, seconds. */
const CLOCK_TOLERANCE_S = 30;

/**
 * Verifies JWTs (with `jose`) and maps their claims to a principal as Temporal's default claim
 * mapper does: `sub` is the identity, `permissions` (`["default:writer", "system:admin"]`) the
 * grants. `exp` and `nbf` are enforced when present.
 */
export class JwtVerifier {
  readonly #key: KeyObject | JWTVerifyGetKey;
  readonly #options: JwtOptions;

  private constructor(key: KeyObject | JWTVerifyGetKey, options: JwtOptions) {
    this.#key = key;
    this.#options = options;
  }

  /**
   * Reads the key or key set.
   * @throws ValidationError naming the option whose file is missing or not a key.
   */
  static load(options: JwtOptions): JwtVerifier {
    if ((options.publicKeyFile === undefined) === (options.jwksFile === undefined)) {
      throw new ValidationError('jwt', 'must name exactly one of publicKeyFile and jwksFile', options);
    }
    if (options.publicKeyFile !== undefined) {
      try {
        return new JwtVerifier(createPublicKey(readFileSync(options.publicKeyFile, 'utf8')), options);
      } catch (err) {
        throw new ValidationError('jwt.publicKeyFile', `must be a PEM public key (${(err as Error).message})`, options.publicKeyFile);
      }
    }
    let jwks: JSONWebKeySet;
    try {
      jwks = JSON.parse(readFileSync(options.jwksFile!, 'utf8')) as JSONWebKeySet;
      if (!Array.isArray(jwks.keys)) throw new Error('it has no "keys" list');
    } catch (err) {
      throw new ValidationError('jwt.jwksFile', `must be a JSON Web Key Set (${(err as Error).message})`, options.jwksFile);
    }
    return new JwtVerifier(createLocalJWKSet(jwks), options);
  }

  /** The principal of a valid token, or undefined for a token that fails any check. */
  async verify(token: string): Promise<Principal | undefined> {
    const { issuer, audience } = this.#options;
    try {
      const opts = {
        algorithms: ALGORITHMS, clockTolerance: CLOCK_TOLERANCE_S, ...(issuer ? { issuer } : {}), ...(audience ? { audience } : {}),
      };
      const { payload } = typeof this.#key === 'function'
        ? await jwtVerify(token, this.#key, opts)
        : await jwtVerify(token, this.#key, opts);
      if (typeof payload.sub !== 'string' || payload.sub.length === 0) return undefined;
      return { identity: payload.sub, permissions: parsePermissions(payload.permissions ?? [], 'permissions') };
    } catch {
      return undefined;
    }
  }
}
