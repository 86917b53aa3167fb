const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const pool = new Uint8Array(16 * 256);
let used = pool.length;

/**
 * A new UUID (version 7: 48 bits of Unix time in ms, then 74 random bits) for run, task, timer
 * and request ids. Ids made close in time sort close together, so the rows and index entries a
 * busy server writes in one commit share B-tree pages instead of landing on a random page each.
 */
export function newUuid(): string {
  if (used === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  const r = used;
  used += 16;
  const ms = Date.now();
  const hi = Math.floor(ms / 2 ** 16);
  const h = HEX;
  return `${h[(hi >>> 24) & 0xff]}${h[(hi >>> 16) & 0xff]}${h[(hi >>> 8) & 0xff]}${h[hi & 0xff]}-${h[(ms >>> 8) & 0xff]}${h[ms & 0xff]}-`
    + `${h[0x70 | (pool[r + 6]! & 0x0f)]}${h[pool[r + 7]!]}-${h[0x80 | (pool[r + 8]! & 0x3f)]}${h[pool[r + 9]!]}-`
    + `${h[pool[r + 10]!]}${h[pool[r + 11]!]}${h[pool[r + 12]!]}${h[pool[r + 13]!]}${h[pool[r + 14]!]}${h[pool[r + 15]!]}`;
}

/** The namespace used when none is given. */
export const DEFAULT_NAMESPACE = 'default';
