import { useEffect, useRef, useState } from 'preact/hooks';
import type { HistoryEvent } from '../history/events.ts';
import { api } from './api.ts';

/** How many events one history request asks for. */
const PAGE = 2000;

/** A run's history, loaded page by page from the server. */
interface LoadedHistory {
  events: HistoryEvent[];
  /** All pages are in. */
  complete: boolean;
  error: string;
}

/**
 * Loads a run's whole history page by page (showing each page as it comes), and when
 * `length` (the run's history length) grows, fetches again from the last page's token only.
 */
export function useHistory(namespace: string, workflowId: string, runId: string | undefined, length: number): LoadedHistory {
  const [state, setState] = useState<LoadedHistory>({ events: [], complete: false, error: '' });
  // Start token and first index of the last page loaded, to continue from when the run grows.
  const last = useRef<{ token: string | undefined; index: number }>({ token: undefined, index: 0 });
  const loaded = useRef<{ events: HistoryEvent[]; complete: boolean }>({ events: [], complete: false });
  const generation = useRef(0);
  const key = `${namespace}|${workflowId}|${runId}`;

  useEffect(() => {
    last.current = { token: undefined, index: 0 };
    loaded.current = { events: [], complete: false };
    setState({ events: [], complete: false, error: '' });
  }, [key]);

  useEffect(() => {
    if (!runId) return;
    if (loaded.current.complete && loaded.current.events.length >= length) return;
    const mine = ++generation.current;
    void (async () => {
      let token = last.current.token;
      let events = loaded.current.events.slice(0, last.current.index);
      while (generation.current === mine) {
        const page = await api.history(namespace, workflowId, runId, token, PAGE);
        if (generation.current !== mine) return;
        last.current = { token, index: events.length };
        events = events.concat(page.events);
        loaded.current = { events, complete: !page.nextPageToken };
        setState({ events, complete: !page.nextPageToken, error: '' });
        if (!page.nextPageToken) return;
        token = page.nextPageToken;
      }
    })().catch((err: Error) => {
      if (generation.current === mine) setState((s) => ({ ...s, error: err.message }));
    });
  }, [key, length, runId]);
  return state;
}
