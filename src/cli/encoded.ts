import { isEnvelope, metaText, fromJsonPayload } from '../codec/payload-codec.ts';

/**
 * A JSON.stringify replacer for the CLI's text output: a payload left encoded (no
 * `--codec-endpoint`, or one that cannot decode it) reads as `<encoded binary/encrypted key k1>`.
 */
export function markEncoded(_key: string, value: unknown): unknown {
  if (!isEnvelope(value)) return value;
  try {
    const p = fromJsonPayload(value.$payload);
    const keyId = metaText(p, 'encryption-key-id');
    return `<encoded ${metaText(p, 'encoding') ?? '?'}${keyId !== undefined ? ` key ${keyId}` : ''}>`;
  } catch {
    return '<encoded>';
  }
}
