import { useEffect, useState } from 'preact/hooks';
import type { ListNamespacesResponse } from '../protocol/index.ts';
import { call } from './api.ts';

/** The names of the server's namespaces the caller may read (first 1,000), once per page load; empty if the server refuses. */
export function useServerNamespaces(): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    call<ListNamespacesResponse>('listNamespaces', { pageSize: 1000 })
      .then((r) => { if (live) setNames(r.namespaces.map((n) => n.name)); }, () => undefined);
    return () => void (live = false);
  }, []);
  return names;
}
