import { ValidationError } from '../retry/errors.ts';

/** Largest encoded payload (arguments, results, details) accepted. @default 2 MiB */
export const DEFAULT_MAX_PAYLOAD_BYTES = 2 * 1024 * 1024;

/**
 * Encodes a value as JSON for storage, checking that it survives the round trip and fits the
 * size limit. `undefined` is stored as `null`.
 * @throws ValidationError naming the field when the value cannot be encoded or is too large.
 */
export function encodePayload(field: string, value: unknown, maxBytes = DEFAULT_MAX_PAYLOAD_BYTES): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value === undefined ? null : value);
  } catch (err) {
    throw new ValidationError(field, 'must be JSON-serializable', value, `${field} must be JSON-serializable: ${(err as Error).message}`);
  }
  if (text === undefined) throw new ValidationError(field, 'must be JSON-serializable', value);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw new ValidationError(field, `must be at most ${maxBytes} bytes`, value,
      `${field} is ${bytes} bytes, over the payload limit of ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(0)} MiB)`);
  }
  return text;
}

/** Decodes a stored payload. */
export function decodePayload(text: string | null | undefined): unknown {
  return text === null || text === undefined ? undefined : JSON.parse(text);
}
