import { useEffect, useRef, useState } from 'preact/hooks';
import type { WorkflowExecutionInfo } from '../protocol/index.ts';
import { api, ApiError, type ListRequest } from './api.ts';
import { formatTime } from './format.ts';
import { href, navigate, type Place } from './router.ts';
import { useSettings } from './settings.tsx';
import { STATUSES, StatusBadge } from './status.tsx';
import { usePoll } from './poll.ts';

const PAGE_SIZE = 50;
const queryKnown = new Map<string, Promise<boolean>>();

/**
 * Whether the server reads the visibility `query` of listWorkflowExecutions: one that does
 * refuses a query that does not parse; one that does not answers as if there were none.
 */
function serverTakesQuery(namespace: string): Promise<boolean> {
  let known = queryKnown.get(namespace);
  if (!known) {
    known = api.list({ namespace, pageSize: 1, query: '(' }).then(() => false, (err) => err instanceof ApiError && err.code === 'InvalidArgument');
    queryKnown.set(namespace, known);
  }
  return known;
}

/** The filters of the list, all kept in the URL so that a view can be shared. */
interface Filters { q: string; status: string; type: string; prefix: string }

function filtersOf(place: Place): Filters {
  const p = place.params;
  return { q: p.get('q') ?? '', status: p.get('status') ?? '', type: p.get('type') ?? '', prefix: p.get('prefix') ?? '' };
}

/** The workflows list: query box, status chips, filters, paging by token, live refresh. */
export function ListPage({ place }: { place: Place }) {
  const [settings] = useSettings();
  const ns = settings.namespace;
  const filters = filtersOf(place);
  const [draft, setDraft] = useState(filters);
  const [tokens, setTokens] = useState<(string | undefined)[]>([undefined]);
  const [rows, setRows] = useState<WorkflowExecutionInfo[] | undefined>();
  const [next, setNext] = useState<string | undefined>();
  const [error, setError] = useState('');
  const [live, setLive] = useState(true);
  const [takesQuery, setTakesQuery] = useState<boolean | undefined>();
  const key = `${ns}|${place.params.toString()}`;

  useEffect(() => setDraft(filters), [key]);
  useEffect(() => {
    setTokens([undefined]);
    setRows(undefined);
  }, [key]);
  useEffect(() => {
    void serverTakesQuery(ns).then(setTakesQuery);
  }, [ns]);

  const token = tokens[tokens.length - 1];
  // Answers to earlier requests (an older filter, a slow poll) must not replace newer ones.
  const latest = useRef(0);
  const load = async () => {
    if (takesQuery === undefined) return;
    const mine = ++latest.current;
    const req: ListRequest = { namespace: ns, pageSize: PAGE_SIZE };
    if (filters.status) req.status = filters.status as ListRequest['status'];
    if (filters.type) req.workflowType = filters.type;
    if (filters.prefix) req.workflowIdPrefix = filters.prefix;
    if (takesQuery && filters.q) req.query = filters.q;
    if (token) req.nextPageToken = token;
    try {
      const res = await api.list(req);
      if (mine !== latest.current) return;
      setRows(res.executions);
      setNext(res.nextPageToken);
      setError('');
    } catch (err) {
      if (mine === latest.current) setError((err as Error).message);
    }
  };
  useEffect(() => void load(), [key, token, takesQuery]);
  usePoll(load, 3000, live && tokens.length === 1);

  const apply = (patch: Partial<Filters>) => {
    const f = { ...draft, ...patch };
    navigate(href('/', { q: f.q.trim(), status: f.status, type: f.type.trim(), prefix: f.prefix.trim() }));
  };

  return (
    <section class="list">
      <form class="filters" onSubmit={(e) => { e.preventDefault(); apply({}); }}>
        {takesQuery !== false ? (
          <input class="query" name="q" placeholder='WorkflowType = "order" AND StartTime > "2026-01-01T00:00:00Z"' value={draft.q}
            onInput={(e) => setDraft({ ...draft, q: e.currentTarget.value })} disabled={takesQuery === undefined} />
        ) : (
          <span class="note" data-testid="no-query">This server has no query language; filter by type and id prefix.</span>
        )}
        <input name="type" placeholder="workflow type" value={draft.type} onInput={(e) => setDraft({ ...draft, type: e.currentTarget.value })} />
        <input name="prefix" placeholder="workflow id prefix" value={draft.prefix} onInput={(e) => setDraft({ ...draft, prefix: e.currentTarget.value })} />
        <button type="submit">Search</button>
      </form>
      <div class="chips">
        {['', ...STATUSES].map((s) => (
          <button type="button" key={s} class={`chip${filters.status === s ? ' on' : ''}`} onClick={() => apply({ status: s })}>{s || 'All'}</button>
        ))}
        <span class="grow" />
        <button type="button" class="toggle" data-testid="live" onClick={() => setLive(!live)}>{live ? '❚❚ Pause live refresh' : '▶ Resume live refresh'}</button>
      </div>
      {error && <p class="error">{error}</p>}
      <table class="grid">
        <thead><tr><th>Status</th><th>Workflow ID</th><th>Run ID</th><th>Type</th><th>Task queue</th><th>Start</th><th>Close</th><th>Events</th></tr></thead>
        <tbody>
          {rows?.map((r) => (
            <tr key={r.runId}>
              <td><StatusBadge status={r.status} /></td>
              <td><a href={href(`/workflows/${encodeURIComponent(r.workflowId)}/${r.runId}`, {})}>{r.workflowId}</a></td>
              <td class="mono">{r.runId.slice(0, 8)}</td>
              <td>{r.workflowType}</td>
              <td>{r.taskQueue}</td>
              <td class="mono">{formatTime(r.startTime, settings.zone)}</td>
              <td class="mono">{formatTime(r.closeTime, settings.zone)}</td>
              <td class="num">{r.historyLength}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows && rows.length === 0 && <p class="note">No workflows match.</p>}
      <div class="pager">
        <button type="button" disabled={tokens.length === 1} onClick={() => setTokens(tokens.slice(0, -1))}>← Newer</button>
        <span>page {tokens.length}</span>
        <button type="button" disabled={!next} onClick={() => setTokens([...tokens, next])}>Older →</button>
      </div>
    </section>
  );
}
