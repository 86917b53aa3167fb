import { ServiceError } from '../common/errors.ts';
import { taskTokenNamespace } from '../engine/index.ts';
import { ValidationError } from '../errors/index.ts';
import { methodsWhere, WORKFLOW_SERVICE_METHODS, type WorkflowService, type WorkflowServiceMethod } from '../protocol/index.ts';
import type { ApiKeys, Principal } from './api-keys.ts';
import { JwtVerifier, type JwtOptions } from './jwt-verifier.ts';
import { AUDITED_METHODS, CROSS_NAMESPACE_ROLES, grants, METHOD_ROLES, SYSTEM_SCOPE } from './method-roles.ts';
import type { ListNamespacesResponse } from '../protocol/index.ts';

/** Options of {@link Authenticator.create}: at least one source of credentials. */
export interface AuthOptions {
  /** API keys accepted (see ApiKeys.load for the file). */
  apiKeys?: ApiKeys;
  /** How JWTs are verified. */
  jwt?: JwtOptions;
}

/**
 * How a caller presents a credential: `Authorization: Bearer <credential>`, where the
 * credential is an API key or a JWT (three dot-separated parts).
 */
export const CREDENTIAL_HEADER = 'authorization';
const BEARER = /^Bearer +(\S+)$/i;
const HOW = 'send `Authorization: Bearer <API key or JWT>` (clients: the apiKey option or $STEADFAST_API_KEY)';

/**
 * Authenticates the callers of the HTTP API and authorizes each call by the role
 * {@link METHOD_ROLES} names for it on the call's namespace (for task calls, the namespace
 * inside the task token, which the engine then verifies by its signature).
 */
export class Authenticator {
  readonly #apiKeys: ApiKeys | undefined;
  readonly #jwt: JwtVerifier | undefined;

  private constructor(apiKeys: ApiKeys | undefined, jwt: JwtVerifier | undefined) {
    this.#apiKeys = apiKeys;
    this.#jwt = jwt;
  }

  /**
   * Builds an authenticator.
   * @throws ValidationError when neither API keys nor JWT options are given, or a file is bad.
   */
  static create(options: AuthOptions): Authenticator {
    if (!options?.apiKeys && !options?.jwt) throw new ValidationError('auth', 'must configure apiKeys or jwt', options);
    return new Authenticator(options.apiKeys, options.jwt ? JwtVerifier.load(options.jwt) : undefined);
  }

  /**
   * The principal of a request's `Authorization` header.
   * @throws ServiceError `Unauthenticated` when there is no credential or it is not accepted;
   *   the message does not say which check failed.
   */
  async authenticate(header: string | undefined): Promise<Principal> {
    const credential = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (!credential) throw new ServiceError('Unauthenticated', `this server requires credentials: ${HOW}`);
    const isJwt = credential.split('.').length === 3;
    const principal = isJwt ? await this.#jwt?.verify(credential) : this.#apiKeys?.verify(credential);
    if (!principal) throw new ServiceError('Unauthenticated', 'the credentials were not accepted (unknown, expired or badly signed)');
    return principal;
  }

  /**
   * The service as `principal` may use it: each call is refused with PermissionDenied unless
   * the principal holds its role on its namespace, and audited calls carry the principal's
   * identity instead of the one the request declares.
   */
  guard(service: WorkflowService, principal: Principal): WorkflowService {
    // Made per request: one small object whose methods are made as they are called (a request
    // calls one, a batch a few kinds), not one closure per method of the contract.
    const made = new Map<WorkflowServiceMethod, unknown>();
    const guarded = (method: WorkflowServiceMethod) => async (body: unknown, opts?: unknown) => {
      const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      const fn = service[method] as ((req: unknown, opts?: unknown) => Promise<unknown>) | undefined;
      if (method in CROSS_NAMESPACE_ROLES) {
        const { scope, role } = CROSS_NAMESPACE_ROLES[method as keyof typeof CROSS_NAMESPACE_ROLES];
        if (scope === 'system' && !grants(principal.permissions, SYSTEM_SCOPE, role)) {
          throw new ServiceError('PermissionDenied', `${method} needs the ${role} role on the ${SYSTEM_SCOPE} scope ("${SYSTEM_SCOPE}:${role}")`);
        }
        if (!fn) throw new ServiceError('NotFound', `this server does not offer ${method}`);
        const answer = await fn.call(service, body, opts);
        if (scope === 'system') return answer;
        // A page may come back shorter than asked (or empty, with a token): it holds what the caller may read.
        const page = answer as ListNamespacesResponse;
        return { ...page, namespaces: page.namespaces.filter((ns) => grants(principal.permissions, ns.name, role)) };
      }
      const namespace = callNamespace(method, request);
      const role = METHOD_ROLES[method as keyof typeof METHOD_ROLES];
      if (!grants(principal.permissions, namespace, role)) {
        throw new ServiceError('PermissionDenied', `${method} needs the ${role} role on namespace "${namespace}"`);
      }
      const sent = AUDITED_METHODS.has(method) ? { ...request, identity: principal.identity } : body;
      if (!fn) throw new ServiceError('NotFound', `this server does not offer ${method}`);
      return fn.call(service, sent, opts);
    };
    return new Proxy({} as WorkflowService, {
      get(_, key) {
        if (typeof key !== 'string' || !CONTRACT.has(key)) return undefined;
        const method = key as WorkflowServiceMethod;
        let fn = made.get(method);
        if (!fn) made.set(method, (fn = guarded(method)));
        return fn;
      },
    });
  }
}

const CONTRACT: ReadonlySet<string> = new Set(WORKFLOW_SERVICE_METHODS);

/** Calls that act on the run their task token names, whatever else the request says; taken from METHODS. */
export const TOKEN_METHODS: ReadonlySet<WorkflowServiceMethod> = new Set(methodsWhere((f) => f.tokenScoped));

/** The namespace a call acts on: the task token's for task calls, else the request's. */
function callNamespace(method: WorkflowServiceMethod, request: Record<string, unknown>): string {
  if (TOKEN_METHODS.has(method)) return tokenNamespace(request.taskToken);
  return typeof request.namespace === 'string' ? request.namespace : 'default';
}

/** Most characters of a refused task token an error message repeats (a real one has about 200). */
const SHOWN_TOKEN_CHARS = 300;

/**
 * The namespace a task token names, read before the engine verifies its signature.
 * @throws ValidationError naming `taskToken`: missing, or not readable as a token (a character
 *   changed, cut short): the engine's rule, with the reason.
 */
function tokenNamespace(token: unknown): string {
  const namespace = taskTokenNamespace(token);
  if (namespace !== undefined) return namespace;
  if (token === undefined || token === '') throw new ValidationError('taskToken', 'is required: the taskToken of the task a poll handed out', token);
  const shown = typeof token === 'string' && token.length > SHOWN_TOKEN_CHARS ? `${token.slice(0, SHOWN_TOKEN_CHARS)}… (${token.length} characters)` : token;
  throw new ValidationError('taskToken', 'must be a task token this service signed (this one is malformed or forged)', shown);
}
