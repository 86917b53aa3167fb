import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { ValidationError } from '../errors/index.ts';

/** TLS of the HTTP API: PEM contents (see {@link readTlsFiles} to load them from files). */
export interface TlsOptions {
  /** The server's certificate chain, PEM. */
  cert: string | Buffer;
  /** The certificate's private key, PEM. */
  key: string | Buffer;
  /**
   * CA certificates that sign client certificates, PEM. When set, every connection must present
   * a client certificate they sign (mutual TLS); others are refused during the handshake.
   * @default none: clients are not asked for a certificate
   */
  clientCa?: string | Buffer;
}

/**
 * Reads the PEM files of {@link TlsOptions}.
 * @throws ValidationError naming the option whose file cannot be read.
 */
export function readTlsFiles(files: { certFile: string; keyFile: string; clientCaFile?: string }): TlsOptions {
  const read = (field: string, path: string) => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new ValidationError(field, `must be a readable PEM file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, path);
    }
  };
  return {
    cert: read('tlsCert', files.certFile),
    key: read('tlsKey', files.keyFile),
    ...(files.clientCaFile ? { clientCa: read('tlsClientCa', files.clientCaFile) } : {}),
  };
}

/** An HTTPS server for the API's request listener. */
export function createTlsServer(tls: TlsOptions, listener: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const mutual = tls.clientCa !== undefined;
  return createServer({
    cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2',
    ...(mutual ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
  }, listener) as unknown as Server;
}
