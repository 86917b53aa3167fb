/**
 * Stateless seeded randomness. Every random number a backoff uses is a hash of
 * (seed, index, stream), never the output of a shared generator, so a delay is a pure function
 * of (policy, attempt, seed): two servers, or a replay, compute the same value, and concurrent
 * retries cannot disturb each other's sequences.
 */

/** Streams keep the draws of different formulas independent for one (seed, index). */
export const STREAM = { jitter: 1, decorrelated: 2, aws: 3 } as const;

/** MurmurHash3's 32-bit finalizer: a bijection with full avalanche. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Folds any finite number (up to 2^53 and negative ones too) into 32 bits. */
export function foldSeed(seed: number): number {
  const hi = Math.floor(seed / 4294967296);
  return (fmix32(hi >>> 0) ^ (seed >>> 0)) >>> 0;
}

/** FNV-1a of a string, 32 bits: mixes a key such as an activity id into a seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Combines a seed with a string key; an empty or missing key leaves the seed as it is. */
export function mixSeed(seed: number, key?: string): number {
  const base = foldSeed(seed);
  return key ? fmix32(base ^ fmix32(hashString(key) + 0x9e3779b9)) : base;
}

/**
 * A uniform number in [0, 1) determined by (seed, index, stream), 53 bits of resolution.
 * @param seed a 32-bit seed (see {@link foldSeed}).
 */
export function unitRandom(seed: number, index: number, stream: number): number {
  const a = fmix32((seed ^ Math.imul(stream, 0x9e3779b9)) >>> 0);
  const b = fmix32((a + Math.imul(index >>> 0, 0xcc9e2d51) + 0x7f4a7c15) >>> 0);
  const c = fmix32((b ^ 0x632be5ab) + a);
  return ((b >>> 5) * 67108864 + (c >>> 6)) / 9007199254740992;
}

/** A fresh 32-bit seed for a run that was given none. */
export function randomSeed(): number {
  return (Math.random() * 4294967296) >>> 0;
}
