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

/**
 * Who the UI says made a change, recorded in history: "web-ui", and the credential's subject
 * when the credential is a JWT with one (`web-ui alice`). (With authentication on, the server
 * records the credential's own identity.)
 */
export function uiIdentity(): string {
  const credential = getCredential();
  const payload = credential?.split('.')[1];
  if (!payload || credential!.split('.').length !== 3) return 'web-ui';
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof claims.sub === 'string' && claims.sub ? `web-ui ${claims.sub}`.slice(0, 200) : 'web-ui';
  } catch {
    return 'web-ui';
  }
}
