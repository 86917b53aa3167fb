import type { StoreNotification } from './types.ts';

/** The subscribers of a store's notifications. */
export class Listeners {
  readonly #set = new Set<(n: StoreNotification) => void>();

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (n: StoreNotification) => void): () => void {
    this.#set.add(listener);
    return () => this.#set.delete(listener);
  }

  /** Tells every listener of each notification, in order. */
  emit(notifications: StoreNotification[]): void {
    for (const n of notifications) for (const l of this.#set) l(n);
  }
}
