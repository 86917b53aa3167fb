import { useState } from 'preact/hooks';
import type { HistoryEvent } from '../history/events.ts';
import type { ResetReapplyExcludeType } from '../protocol/index.ts';
import { api } from './api.ts';
import { formatTime } from './format.ts';
import { navigate } from './router.ts';

/**
 * Reset behind a confirmation: pick one of the run's WorkflowTaskCompleted events (the last by
 * default), give a reason, choose whether later signals and later updates are re-applied (each on
 * its own, as `--reapply-exclude` does); then go to the new run.
 */
export function ResetAction({ namespace, workflowId, runId, events, zone }: {
  namespace: string; workflowId: string; runId: string; events: readonly HistoryEvent[]; zone: 'utc' | 'local';
}) {
  const points = events.filter((e) => e.eventType === 'WorkflowTaskCompleted');
  const [open, setOpen] = useState(false);
  const [eventId, setEventId] = useState<number | undefined>();
  const [reason, setReason] = useState('');
  const [signals, setSignals] = useState(true);
  const [updates, setUpdates] = useState(true);
  const [error, setError] = useState('');
  if (points.length === 0) return null;
  const chosen = eventId ?? points[points.length - 1]!.eventId;
  const run = async () => {
    try {
      const exclude: ResetReapplyExcludeType[] = [...(signals ? [] : ['Signal' as const]), ...(updates ? [] : ['Update' as const])];
      const res = await api.resetTo(namespace, workflowId, runId, chosen, reason || 'reset from the web UI', exclude);
      setOpen(false);
      navigate(`/workflows/${encodeURIComponent(workflowId)}/${res.runId}`);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  if (!open) return <div class="danger"><button type="button" onClick={() => { setOpen(true); setError(''); }}>Reset…</button></div>;
  return (
    <div class="danger">
      <div class="confirm" role="alertdialog" aria-label="Reset">
        <span>Reset to</span>
        <select name="reset-event" value={String(chosen)} onChange={(e) => setEventId(Number(e.currentTarget.value))}>
          {points.map((e, i) => (
            <option key={e.eventId} value={String(e.eventId)}>
              event {e.eventId}, workflow task {i + 1}{i === 0 ? ' (first)' : ''}{i === points.length - 1 ? ' (last)' : ''}, {formatTime(e.eventTime, zone)}
            </option>
          ))}
        </select>
        <input name="reset-reason" placeholder="reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        <label><input type="checkbox" name="reapply-signals" checked={signals} onChange={(e) => setSignals(e.currentTarget.checked)} /> re-apply later signals</label>
        <label><input type="checkbox" name="reapply-updates" checked={updates} onChange={(e) => setUpdates(e.currentTarget.checked)} /> re-apply later updates</label>
        <span class="note">The open run, if any, is terminated; a new run replays up to that task and carries on.</span>
        <button type="button" class="red" onClick={() => void run()}>Yes, reset</button>
        <button type="button" onClick={() => setOpen(false)}>No</button>
      </div>
      {error && <p class="error">{error}</p>}
    </div>
  );
}
