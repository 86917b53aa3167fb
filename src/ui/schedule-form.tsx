import { useEffect, useState } from 'preact/hooks';
import { SCHEDULE_OVERLAP_POLICIES } from '../protocol/index.ts';
import { api } from './api.ts';
import { navigate } from './router.ts';
import { createRequest, emptyForm, formFromDescription, previewTimes, updateRequest, type ScheduleForm, type SpecKind } from './schedule-form-model.ts';
import { formatTime } from './format.ts';
import { useSettings } from './settings.tsx';

/** A schedule's page path. */
export const schedulePath = (id: string) => `/schedules/${encodeURIComponent(id)}`;

/** The spec's next 10 times as the form stands, or what is wrong with it. */
function Preview({ form, zone }: { form: ScheduleForm; zone: 'utc' | 'local' }) {
  const p = previewTimes(form, Date.now());
  if ('error' in p) return <p class="error" data-testid="preview-error">{p.error}</p>;
  return (
    <div class="preview">
      <span class="note">Next {p.times.length} times</span>
      <ol class="next-times mono" data-testid="preview">{p.times.map((t) => <li key={t}>{formatTime(t, zone)}</li>)}</ol>
    </div>
  );
}

/** Creates a schedule (no `scheduleId`) or edits one: spec as cron, interval or JSON, the workflow to start, policies. */
export function ScheduleFormPage({ scheduleId }: { scheduleId?: string }) {
  const [settings] = useSettings();
  const ns = settings.namespace;
  const [form, setForm] = useState<ScheduleForm | undefined>(scheduleId ? undefined : emptyForm());
  const [token, setToken] = useState<number | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!scheduleId) return;
    api.describeSchedule(ns, scheduleId).then((d) => {
      setForm(formFromDescription(d));
      setToken(d.conflictToken);
    }, (err: Error) => setError(err.message));
  }, [ns, scheduleId]);
  if (!form) return <section>{error ? <p class="error">{error}</p> : <p class="note">Loading…</p>}</section>;

  const set = (patch: Partial<ScheduleForm>) => setForm({ ...form, ...patch });
  const text = (name: keyof ScheduleForm, label: string, extra: Record<string, unknown> = {}) => (
    <label>{label}<input name={name} value={form[name] as string} onInput={(e) => set({ [name]: e.currentTarget.value })} {...extra} /></label>
  );
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      if (scheduleId) await api.updateSchedule(updateRequest(form, ns, token!));
      else await api.createSchedule(createRequest(form, ns));
      navigate(schedulePath(form.scheduleId.trim()));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h2>{scheduleId ? <>Edit schedule <span class="mono">{scheduleId}</span></> : 'New schedule'}</h2>
      <form class="schedule-form" onSubmit={(e) => void submit(e)}>
        <fieldset>
          <legend>Schedule</legend>
          {text('scheduleId', 'Schedule ID', { required: true, disabled: !!scheduleId })}
          <label>Spec written as
            <select name="specKind" value={form.specKind} onChange={(e) => set({ specKind: e.currentTarget.value as SpecKind })}>
              <option value="cron">cron expressions</option>
              <option value="interval">an interval</option>
              <option value="json">calendars or a full spec (JSON)</option>
            </select>
          </label>
          {form.specKind === 'cron' && (
            <label>Cron expressions, one per line (minute hour day-of-month month day-of-week)
              <textarea name="cron" class="mono" rows={3} value={form.cron} onInput={(e) => set({ cron: e.currentTarget.value })} />
            </label>
          )}
          {form.specKind === 'interval' && <div class="pair">{text('every', 'Every (e.g. 1 hour, 30s, 90m)')}{text('offset', 'Offset (e.g. 15 minutes)')}</div>}
          {form.specKind === 'json' && (
            <label>Spec (intervals, calendars, cronExpressions, skip, startAt, endAt, jitter, timezone)
              <textarea name="specJson" class="mono" rows={12} value={form.specJson} onInput={(e) => set({ specJson: e.currentTarget.value })} />
            </label>
          )}
          {form.specKind !== 'json' && <div class="pair">{text('timezone', 'Time zone (IANA)')}{text('jitter', 'Jitter (e.g. 30s)')}</div>}
          <Preview form={form} zone={settings.zone} />
        </fieldset>
        <fieldset>
          <legend>Action: start a workflow</legend>
          {text('workflowType', 'Workflow type', { required: true })}
          {text('taskQueue', 'Task queue', { required: true })}
          {text('workflowId', 'Workflow ID (each start adds -<time>)', { required: true })}
          {text('args', 'Arguments as JSON, e.g. ["pen", 2]', { class: 'mono' })}
          <label>More options as JSON: memo, searchAttributes, retryPolicy, workflowExecutionTimeoutMs, workflowRunTimeoutMs, workflowTaskTimeoutMs
            <textarea name="actionExtra" class="mono" rows={form.actionExtra ? 5 : 2} placeholder='{ "memo": { "team": "ops" }, "workflowRunTimeoutMs": 60000 }'
              value={form.actionExtra} onInput={(e) => set({ actionExtra: e.currentTarget.value })} />
          </label>
        </fieldset>
        <fieldset>
          <legend>Policies</legend>
          <label>When a started workflow still runs
            <select name="overlap" value={form.overlap} onChange={(e) => set({ overlap: e.currentTarget.value as ScheduleForm['overlap'] })}>
              {SCHEDULE_OVERLAP_POLICIES.map((p) => <option key={p} value={p}>{p}</option>)}
            </select>
          </label>
          {text('catchupWindow', 'Catch-up window (e.g. 1m, 1h)')}
          <label class="check"><input type="checkbox" name="pauseOnFailure" checked={form.pauseOnFailure} onChange={(e) => set({ pauseOnFailure: e.currentTarget.checked })} /> Pause when a started workflow fails</label>
          {!scheduleId && <>
            <label class="check"><input type="checkbox" name="paused" checked={form.paused} onChange={(e) => set({ paused: e.currentTarget.checked })} /> Create paused</label>
            {form.paused && text('note', 'Note')}
          </>}
        </fieldset>
        <div class="row">
          <button type="submit" disabled={busy}>{scheduleId ? 'Save' : 'Create schedule'}</button>
          <a href={scheduleId ? schedulePath(scheduleId) : '/schedules'}>Cancel</a>
        </div>
        {error && <p class="error" data-testid="form-error">{error}</p>}
      </form>
    </section>
  );
}
