import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ValidationError } from '../errors/index.ts';

/** TLS of an `https://` address: PEM contents. */
export interface ClientTlsOptions {
  /** CA certificates trusted for the server's certificate. @default Node's bundled CAs */
  ca?: string | Buffer;
  /** A client certificate, for servers that require one (mutual TLS). */
  cert?: string | Buffer;
  /** The client certificate's private key. */
  key?: string | Buffer;
}

/** How a client, worker or CLI authenticates to the server and trusts it. */
export interface ConnectionOptions {
  /**
   * Sent as `Authorization: Bearer <apiKey>`; a JWT is sent the same way.
   * @default $STEADFAST_API_KEY, else no credential
   */
  apiKey?: string | undefined;
  /** Extra headers sent with every call (e.g. a proxy's). */
  headers?: Record<string, string> | undefined;
  /** For `https://` addresses. */
  tls?: ClientTlsOptions | undefined;
}

/** A pooled connection to one server: how requests are made and what they carry. */
export interface Connection {
  agent: HttpAgent;
  request: typeof httpRequest;
  /** Headers of every call (the credential among them). */
  headers: Record<string, string>;
  defaultPort: number;
}

/**
 * Checks the connection options and opens the agent for `url` (HTTP or HTTPS).
 * @throws ValidationError naming the option that breaks a rule.
 */
export function openConnection(url: URL, options: ConnectionOptions): Connection {
  const headers: Record<string, string> = {};
  if (options.headers !== undefined) {
    if (typeof options.headers !== 'object' || options.headers === null) throw new ValidationError('headers', 'must be an object of strings', options.headers);
    for (const [name, value] of Object.entries(options.headers)) {
      if (typeof value !== 'string') throw new ValidationError(`headers.${name}`, 'must be a string', value);
      headers[name.toLowerCase()] = value;
    }
  }
  const apiKey = options.apiKey ?? (process.env.STEADFAST_API_KEY || undefined);
  if (apiKey !== undefined) {
    const field = options.apiKey === undefined ? 'STEADFAST_API_KEY' : 'apiKey';
    if (typeof apiKey !== 'string' || !/^[\x21-\x7e]{1,8192}$/.test(apiKey)) {
      throw new ValidationError(field, 'must be 1 to 8192 printable characters without spaces', '(hidden)');
    }
    headers.authorization = `Bearer ${apiKey}`;
  }
  const keepAlive = { keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 };
  if (url.protocol === 'https:') {
    const tls = options.tls ?? {};
    if (typeof tls !== 'object' || tls === null) throw new ValidationError('tls', 'must be { ca?, cert?, key? }', tls);
    if ((tls.cert === undefined) !== (tls.key === undefined)) {
      throw new ValidationError('tls', 'must give cert and key together', tls.cert === undefined ? 'key only' : 'cert only');
    }
    const agent = new HttpsAgent({ ...keepAlive, ...(tls.ca ? { ca: tls.ca } : {}), ...(tls.cert ? { cert: tls.cert, key: tls.key } : {}) });
    return { agent: agent as unknown as HttpAgent, request: httpsRequest as unknown as typeof httpRequest, headers, defaultPort: 443 };
  }
  if (options.tls !== undefined) throw new ValidationError('tls', 'needs an https:// address', url.origin);
  return { agent: new HttpAgent(keepAlive), request: httpRequest, headers, defaultPort: 80 };
}
