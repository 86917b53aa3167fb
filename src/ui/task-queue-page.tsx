import { useEffect, useState } from 'preact/hooks';
import type { DescribeTaskQueueResponse, TaskQueueKindStatus } from '../protocol/index.ts';
import { api } from './api.ts';
import { formatDuration, formatRelative, formatTime } from './format.ts';
import { href } from './router.ts';
import { usePoll } from './poll.ts';
import { useSettings } from './settings.tsx';

/** The link to a task queue's page, as the list and a run's page show it. */
export function taskQueueLink(name: string) {
  return <a href={href(`/task-queues/${encodeURIComponent(name)}`, {})} data-testid="task-queue-link">{name}</a>;
}

function Kind({ label, k }: { label: string; k: TaskQueueKindStatus }) {
  const s = k.scheduleToStart;
  return (
    <tr data-kind={label}>
      <td>{label}</td>
      <td class="num" data-testid={`${label}-pollers`}>{k.pollers.length}</td>
      <td class="num" data-testid={`${label}-backlog`}>{k.backlogCount}</td>
      <td>{k.backlogAgeMs === undefined ? '—' : formatDuration(k.backlogAgeMs)}</td>
      <td>{s ? formatDuration(s.p50) : '—'}</td>
      <td>{s ? formatDuration(s.p99) : '—'}</td>
      <td class="num">{s ? s.samples : 0}</td>
    </tr>
  );
}

/** A task queue: its pollers (identity, last poll, rate) and, per kind, backlog and schedule-to-start. */
export function TaskQueuePage({ name }: { name: string }) {
  const [settings] = useSettings();
  const ns = settings.namespace;
  const [d, setD] = useState<DescribeTaskQueueResponse | undefined>();
  const [error, setError] = useState('');
  const refresh = async () => {
    try {
      setD(await api.describeTaskQueue(ns, name));
      setError('');
    } catch (err) {
      setError((err as Error).message);
    }
  };
  useEffect(() => {
    setD(undefined);
    void refresh();
  }, [ns, name]);
  usePoll(refresh, 3000, true);

  if (error && !d) return <p class="error">{error}</p>;
  if (!d) return <p class="note">Loading…</p>;
  const pollers = [...d.workflow.pollers.map((p) => ({ kind: 'workflow', ...p })), ...d.activity.pollers.map((p) => ({ kind: 'activity', ...p }))];
  return (
    <section class="task-queue">
      <h2><span data-testid="task-queue-name">{d.taskQueue}</span> <span class="sub">task queue</span></h2>
      {error && <p class="error">{error}</p>}
      <dl class="facts">
        <dt>Namespace</dt><dd>{d.namespace}</dd>
        <dt>Last poll</dt><dd data-testid="last-poll">{d.lastPollTime ? `${formatRelative(d.lastPollTime, Date.now())} (${formatTime(d.lastPollTime, settings.zone)})` : 'none in the last 5 minutes'}</dd>
        <dt>Workflows</dt><dd><a href={href('/', { q: `TaskQueue = '${d.taskQueue}'`, status: 'Running' })}>running on this queue</a></dd>
      </dl>
      <h3>Tasks</h3>
      <table class="grid" data-testid="task-queue-kinds">
        <thead><tr><th>Kind</th><th>Pollers</th><th>Backlog</th><th>Oldest task</th><th>Schedule-to-start p50</th><th>p99</th><th>Started (5 min)</th></tr></thead>
        <tbody><Kind label="workflow" k={d.workflow} /><Kind label="activity" k={d.activity} /></tbody>
      </table>
      <h3>Pollers</h3>
      {pollers.length === 0
        ? <p class="panel error" data-testid="no-pollers">No worker has polled this queue in the last 5 minutes: runs waiting on it do not move.</p>
        : (
          <table class="grid" data-testid="pollers">
            <thead><tr><th>Identity</th><th>Kind</th><th>Last poll</th><th>Polls per second</th></tr></thead>
            <tbody>
              {pollers.map((p) => (
                <tr key={`${p.kind}-${p.identity}`}>
                  <td>{p.identity}</td><td>{p.kind}</td>
                  <td class="mono" title={formatTime(p.lastAccessTime, settings.zone)}>{formatRelative(p.lastAccessTime, Date.now())}</td>
                  <td class="num">{p.ratePerSecond}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </section>
  );
}
