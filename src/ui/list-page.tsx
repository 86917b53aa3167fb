import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { WorkflowExecutionInfo } from '../protocol/index.ts';
import { api, ApiError } from './api.ts';
import { attributeColumn, BUILT_IN_COLUMNS, loadColumns, saveColumns, type ListColumn } from './list-columns.tsx';
import { QueryBox } from './query-box.tsx';
import {
  orderOf, splitQuery, statusCountQuery, TASK_FAILING_CHIP, withClause, withOrder, withStatus, type AttributeInfo,
} from './query-text.ts';
import { href, navigate, type Place } from './router.ts';
import { useSettings } from './settings.tsx';
import { STATUSES } from './status.tsx';
import { usePoll } from './poll.ts';
import { BulkActions } from './bulk-dialog.tsx';

const PAGE_SIZE = 50;
/** How often live refresh re-counts the statuses. */
const COUNT_EVERY_MS = 10_000;

/** The filter of the list, kept in the URL so that a view can be shared: the query and the status chip. */
interface Filters { q: string; status: string }

function filtersOf(place: Place): Filters {
  return { q: place.params.get('q') ?? '', status: place.params.get('status') ?? '' };
}

/** An error's column in the sent query, moved to the same text in the query box (none inside the added status clause). */
function columnInBox(err: ApiError, f: Filters, sent: string): number | undefined {
  if (err.column === undefined || !f.status) return err.column;
  const { filter } = splitQuery(f.q);
  if (filter && err.column <= filter.length + 1) return err.column - 1;
  const shift = sent.length - f.q.length;
  return err.column - shift > filter.length ? err.column - shift : undefined;
}

