import { useEffect, useState } from 'preact/hooks';
import { api } from './api.ts';
import { json } from './format.ts';

interface Target { namespace: string; workflowId: string; runId: string }

function parseArgs(text: string): unknown[] {
  if (text.trim() === '') return [];
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value : [value];
}

type Kind = 'signal' | 'query' | 'update';

/** Handler names by kind, from the built-in `__temporal_workflow_metadata` query; empty when the run cannot answer it. */
type HandlerNames = Record<Kind, string[]>;
const NO_NAMES: HandlerNames = { signal: [], query: [], update: [] };

function useHandlerNames(target: Target, running: boolean): HandlerNames {
  const [names, setNames] = useState<HandlerNames>(NO_NAMES);
  useEffect(() => {
    setNames(NO_NAMES);
    if (!running) return;
    let live = true;
    api.query(target.namespace, target.workflowId, target.runId, '__temporal_workflow_metadata', []).then((r) => {
      const d = (r.result as { definition?: Record<string, { name: string }[] | undefined> } | undefined)?.definition;
      if (!live || !d) return;
      const list = (key: string) => (d[key] ?? []).map((x) => x.name);
      setNames({ signal: list('signalDefinitions'), query: list('queryDefinitions'), update: list('updateDefinitions') });
    }, () => undefined);
    return () => void (live = false);
  }, [target.namespace, target.workflowId, target.runId, running]);
  return names;
}

/** Sends a signal, query or update with JSON arguments and shows the answer. */
function MessageForm({ kind, target, onDone, names }: { kind: Kind; target: Target; onDone: () => void; names: string[] }) {
  const [name, setName] = useState('');
  const [args, setArgs] = useState('');
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | undefined>();
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const a = parseArgs(args);
      const { namespace, workflowId, runId } = target;
      let text = '';
      if (kind === 'signal') {
        await api.signal(namespace, workflowId, runId, name, a);
        text = `signal ${name} sent`;
      } else if (kind === 'query') {
        const r = await api.query(namespace, workflowId, runId, name, a);
        if (r.failure) throw new Error(r.failure.message);
        if (r.queryRejected) throw new Error(`rejected: the run is ${r.queryRejected.status}`);
        text = json(r.result) || 'undefined';
      } else {
        const r = await api.update(namespace, workflowId, runId, name, a);
        const o = r.outcome as { failure?: { message: string }; result?: unknown } | undefined;
        if (o?.failure) throw new Error(o.failure.message);
        text = json(o?.result) || r.stage;
      }
      setAnswer({ ok: true, text });
      onDone();
    } catch (err) {
      setAnswer({ ok: false, text: (err as Error).message });
    }
  };
  return (
    <form class="message" data-form={kind} onSubmit={submit}>
      <b>{kind[0]!.toUpperCase() + kind.slice(1)}</b>
      <input name="name" required placeholder={`${kind} name`} list={`${kind}-names`} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <datalist id={`${kind}-names`} data-testid={`${kind}-names`}>{names.map((n) => <option key={n} value={n} />)}</datalist>
      <input name="args" class="mono" placeholder='arguments as JSON, e.g. ["pen", 2]' value={args} onInput={(e) => setArgs(e.currentTarget.value)} />
      <button type="submit">Send {kind}</button>
      {answer && <pre class={answer.ok ? 'answer' : 'answer error'}>{answer.text}</pre>}
    </form>
  );
}

/** Cancel or terminate, each behind a confirmation. */
function Danger({ target, onDone }: { target: Target; onDone: () => void }) {
  const [confirm, setConfirm] = useState<'cancel' | 'terminate' | undefined>();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const run = async () => {
    try {
      if (confirm === 'cancel') await api.cancel(target.namespace, target.workflowId, target.runId);
      else await api.terminate(target.namespace, target.workflowId, target.runId, reason || 'terminated from the web UI');
      setConfirm(undefined);
      setError('');
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div class="danger">
      {!confirm && <>
        <button type="button" onClick={() => setConfirm('cancel')}>Cancel workflow…</button>
        <button type="button" class="red" onClick={() => setConfirm('terminate')}>Terminate…</button>
      </>}
      {confirm && (
        <div class="confirm" role="alertdialog">
          <span>{confirm === 'cancel' ? 'Ask the workflow to cancel?' : 'Terminate the run now? Its code gets no chance to clean up.'}</span>
          {confirm === 'terminate' && <input name="reason" placeholder="reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />}
          <button type="button" class="red" onClick={() => void run()}>Yes, {confirm}</button>
          <button type="button" onClick={() => setConfirm(undefined)}>No</button>
        </div>
      )}
      {error && <p class="error">{error}</p>}
    </div>
  );
}

/** The workflow page's action panel. */
export function Actions({ target, running, onDone }: { target: Target; running: boolean; onDone: () => void }) {
  const names = useHandlerNames(target, running);
  return (
    <div class="actions">
      <MessageForm kind="query" target={target} onDone={onDone} names={names.query} />
      {running && <MessageForm kind="signal" target={target} onDone={onDone} names={names.signal} />}
      {running && <MessageForm kind="update" target={target} onDone={onDone} names={names.update} />}
      {running && <Danger target={target} onDone={onDone} />}
    </div>
  );
}
