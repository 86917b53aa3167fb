import { useEffect, useRef, useState } from 'preact/hooks';
import type { ScheduleListEntry } from '../protocol/index.ts';
import { api } from './api.ts';
import { formatRelative, formatTime } from './format.ts';
import { usePoll } from './poll.ts';
import { schedulePath } from './schedule-form.tsx';
import { useSettings } from './settings.tsx';
import { StatusBadge } from './status.tsx';

/** A schedule's health: `Healthy`, or `Unhealthy` with the reason when known. */
export function Health({ healthy, reason }: { healthy: boolean; reason?: string | undefined }) {
  return healthy
    ? <span class="badge s-Completed" data-health="healthy">Healthy</span>
    : <span class="unhealthy" data-health="unhealthy"><span class="badge s-Failed">Unhealthy</span>{reason && <span class="note"> {reason}</span>}</span>;
}

/** The schedules of the namespace with their health, next fire, and skipped and missed counts; refreshed every 3 s. */
export function SchedulesPage() {
  const [settings] = useSettings();
  const ns = settings.namespace;
  const [rows, setRows] = useState<ScheduleListEntry[] | undefined>();
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [next, setNext] = useState<string | undefined>();
  const [error, setError] = useState('');
  const [now, setNow] = useState(Date.now());
  const latest = useRef(0);

  const load = async (more?: string) => {
    const mine = ++latest.current;
    try {
      const res = await api.schedules(ns, more);
      if (mine !== latest.current) return;
      setRows(more ? [...(rows ?? []), ...res.schedules] : res.schedules);
      setNext(res.nextPageToken);
      setError('');
      setNow(Date.now());
      // The list says only whether a schedule is healthy; describe says why it is not.
      const sick = res.schedules.filter((s) => !s.healthy);
      const found = await Promise.all(sick.map((s) => api.describeSchedule(ns, s.scheduleId).then((d) => [s.scheduleId, d.info.unhealthyReason ?? ''] as const, () => undefined)));
      if (mine === latest.current) setReasons(Object.fromEntries(found.filter((f): f is readonly [string, string] => !!f)));
    } catch (err) {
      if (mine === latest.current) setError((err as Error).message);
    }
  };
  useEffect(() => {
    setRows(undefined);
    void load();
  }, [ns]);
  usePoll(() => load(), 3000, !next);

  return (
    <section>
      <h2>Schedules <span class="grow" /><a class="button" href="/schedules/new">New schedule</a></h2>
      {error && <p class="error">{error}</p>}
      <table class="grid schedules">
        <thead><tr><th>Schedule ID</th><th>Workflow type</th><th>State</th><th>Health</th><th>Next fire</th><th class="num">Actions</th><th class="num">Skipped</th><th class="num">Missed</th><th class="num">Failed</th><th>Last action</th></tr></thead>
        <tbody>
          {rows?.map((s) => {
            const last = s.recentActions[s.recentActions.length - 1];
            return (
              <tr key={s.scheduleId} data-schedule={s.scheduleId}>
                <td><a href={schedulePath(s.scheduleId)}>{s.scheduleId}</a></td>
                <td>{s.workflowType}</td>
                <td>{s.paused ? <span title={s.note}><span class="badge s-Canceled">Paused</span>{s.note && <span class="note"> {s.note}</span>}</span> : 'Active'}</td>
                <td><Health healthy={s.healthy} reason={reasons[s.scheduleId]} /></td>
                <td class="mono" title={formatTime(s.nextActionTime, settings.zone)}>{s.nextActionTime ? `${formatTime(s.nextActionTime, settings.zone)} (${formatRelative(s.nextActionTime, now)})` : '—'}</td>
                <td class="num">{s.counters.actions}</td>
                <td class="num" data-testid="skipped">{s.counters.skipped + s.counters.bufferOverruns}</td>
                <td class="num" data-testid="missed">{s.counters.missedCatchup}</td>
                <td class="num">{s.counters.failed}</td>
                <td>{last ? <><StatusBadge status={last.status} /> <a href={`/workflows/${encodeURIComponent(last.workflowId)}/${last.runId}`}>{last.workflowId}</a></> : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows && rows.length === 0 && <p class="note">No schedules in namespace {ns}. <a href="/schedules/new">Create one</a>.</p>}
      {next && <div class="pager"><button type="button" onClick={() => void load(next)}>More</button></div>}
    </section>
  );
}
