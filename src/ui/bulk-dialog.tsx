import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.ts';
import { runBulk, type BulkAction, type BulkProgress } from './bulk.ts';
import { splitQuery } from './query-text.ts';

type Kind = BulkAction['kind'];
const VERB: Record<Kind, string> = { cancel: 'cancel', terminate: 'terminate', signal: 'signal', reset: 'reset' };

function parseArgs(text: string): unknown[] {
  if (text.trim() === '') return [];
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value : [value];
}

/**
 * "Bulk action…" on the workflows list: pick cancel, terminate, signal (name and JSON
 * arguments) or reset (first or last workflow task); the dialog counts what the list's query
 * selects and asks first, then shows done, skipped and failed as the runs are worked through.
 */
export function BulkActions({ namespace, query, onDone }: { namespace: string; query: string; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<Kind>('terminate');
  const [reason, setReason] = useState('');
  const [signalName, setSignalName] = useState('');
  const [args, setArgs] = useState('');
  const [resetType, setResetType] = useState<'FirstWorkflowTask' | 'LastWorkflowTask'>('LastWorkflowTask');
  const [count, setCount] = useState<number | undefined>();
  const [progress, setProgress] = useState<BulkProgress | undefined>();
  const [error, setError] = useState('');
  const stop = useRef<AbortController | undefined>(undefined);
  // Leaving the list stops the action: nothing would show its progress any more.
  useEffect(() => () => stop.current?.abort(), []);

  const close = () => {
    stop.current?.abort();
    setOpen(false);
    setCount(undefined);
    setProgress(undefined);
    setError('');
  };
  const action = (): BulkAction => {
    const why = reason.trim() || `${VERB[kind]} by query from the web UI`;
    if (kind === 'signal') {
      if (!signalName.trim()) throw new Error('signal name must not be empty');
      return { kind, signalName: signalName.trim(), args: parseArgs(args) };
    }
    if (kind === 'reset') return { kind, resetType, reason: why };
    return { kind, reason: why };
  };
  const review = async (e: Event) => {
    e.preventDefault();
    try {
      action();
      setCount((await api.count(namespace, splitQuery(query).filter)).count);
      setError('');
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const start = async () => {
    const ctl = new AbortController();
    stop.current = ctl;
    await runBulk({ namespace, query, action: action(), total: count ?? 0, signal: ctl.signal, onProgress: setProgress });
    onDone();
  };

  if (!open) return <button type="button" onClick={() => setOpen(true)}>Bulk action…</button>;
  const p = progress;
  const pct = p && p.total > 0 ? Math.min(100, Math.round((100 * (p.done + p.skipped + p.failed)) / p.total)) : 0;
  return (
    <div class="modal" role="dialog" aria-label="Bulk action">
      <div class="dialog">
        <h3>Bulk action by query</h3>
        <p class="note">On every run of namespace <b>{namespace}</b> that <code>{query || '(every run)'}</code> selects.</p>
        {count === undefined && (
          <form class="bulk-form" onSubmit={(e) => void review(e)}>
            <label>Action <select name="bulk-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
              <option value="cancel">Cancel</option>
              <option value="terminate">Terminate</option>
              <option value="signal">Signal</option>
              <option value="reset">Reset</option>
            </select></label>
            {kind === 'signal' ? <>
              <label>Signal <input name="bulk-signal" required value={signalName} onInput={(e) => setSignalName(e.currentTarget.value)} /></label>
              <label>Arguments (JSON) <input name="bulk-args" class="mono" placeholder='["pen", 2]' value={args} onInput={(e) => setArgs(e.currentTarget.value)} /></label>
            </> : <label>Reason <input name="bulk-reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} /></label>}
            {kind === 'reset' && (
              <label>To <select name="bulk-reset" value={resetType} onChange={(e) => setResetType(e.currentTarget.value as typeof resetType)}>
                <option value="LastWorkflowTask">the last workflow task</option>
                <option value="FirstWorkflowTask">the first workflow task</option>
              </select></label>
            )}
            <div class="row"><button type="submit">Count the runs…</button><button type="button" onClick={close}>Close</button></div>
          </form>
        )}
        {count !== undefined && !p && (
          <div class="row" data-testid="bulk-confirm">
            <span>{count === 0 ? 'No run matches.' : `${VERB[kind][0]!.toUpperCase()}${VERB[kind].slice(1)} ${count.toLocaleString('en')} run${count === 1 ? '' : 's'}?`}
              {kind !== 'reset' && count > 0 && ' Runs that are no longer running are skipped.'}</span>
            {count > 0 && <button type="button" class="red" onClick={() => void start()}>Yes, {VERB[kind]} {count.toLocaleString('en')}</button>}
            <button type="button" onClick={close}>{count > 0 ? 'No' : 'Close'}</button>
          </div>
        )}
        {p && (
          <div data-testid="bulk-progress">
            <progress max={100} value={pct} />
            <p>
              <b data-testid="bulk-done">{p.done}</b> done, <b data-testid="bulk-skipped">{p.skipped}</b> skipped,{' '}
              <b data-testid="bulk-failed">{p.failed}</b> failed, of {p.total}{p.finished ? (p.stopped ? ' (stopped)' : ' (finished)') : '…'}
            </p>
            {p.error && <p class="error">{p.error}</p>}
            {p.failures.length > 0 && <ul class="error">{p.failures.map((f) => <li key={f.runId}>{f.workflowId}: {f.message}</li>)}</ul>}
            <div class="row">
              {!p.finished && <button type="button" onClick={() => stop.current?.abort()}>Stop</button>}
              {p.finished && <button type="button" onClick={close}>Close</button>}
            </div>
          </div>
        )}
        {error && <p class="error">{error}</p>}
      </div>
    </div>
  );
}
