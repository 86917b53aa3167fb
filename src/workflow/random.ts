import { hashString, unitRandom } from '../retry/random.ts';

/** Stream id of workflow randomness, apart from the backoff formulas' streams (1–3). */
const WORKFLOW_STREAM = 0x5717;

/**
 * A seeded generator of floats in [0, 1), like Math.random(): draw i is the retry layer's
 * stateless `unitRandom(hash(seed), i, stream)`, so the same seed gives the same sequence on
 * every replay and every machine. A run's seed is its run id.
 */
export function seededRandom(seed: string): () => number {
  // Hashed on the first draw: most runs never draw.
  let base: number | undefined;
  let index = 0;
  return () => unitRandom((base ??= hashString(seed)), index++, WORKFLOW_STREAM);
}

/** A version-4 UUID drawn from `random` (deterministic when `random` is). */
export function uuid4From(random: () => number): string {
  const bytes: number[] = [];
  for (let i = 0; i < 16; i++) bytes.push(Math.floor(random() * 256));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
