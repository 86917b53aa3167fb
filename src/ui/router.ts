import { useEffect, useState } from 'preact/hooks';

/** The browser's path and query, kept in step with history navigation. */
export interface Place {
  path: string;
  params: URLSearchParams;
}

function current(): Place {
  return { path: location.pathname, params: new URLSearchParams(location.search) };
}

const listeners = new Set<() => void>();
addEventListener('popstate', () => listeners.forEach((l) => l()));

/**
 * Goes to `href` inside the app; `replace` rewrites the current entry instead of adding one.
 * The current `ns` parameter is carried to an `href` without one, so that the address bar
 * always names a namespace other than "default" and can be shared; `carryNamespace: false`
 * is for the namespace switcher, which sets it itself.
 */
export function navigate(href: string, replace = false, carryNamespace = true): void {
  const ns = new URLSearchParams(location.search).get('ns');
  const url = new URL(href, location.origin);
  if (carryNamespace && ns && !url.searchParams.has('ns')) url.searchParams.set('ns', ns);
  const target = url.pathname + url.search;
  if (target === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
  listeners.forEach((l) => l());
}

/** The current place; re-renders the caller on every navigation. */
export function usePlace(): Place {
  const [place, setPlace] = useState(current);
  useEffect(() => {
    const l = () => setPlace(current());
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return place;
}

/** A path with its query string, leaving out empty values. */
export function href(path: string, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Lets a plain `<a href>` click navigate inside the app (new tabs and modified clicks still work). */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || a.target || a.hasAttribute('download') || url.pathname.startsWith('/api/')) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
}
