/** A random UUID v4 for run ids and request ids. */
export function newUuid(): string {
  return globalThis.crypto.randomUUID();
}

/** The namespace used when none is given. */
export const DEFAULT_NAMESPACE = 'default';