/** The workflows list: query box with completions, status chips with counts, chosen and sorted columns, paging, live refresh. */
export function ListPage({ place }: { place: Place }) {
  const [settings] = useSettings();
  const ns = settings.namespace;
  const filters = filtersOf(place);
  const [draft, setDraft] = useState(filters.q);
  const [tokens, setTokens] = useState<(string | undefined)[]>([undefined]);
  const [rows, setRows] = useState<WorkflowExecutionInfo[] | undefined>();
  const [next, setNext] = useState<string | undefined>();
  const [error, setError] = useState<{ message: string; query: string; column?: number } | undefined>();
  const [counts, setCounts] = useState<{ total: number; by: Record<string, number> } | undefined>();
  const [live, setLive] = useState(true);
  const [attributes, setAttributes] = useState<AttributeInfo[]>([]);
  const [columnIds, setColumnIds] = useState(loadColumns);
  const [choosing, setChoosing] = useState(false);
  const key = `${ns}|${place.params.toString()}`;
  const query = withStatus(filters.q, filters.status);

  useEffect(() => setDraft(filters.q), [key]);
  useEffect(() => {
    setTokens([undefined]);
    setRows(undefined);
    setCounts(undefined);
  }, [key]);
  useEffect(() => {
    api.searchAttributes(ns).then((r) => setAttributes([...r.builtIn, ...r.custom]), () => setAttributes([]));
  }, [ns]);

  const token = tokens[tokens.length - 1];
  // Answers to earlier requests (an older filter, a slow poll) must not replace newer ones.
  const latest = useRef(0);
  const counted = useRef({ key: '', at: 0 });
  const load = async () => {
    const mine = ++latest.current;
    const listing = api.list({ namespace: ns, pageSize: PAGE_SIZE, ...(query ? { query } : {}), ...(token ? { nextPageToken: token } : {}) });
    // A count reads every matching index entry (docs/visibility.md: 18 to 55 ms at 100,000 runs,
    // ten times that at a million), while a page costs the same at any size: the list refreshes
    // every poll, the counts at most every COUNT_EVERY_MS or when the filter changes.
    const fresh = counted.current.key !== key || Date.now() - counted.current.at >= COUNT_EVERY_MS;
    if (fresh) counted.current = { key, at: Date.now() };
    const counting = fresh ? api.count(ns, statusCountQuery(filters.q)).catch(() => undefined) : Promise.resolve(undefined);
    const failing = fresh ? api.count(ns, withClause(splitQuery(filters.q).filter, 'TaskFailing = true')).catch(() => undefined) : undefined;
    try {
      const [res, count, failingCount] = await Promise.all([listing, counting, failing]);
      if (mine !== latest.current) return;
      setRows(res.executions);
      setNext(res.nextPageToken);
      setError(undefined);
      if (count) {
        const by: Record<string, number> = {};
        for (const g of count.groups ?? []) by[String(g.value)] = g.count;
        if (failingCount) by[TASK_FAILING_CHIP] = failingCount.count;
        setCounts({ total: count.count, by });
      }
    } catch (err) {
      if (mine !== latest.current) return;
      const column = err instanceof ApiError ? columnInBox(err, filters, query) : undefined;
      setError({ message: (err as Error).message, query: filters.q, ...(column !== undefined ? { column } : {}) });
      setRows([]);
      setCounts(undefined);
      counted.current.key = '';
    }
  };
  useEffect(() => void load(), [key, token]);
  usePoll(load, 3000, live && tokens.length === 1);

  const go = (patch: Partial<Filters>) => {
    const f = { ...filters, q: draft, ...patch };
    navigate(href('/', { q: f.q.trim(), status: f.status, ns: ns === 'default' ? undefined : ns }));
  };

  const columns = useMemo(() => {
    const all: ListColumn[] = [...BUILT_IN_COLUMNS, ...attributes.filter((a) => !BUILT_IN_COLUMNS.some((c) => c.attribute === a.name))
      .map((a) => attributeColumn(a.name, a.type))];
    return { all, shown: columnIds.map((id) => all.find((c) => c.id === id)).filter((c): c is ListColumn => !!c) };
  }, [attributes, columnIds]);
  const seen = useMemo(() => {
    const values: Record<string, string[]> = {
      WorkflowType: rows?.map((r) => r.workflowType) ?? [],
      TaskQueue: rows?.map((r) => r.taskQueue) ?? [],
      WorkflowId: rows?.map((r) => r.workflowId) ?? [],
    };
    for (const r of rows ?? []) {
      for (const [name, v] of Object.entries(r.searchAttributes ?? {})) {
        for (const one of Array.isArray(v) ? v : [v]) if (typeof one === 'string') (values[name] ??= []).push(one);
      }
    }
    return values;
  }, [rows]);
  const order = orderOf(filters.q) ?? { attribute: 'StartTime', desc: true };
  const sortBy = (attribute: string) => {
    const desc = order.attribute === attribute ? !order.desc : true;
    go({ q: withOrder(draft, attribute, desc) });
  };
  const toggleColumn = (id: string) => {
    const ids = columnIds.includes(id) ? columnIds.filter((c) => c !== id) : columns.all.map((c) => c.id).filter((c) => c === id || columnIds.includes(c));
    setColumnIds(ids);
    saveColumns(ids);
  };

  return (
    <section class="list">
      <form class="filters" onSubmit={(e) => { e.preventDefault(); go({}); }}>
        <QueryBox value={draft} onInput={setDraft} onSubmit={() => go({})} attributes={attributes} seen={seen} {...(error ? { error } : {})} />
        <button type="submit">Search</button>
        <button type="button" aria-expanded={choosing} onClick={() => setChoosing(!choosing)}>Columns…</button>
      </form>
      {choosing && (
        <fieldset class="columns" data-testid="columns">
          <legend>Columns</legend>
          {columns.all.map((c) => (
            <label key={c.id}><input type="checkbox" name={`col-${c.id}`} checked={columnIds.includes(c.id)} onChange={() => toggleColumn(c.id)} /> {c.label}</label>
          ))}
        </fieldset>
      )}
      <div class="chips">
        {['', ...STATUSES, TASK_FAILING_CHIP].map((s) => {
          const n = counts ? (s ? counts.by[s] ?? 0 : counts.total) : undefined;
          return (
            <button type="button" key={s} class={`chip${filters.status === s ? ' on' : ''}`} data-chip={s || 'All'} onClick={() => go({ status: s })}>
              {s === TASK_FAILING_CHIP ? 'Task failing' : s || 'All'}{n !== undefined && <span class="count" data-testid={`count-${s || 'All'}`}>{n.toLocaleString('en')}</span>}
            </button>
          );
        })}
        <span class="grow" />
        <BulkActions namespace={ns} query={query} onDone={() => { counted.current.key = ''; void load(); }} />
        <button type="button" class="toggle" data-testid="live" onClick={() => setLive(!live)}>{live ? '❚❚ Pause live refresh' : '▶ Resume live refresh'}</button>
      </div>
      <table class="grid">
        <thead>
          <tr>
            {columns.shown.map((c) => (
              <th key={c.id} data-col={c.id} aria-sort={c.attribute === order.attribute ? (order.desc ? 'descending' : 'ascending') : undefined}>
                {c.attribute
                  ? <button type="button" class="sort" title={`sort by ${c.attribute}`} onClick={() => sortBy(c.attribute!)}>
                    {c.label}{c.attribute === order.attribute ? (order.desc ? ' ▼' : ' ▲') : ''}
                  </button>
                  : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((r) => <tr key={r.runId}>{columns.shown.map((c) => <td key={c.id}>{c.cell(r, settings.zone)}</td>)}</tr>)}
        </tbody>
      </table>
      {rows && rows.length === 0 && !error && <p class="note">No workflows match.</p>}
      <div class="pager">
        <button type="button" disabled={tokens.length === 1} onClick={() => setTokens(tokens.slice(0, -1))}>← Newer</button>
        <span>page {tokens.length}</span>
        <button type="button" disabled={!next} onClick={() => setTokens([...tokens, next])}>Older →</button>
      </div>
    </section>
  );
}
