import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CodecChain } from '../codec/codec-chain.ts';
import { fromJsonPayload, PayloadCodecError, toJsonPayload, type PayloadCodec } from '../codec/payload-codec.ts';
import { ServiceError } from '../common/errors.ts';
import { DEFAULT_NAMESPACE } from '../common/ids.ts';
import { toWireError } from '../protocol/wire-error.ts';
import { ValidationError } from '../errors/index.ts';
import type { Authenticator } from './auth.ts';
import { grants, type Role } from './method-roles.ts';

/** Options of {@link createCodecServer}. */
export interface CodecServerOptions {
  /** The codecs, in the order the clients and workers list them (encode first to last, decode last to first). */
  codecs: PayloadCodec[];
  /**
   * Checks callers as the steadfast server does (the same API keys or JWTs): decode needs the
   * reader role and encode the writer role on the namespace of the `X-Namespace` header.
   * @default none: every caller is answered (only for a codec server no one else can reach)
   */
  auth?: Authenticator;
  /** @default 8089 (0 picks a free port) */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /**
   * Origins whose pages may call the codec server from a browser (the web UI's origin, e.g.
   * `http://127.0.0.1:7233`), answered with CORS headers; `*` allows any. @default none
   */
  corsOrigins?: string[];
  /** Largest request body accepted, bytes. @default 8 MiB */
  maxBodyBytes?: number;
}

/** A running codec server. */
export interface CodecServer {
  /** `http://host:port` */
  readonly address: string;
  readonly port: number;
  /** Stops accepting connections and resolves once open ones are done. */
  close(): Promise<void>;
}

/** The role each route needs on the `X-Namespace` namespace. */
const ROUTES: Record<string, { role: Role; run: (chain: CodecChain) => CodecChain['encodePayloads'] }> = {
  '/codec/encode': { role: 'writer', run: (c) => (p) => c.encodePayloads(p) },
  '/codec/decode': { role: 'reader', run: (c) => (p) => c.decodePayloads(p) },
};

/** The namespace header of a codec request, as Temporal's codec server reads it. */
export const NAMESPACE_HEADER = 'x-namespace';

async function readBody(req: IncomingMessage, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new ValidationError('body', `must be at most ${max} bytes`, `${size}+ bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function payloadsOf(text: string): unknown[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new ValidationError('body', 'must be JSON { payloads: [...] }', text.slice(0, 40), `body must be JSON { payloads: [...] }: ${(err as Error).message}`);
  }
  const payloads = (body as { payloads?: unknown } | null)?.payloads;
  if (!Array.isArray(payloads)) throw new ValidationError('payloads', 'must be an array of { metadata, data }', payloads);
  return payloads;
}

/**
 * Serves Temporal's codec endpoints beside a steadfast server, so that the CLI and the web UI can
 * show decoded payloads while the server itself never holds the key: `POST /codec/encode` and
 * `POST /codec/decode` with `{ payloads: [{ metadata: { key: base64 }, data: base64 }] }`,
 * answered in the same shape. Errors answer `{ error: { code, message } }` with the status of the
 * code: 401 without accepted credentials, 403 naming the role needed, 400 for a payload the codecs
 * refuse (an unknown key id).
 */
export async function createCodecServer(options: CodecServerOptions): Promise<CodecServer> {
  if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be { codecs, auth?, port? }', options);
  if (!Array.isArray(options.codecs) || options.codecs.length === 0) {
    throw new ValidationError('codecs', 'must be a non-empty array of PayloadCodec', options.codecs);
  }
  const chain = new CodecChain(options.codecs);
  const maxBody = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const origins = options.corsOrigins ?? [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origin = req.headers.origin;
    if (origin && (origins.includes('*') || origins.includes(origin))) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-allow-headers', 'authorization, content-type, x-namespace');
      res.setHeader('access-control-allow-methods', 'POST, OPTIONS');
      res.setHeader('vary', 'origin');
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const route = ROUTES[path];
    if (!route || req.method !== 'POST') throw new ServiceError('NotFound', `the codec server answers POST /codec/encode and POST /codec/decode, not ${req.method} ${path}`);
    const header = req.headers[NAMESPACE_HEADER];
    const namespace = (Array.isArray(header) ? header[0] : header) || DEFAULT_NAMESPACE;
    if (options.auth) {
      const principal = await options.auth.authenticate(req.headers.authorization);
      if (!grants(principal.permissions, namespace, route.role)) {
        throw new ServiceError('PermissionDenied', `${path} needs the ${route.role} role on namespace "${namespace}" (the X-Namespace header)`);
      }
    }
    const payloads = payloadsOf(await readBody(req, maxBody)).map((p, i) => fromJsonPayload(p, `payloads[${i}]`));
    const out = await route.run(chain)(payloads);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ payloads: out.map(toJsonPayload) }));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const { status, error } = toWireError(err instanceof PayloadCodecError ? new ServiceError('InvalidArgument', err.message) : err);
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8089, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    address: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
  };
}
