import { readFileSync } from 'node:fs';
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
