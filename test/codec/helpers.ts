import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AesGcmCodec } from '../../src/codec/index.ts';
import { ApplicationFailure } from '../../src/common/failure.ts';

/** The workflows of test/fixtures/workflows/codec.ts. */
export const CODEC_WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/codec.ts', import.meta.url));

/** A secret no id, type or name of the tests contains. */
export const SECRET = 'sesame-7f3a9c-TOPSECRET';

/** Two 32-byte keys. */
export const KEY_1 = randomBytes(32);
export const KEY_2 = randomBytes(32);

/** A codec that encrypts with `k1`. */
export function codecK1(): AesGcmCodec {
  return new AesGcmCodec({ keys: { k1: KEY_1 }, currentKeyId: 'k1' });
}

/** The activities of `keeper`. */
export const keeperActivities = {
  async remember(secret: string): Promise<string> {
    return `remembered ${secret}`;
  },
  async refuse(secret: string): Promise<void> {
    throw ApplicationFailure.nonRetryable('refused', 'Refused', `refused ${secret}`);
  },
};

/** The bytes of an SQLite database and its WAL, as text, to search for a value. */
export function sqliteFileText(path: string): string {
  let text = readFileSync(path).toString('latin1');
  if (existsSync(`${path}-wal`)) text += readFileSync(`${path}-wal`).toString('latin1');
  return text;
}
