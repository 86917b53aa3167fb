/**
 * A string-keyed map of at most `capacity` entries: `set` makes an entry the newest and evicts
 * the oldest beyond capacity (a `Map` iterates in insertion order). With capacity 0 it holds
 * nothing. The caches of stores and workers keep their entries in one.
 */
export class BoundedMap<V> {
  readonly #map = new Map<string, V>();
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#map.size;
  }

  get(key: string): V | undefined {
    return this.#map.get(key);
  }

  has(key: string): boolean {
    return this.#map.has(key);
  }

  /** Holds the entry as the newest, evicting the oldest beyond capacity. */
  set(key: string, value: V): void {
    this.#map.delete(key);
    if (this.capacity === 0) return;
    this.#map.set(key, value);
    if (this.#map.size > this.capacity) this.#map.delete(this.#map.keys().next().value!);
  }

  delete(key: string): void {
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }
}
