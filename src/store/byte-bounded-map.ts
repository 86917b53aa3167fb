import { ValidationError } from '../errors/index.ts';

/**
 * Bytes of heap the row caches of a store may hold, estimated by {@link approximateBytes}.
 * A run's cached row carries its recent events, so its arguments (up to 2 MiB a payload): a
 * count alone bounded nothing (10,000 runs started with 1.9 MiB arguments are 19 GB; 263 of them
 * filled a 512 MB heap).
 * @default 64 MiB
 */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** The option every store takes for its caches. */
export interface StoreCacheOptions {
  /**
   * Most bytes of heap (estimated: {@link approximateBytes}) the store's row caches hold;
   * beyond it the oldest rows go. 0 turns the caches off (every read goes to the database).
   * @default DEFAULT_CACHE_MAX_BYTES (64 MiB)
   */
  cacheMaxBytes?: number;
}

/**
 * The `cacheMaxBytes` of store options, checked.
 * @throws ValidationError naming `cacheMaxBytes` unless it is a whole number >= 0.
 */
export function resolveCacheMaxBytes(options: StoreCacheOptions | undefined): number {
  const v = options?.cacheMaxBytes;
  if (v === undefined) return DEFAULT_CACHE_MAX_BYTES;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ValidationError('cacheMaxBytes', 'must be a whole number of bytes >= 0', v);
  return v;
}

/**
 * What a JSON-like value (a row, an event, a state) holds on the heap, estimated from above:
 * strings at two bytes a character (V8 keeps Latin-1 text in one), with a fixed overhead per
 * string, number, array slot and object property; typed arrays at their bytes. An object reached
 * twice is counted twice. Iterative, so any depth is measured; its cost
 * is one step per value, not per byte.
 */
export function approximateBytes(value: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') bytes += 16 + 2 * v.length;
    else if (typeof v !== 'object' || v === null) bytes += 8;
    else if (ArrayBuffer.isView(v)) bytes += 64 + v.byteLength;
    else if (Array.isArray(v)) {
      bytes += 16 + 8 * v.length;
      for (const item of v) if (typeof item === 'object' || typeof item === 'string') stack.push(item);
    } else {
      bytes += 24;
      for (const key in v) {
        bytes += 16 + 2 * key.length;
        const item = (v as Record<string, unknown>)[key];
        if (typeof item === 'object' || typeof item === 'string') stack.push(item);
        else bytes += 8;
      }
    }
  }
  return bytes;
}

/**
 * A string-keyed map of at most `capacity` entries and `maxBytes` bytes (each entry's size given
 * by its writer): `set` makes an entry the newest and evicts the oldest until both bounds hold (a
 * `Map` iterates in insertion order). An entry larger than `maxBytes` alone is not held.
 */
export class ByteBoundedMap<V> {
  readonly #map = new Map<string, { value: V; bytes: number }>();
  #bytes = 0;
  constructor(readonly capacity: number, readonly maxBytes: number) {}

  get size(): number {
    return this.#map.size;
  }

  /** Bytes the entries held now, as their writers gave them. */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): V | undefined {
    return this.#map.get(key)?.value;
  }

  /** Holds the entry as the newest, evicting the oldest beyond capacity or bytes. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (this.capacity === 0 || bytes > this.maxBytes) return;
    this.#map.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#map) {
      if (this.#map.size <= this.capacity && this.#bytes <= this.maxBytes) break;
      this.#map.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.#map.get(key);
    if (!entry) return;
    this.#map.delete(key);
    this.#bytes -= entry.bytes;
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
  }
}
