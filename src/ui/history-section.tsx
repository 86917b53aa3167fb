import { useMemo, useState } from 'preact/hooks';
import type { HistoryEvent } from '../history/events.ts';
import { compactHistory, type CompactRow } from './compact-history.ts';
import { FailureView } from './failure-view.tsx';
import { formatDuration, formatTime } from './format.ts';
import { HistoryTable } from './history-table.tsx';
import { useSettings } from './settings.tsx';

function CompactTable({ rows, now }: { rows: readonly CompactRow[]; now: number }) {
  const [settings] = useSettings();
  const [open, setOpen] = useState<number | undefined>();
  if (rows.length === 0) return <p class="note" data-testid="compact-empty">No activities, timers, children or updates in this run.</p>;
  return (
    <div class="compact-history" data-testid="compact-history">
      <table>
        <thead><tr><th>#</th><th>Kind</th><th>Name</th><th>Id</th><th>Attempts</th><th>Start</th><th>Duration</th><th>Outcome</th></tr></thead>
        <tbody>
          {rows.flatMap((r) => {
            const end = r.endTime ? Date.parse(r.endTime) : now;
            const line = (
              <tr key={r.firstEventId} data-testid="compact-row" class={r.failure ? 'failed' : ''}
                onClick={() => r.failure && setOpen(open === r.firstEventId ? undefined : r.firstEventId)}>
                <td class="num">{r.firstEventId}</td>
                <td>{r.kind}</td>
                <td><span class="mono">{r.name}</span>{r.summary !== undefined && <span class="summary" data-testid="compact-summary">{r.summary}</span>}</td>
                <td class="mono">{r.detail}</td>
                <td>{r.attempts ?? ''}</td>
                <td class="mono">{formatTime(r.startTime, settings.zone)}</td>
                <td>{formatDuration(end - Date.parse(r.startTime))}</td>
                <td data-testid="compact-outcome">{r.outcome}{r.failure ? ` — ${r.failure.message}` : ''}</td>
              </tr>
            );
            return open === r.firstEventId && r.failure
              ? [line, <tr key={`${r.firstEventId}-f`}><td colSpan={8}><FailureView failure={r.failure} /></td></tr>]
              : [line];
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The run's history two ways: compact (one row per activity, timer, child and update) or the
 * raw event list, which can be narrowed to one event type.
 */
export function HistorySection({ events, now }: { events: readonly HistoryEvent[]; now: number }) {
  const [view, setView] = useState<'compact' | 'raw'>('raw');
  const [type, setType] = useState('');
  const rows = useMemo(() => compactHistory(events), [events, events.length]);
  const types = useMemo(() => [...new Set(events.map((e) => e.eventType))].sort(), [events, events.length]);
  const shown = useMemo(() => (type ? events.filter((e) => e.eventType === type) : events), [events, events.length, type]);
  return (
    <div class="history-section">
      <div class="history-controls">
        <span role="group" aria-label="history view">
          <button type="button" class="toggle" aria-pressed={view === 'compact'} data-testid="view-compact" onClick={() => setView('compact')}>Compact</button>
          <button type="button" class="toggle" aria-pressed={view === 'raw'} data-testid="view-raw" onClick={() => setView('raw')}>All events</button>
        </span>
        {view === 'raw' && (
          <label>event type{' '}
            <select data-testid="event-type-filter" value={type} onChange={(e) => setType(e.currentTarget.value)}>
              <option value="">all</option>
              {types.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          </label>
        )}
      </div>
      {view === 'compact' ? <CompactTable rows={rows} now={now} /> : <HistoryTable key={type} events={shown} />}
    </div>
  );
}
