/*
 * The credential the UI sends to a server that has authentication on (docs/security.md): an
 * API key or a JWT, kept for the tab in sessionStorage, or in localStorage when asked to.
 */
const KEY = 'steadfast.credential';

interface Storage { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void }
// Typed here rather than from the DOM library: the node tests of the modules that import this one compile without it.
const { sessionStorage, localStorage } = globalThis as unknown as { sessionStorage: Storage; localStorage: Storage };

/** The credential to send as `Authorization: Bearer …`, if one was given. */
export function getCredential(): string | undefined {
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY) ?? undefined;
}

/** Keeps `value` for this tab, or in this browser when `remember`; `undefined` forgets it everywhere. */
export function setCredential(value: string | undefined, remember = false): void {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
  if (value) (remember ? localStorage : sessionStorage).setItem(KEY, value);
}

const listeners = new Set<(message: string) => void>();

/** Calls `listener` with the server's message whenever a call is refused for want of a valid credential. */
export function onUnauthenticated(listener: (message: string) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Tells the listeners that the server answered 401. */
export function reportUnauthenticated(message: string): void {
  for (const l of listeners) l(message);
}
