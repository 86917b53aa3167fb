import { useEffect, useRef, useState } from 'preact/hooks';
import { SCHEDULE_OVERLAP_POLICIES, type ScheduleDescription, type ScheduleOverlapPolicy } from '../protocol/index.ts';
import { api } from './api.ts';
import { formatDuration, formatRelative, formatTime, json } from './format.ts';
import { usePoll } from './poll.ts';
import { navigate } from './router.ts';
import { schedulePath } from './schedule-form.tsx';
import { Health } from './schedules-page.tsx';
import { specSummary } from './spec-summary.ts';
import { useSettings } from './settings.tsx';
import { StatusBadge } from './status.tsx';

const workflowPath = (workflowId: string, runId: string) => `/workflows/${encodeURIComponent(workflowId)}/${runId}`;

type Panel = 'pause' | 'trigger' | 'backfill' | 'delete' | undefined;

function OverlapSelect({ value, onChange, name }: { value: string; onChange: (v: string) => void; name: string }) {
  return (
    <select name={name} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">the schedule's policy</option>
      {SCHEDULE_OVERLAP_POLICIES.map((p) => <option key={p} value={p}>{p}</option>)}
    </select>
  );
}

/** Pause or unpause with a note, trigger now, backfill a range, delete: each opened, then confirmed. */
function ScheduleActions({ d, ns, onDone }: { d: ScheduleDescription; ns: string; onDone: () => void }) {
  const [panel, setPanel] = useState<Panel>();
  const [note, setNote] = useState('');
  const [overlap, setOverlap] = useState('');
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const [range, setRange] = useState({ start: hourAgo, end: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>();
  const ref = { namespace: ns, scheduleId: d.scheduleId };
  const over = overlap ? { overlap: overlap as ScheduleOverlapPolicy } : {};

  const run = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      setPanel(undefined);
      setMessage({ ok: true, text: done });
      onDone();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  };
  const backfill = () => {
    const startTime = Date.parse(range.start);
    const endTime = Date.parse(range.end);
    if (Number.isNaN(startTime)) throw new Error(`backfill start must be an RFC 3339 time, got ${JSON.stringify(range.start)}`);
    if (Number.isNaN(endTime)) throw new Error(`backfill end must be an RFC 3339 time, got ${JSON.stringify(range.end)}`);
    return api.patchSchedule({ ...ref, backfill: [{ startTime, endTime, ...over }] });
  };
  const open = (p: Panel) => {
    setPanel(p);
    setMessage(undefined);
  };

  return (
    <div class="schedule-actions">
      <div class="row">
        <a class="button" href={`${schedulePath(d.scheduleId)}/edit`}>Edit</a>
        <button type="button" onClick={() => open('pause')}>{d.state.paused ? 'Unpause…' : 'Pause…'}</button>
        <button type="button" onClick={() => open('trigger')}>Trigger…</button>
        <button type="button" onClick={() => open('backfill')}>Backfill…</button>
        <button type="button" class="red" onClick={() => open('delete')}>Delete…</button>
      </div>
      {panel && (
        <div class="confirm panel" role="alertdialog" data-panel={panel}>
          {panel === 'pause' && <>
            <span>{d.state.paused ? 'Unpause: the spec takes actions again.' : 'Pause: no scheduled actions until unpaused (trigger and backfill still act).'}</span>
            <input name="note" placeholder="note (why)" value={note} onInput={(e) => setNote(e.currentTarget.value)} />
            <button type="button" onClick={() => void run(() => api.patchSchedule({ ...ref, ...(d.state.paused ? { unpause: note } : { pause: note }) }), d.state.paused ? 'unpaused' : 'paused')}>
              Yes, {d.state.paused ? 'unpause' : 'pause'}
            </button>
          </>}
          {panel === 'trigger' && <>
            <span>Take one action now, overlap policy</span>
            <OverlapSelect name="trigger-overlap" value={overlap} onChange={setOverlap} />
            <button type="button" onClick={() => void run(() => api.patchSchedule({ ...ref, trigger: over }), 'triggered')}>Yes, trigger</button>
          </>}
          {panel === 'backfill' && <>
            <span>Take every action of the spec from</span>
            <input name="backfill-start" class="mono" value={range.start} onInput={(e) => setRange({ ...range, start: e.currentTarget.value })} />
            <span>to</span>
            <input name="backfill-end" class="mono" value={range.end} onInput={(e) => setRange({ ...range, end: e.currentTarget.value })} />
            <OverlapSelect name="backfill-overlap" value={overlap} onChange={setOverlap} />
            <button type="button" onClick={() => void run(backfill, 'backfill requested')}>Yes, backfill</button>
          </>}
          {panel === 'delete' && <>
            <span>Delete the schedule? Workflows it started keep running.</span>
            <button type="button" class="red" onClick={() => void run(async () => { await api.deleteSchedule(ns, d.scheduleId); navigate('/schedules'); }, 'deleted')}>Yes, delete</button>
          </>}
          <button type="button" onClick={() => setPanel(undefined)}>No</button>
        </div>
      )}
      {message && <p class={message.ok ? 'note answer-line' : 'error'} data-testid="schedule-message">{message.text}</p>}
    </div>
  );
}

/** A schedule: state and health, canonical spec, next 10 times, recent actions with links, counters, incidents; refreshed every 2 s. */
export function SchedulePage({ scheduleId }: { scheduleId: string }) {
  const [settings] = useSettings();
  const ns = settings.namespace;
  const zone = settings.zone;
  const [d, setD] = useState<ScheduleDescription | undefined>();
  const [error, setError] = useState('');
  const [now, setNow] = useState(Date.now());
  const latest = useRef(0);
  const load = async () => {
    const mine = ++latest.current;
    try {
      const got = await api.describeSchedule(ns, scheduleId);
      if (mine !== latest.current) return;
      setD(got);
      setNow(Date.now());
      setError('');
    } catch (err) {
      if (mine === latest.current) setError((err as Error).message);
    }
  };
  useEffect(() => void load(), [ns, scheduleId]);
  usePoll(load, 2000, true);
  if (!d) return <section>{error ? <p class="error">{error}</p> : <p class="note">Loading…</p>}</section>;
  const i = d.info;
  const c = i.counters;
  const { workflowType: _t, taskQueue: _q, workflowId: _w, args: _a, ...extra } = d.action;

  return (
    <section class="schedule">
      <h2>
        <span class="mono">{d.scheduleId}</span>
        {d.state.paused ? <span class="badge s-Canceled" data-state="paused">Paused</span> : <span class="badge s-Running" data-state="active">Active</span>}
        <Health healthy={i.healthy} reason={i.unhealthyReason} />
        <span class="sub"><a href="/schedules">all schedules</a></span>
      </h2>
      {d.state.note && <p class="note" data-testid="note">Note: {d.state.note}</p>}
      <ScheduleActions d={d} ns={ns} onDone={() => void load()} />
      {error && <p class="error">{error}</p>}
      <div class="cols">
        <div>
          <h3>Action</h3>
          <dl class="facts">
            <dt>Workflow type</dt><dd>{d.action.workflowType}</dd>
            <dt>Task queue</dt><dd>{d.action.taskQueue}</dd>
            <dt>Workflow ID</dt><dd class="mono">{d.action.workflowId}-&lt;time&gt;</dd>
            {d.action.args && d.action.args.length > 0 && <><dt>Arguments</dt><dd class="mono">{JSON.stringify(d.action.args)}</dd></>}
            {Object.keys(extra).length > 0 && <><dt>Options</dt><dd><pre class="json" data-testid="action-options">{json(extra)}</pre></dd></>}
            <dt>Overlap</dt><dd>{d.policies.overlap}</dd>
            <dt>Catch-up window</dt><dd>{formatDuration(d.policies.catchupWindowMs)}</dd>
            <dt>Pause on failure</dt><dd>{d.policies.pauseOnFailure ? 'yes' : 'no'}</dd>
            <dt>Remaining actions</dt><dd>{d.state.remainingActions ?? 'unlimited'}</dd>
            <dt>Created</dt><dd class="mono">{formatTime(i.createTime, zone)}</dd>
            <dt>Updated</dt><dd class="mono">{formatTime(i.updateTime, zone)}</dd>
          </dl>
          <h3>Counters</h3>
          <dl class="facts counters" data-testid="counters">
            <dt>Actions</dt><dd data-counter="actions">{c.actions}</dd>
            <dt>Skipped</dt><dd data-counter="skipped">{c.skipped}</dd>
            <dt>Buffer overruns</dt><dd data-counter="bufferOverruns">{c.bufferOverruns}</dd>
            <dt>Missed (catch-up)</dt><dd data-counter="missedCatchup">{c.missedCatchup}</dd>
            <dt>Failed</dt><dd data-counter="failed">{c.failed}</dd>
            <dt>Buffered now</dt><dd>{i.bufferedActions}</dd>
            <dt>Backfill left</dt><dd>{i.backfillsPending}</dd>
          </dl>
        </div>
        <div>
          <h3>Spec (canonical)</h3>
          <p data-testid="spec-summary">{specSummary(d.spec)}</p>
          <pre class="json" data-testid="spec">{json(d.spec)}</pre>
          <h3>Next {i.nextActionTimes.length} times</h3>
          <ol class="next-times mono" data-testid="next-times">
            {i.nextActionTimes.map((t) => <li key={t}>{formatTime(t, zone)} <span class="note">({formatRelative(t, now)})</span></li>)}
          </ol>
          {i.nextActionTimes.length === 0 && <p class="note">None: the spec has no more times, or the schedule is out of actions.</p>}
        </div>
      </div>
      <h3>Recent actions</h3>
      <table class="grid" data-testid="recent-actions">
        <thead><tr><th>Scheduled</th><th>Taken</th><th>Workflow</th><th>Status</th></tr></thead>
        <tbody>
          {[...i.recentActions].reverse().map((a) => (
            <tr key={a.runId}>
              <td class="mono">{formatTime(a.scheduledAt, zone)}</td>
              <td class="mono">{formatTime(a.takenAt, zone)}</td>
              <td><a href={workflowPath(a.workflowId, a.runId)}>{a.workflowId}</a></td>
              <td><StatusBadge status={a.status} /></td>
            </tr>
          ))}
        </tbody>
      </table>
      {i.recentActions.length === 0 && <p class="note">No actions yet.</p>}
      {i.runningWorkflows.length > 0 && <p>Running: {i.runningWorkflows.map((w) => <a key={w.runId} href={workflowPath(w.workflowId, w.runId)}>{w.workflowId} </a>)}</p>}
      {i.lastFailure && <div class="panel error"><h4>Last failure</h4><pre class="json">{json(i.lastFailure)}</pre></div>}
      <h3>Incidents</h3>
      {i.incidents.length === 0 ? <p class="note">None.</p> : (
        <table class="grid" data-testid="incidents">
          <thead><tr><th>Kind</th><th>Scheduled</th><th>At</th><th>Detail</th></tr></thead>
          <tbody>
            {[...i.incidents].reverse().map((x, k) => (
              <tr key={k}><td>{x.kind}</td><td class="mono">{formatTime(x.scheduledAt, zone)}</td><td class="mono">{formatTime(x.at, zone)}</td><td>{x.detail}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
