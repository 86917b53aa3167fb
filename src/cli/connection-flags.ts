import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { ServiceError } from '../common/errors.ts';
import type { ConnectionOptions } from '../client/index.ts';
import { UsageError } from './args.ts';

/**
 * The client's credential and trusted CA from `--api-key` / `--ca-file` or, when not given,
 * `$STEADFAST_API_KEY` (read by the client itself) and `$STEADFAST_CA_FILE` (for an https:// address).
 */
export function connectionFlags(address: string, apiKey: string | undefined, caFile: string | undefined): ConnectionOptions {
  const file = caFile ?? (address.startsWith('https://') ? process.env.STEADFAST_CA_FILE || undefined : undefined);
  let ca: Buffer | undefined;
  if (file !== undefined) {
    try {
      ca = readFileSync(file);
    } catch (err) {
      throw new UsageError(`--ca-file must be a readable PEM file, got "${file}" (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  return { ...(apiKey !== undefined ? { apiKey } : {}), ...(ca ? { tls: { ca } } : {}) };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * A server address on this machine that refuses connections fails at once, naming the address,
 * instead of being retried for `--retry-for`: nothing listens there, and a person at a terminal
 * should hear so within a second. Given `--retry-for`, the command rides through as asked.
 */
export async function refuseFastOnLoopback(address: string, retryFor: string | undefined): Promise<void> {
  if (retryFor !== undefined) return;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return; // the client names a malformed address itself
  }
  if (!LOOPBACK.has(url.hostname) && !url.hostname.startsWith('127.')) return;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const refused = await new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(false));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'ECONNREFUSED'));
  });
  if (refused) throw new ServiceError('Unavailable', `no steadfast server at ${address}: connection refused`);
}
