import { useState } from 'preact/hooks';
import { call, type ApiError } from './api.ts';
import { uiIdentity } from './credential.ts';
import { href, navigate } from './router.ts';
import { useSettings } from './settings.tsx';
import { readStartForm, type StartFormFields } from './start-form-model.ts';

const FIELDS: { key: keyof StartFormFields; label: string; placeholder: string }[] = [
  { key: 'workflowType', label: 'Workflow type', placeholder: 'orderWorkflow' },
  { key: 'workflowId', label: 'Workflow ID', placeholder: 'order-1234' },
  { key: 'taskQueue', label: 'Task queue', placeholder: 'orders' },
];

/** Starts a workflow: type, id, task queue and args as JSON; each field's error is shown beside it. */
export function StartWorkflowPage() {
  const [settings] = useSettings();
  const [fields, setFields] = useState<StartFormFields>({ workflowType: '', workflowId: '', taskQueue: '', args: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof StartFormFields, string>>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (key: keyof StartFormFields, value: string) => setFields({ ...fields, [key]: value });
  const submit = async () => {
    const read = readStartForm(fields);
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    setFailure('');
    setBusy(true);
    try {
      const r = await call<{ runId: string }>('startWorkflowExecution', { namespace: settings.namespace, ...read.request, identity: uiIdentity() });
      navigate(href(`/workflows/${encodeURIComponent(read.request.workflowId)}/${r.runId}`, {}));
    } catch (err) {
      const e = err as ApiError;
      const field = e.field?.split('.')[0] as keyof StartFormFields | undefined;
      if (field && field in fields) setErrors({ [field]: e.message });
      else setFailure(e.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="start-form">
      <h2>Start a workflow <span class="sub">in namespace {settings.namespace}</span></h2>
      <form class="panel" data-testid="start-form" noValidate onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        {FIELDS.map((f) => (
          <label key={f.key} class="field">
            <span>{f.label}</span>
            <input name={f.key} value={fields[f.key]} placeholder={f.placeholder} aria-invalid={errors[f.key] ? 'true' : 'false'}
              onInput={(e) => set(f.key, e.currentTarget.value)} />
            {errors[f.key] && <span class="error" data-testid={`error-${f.key}`}>{errors[f.key]}</span>}
          </label>
        ))}
        <label class="field">
          <span>Arguments (JSON array)</span>
          <textarea name="args" rows={4} placeholder='["Ada", 3]' value={fields.args} aria-invalid={errors.args ? 'true' : 'false'}
            onInput={(e) => set('args', e.currentTarget.value)} />
          {errors.args && <span class="error" data-testid="error-args">{errors.args}</span>}
        </label>
        {failure && <p class="error" data-testid="start-error">{failure}</p>}
        <button type="submit" disabled={busy}>Start</button>
      </form>
    </section>
  );
}
