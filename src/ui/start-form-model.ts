/** The start workflow form's fields as typed. */
export interface StartFormFields {
  workflowType: string;
  workflowId: string;
  taskQueue: string;
  /** A JSON array of the workflow's arguments; empty for none. */
  args: string;
}

/** What the form sends, or the error of each field at fault. */
export type StartFormResult =
  | { ok: true; request: { workflowType: string; workflowId: string; taskQueue: string; args: unknown[] } }
  | { ok: false; errors: Partial<Record<keyof StartFormFields, string>> };

/** Checks the start form: the names are required and without surrounding spaces, args is a JSON array. */
export function readStartForm(f: StartFormFields): StartFormResult {
  const errors: Partial<Record<keyof StartFormFields, string>> = {};
  for (const [key, label] of [['workflowType', 'workflow type'], ['workflowId', 'workflow id'], ['taskQueue', 'task queue']] as const) {
    if (!f[key].trim()) errors[key] = `${label} is required`;
    else if (f[key] !== f[key].trim()) errors[key] = `${label} must not start or end with spaces`;
  }
  let args: unknown[] = [];
  if (f.args.trim()) {
    try {
      const parsed: unknown = JSON.parse(f.args);
      if (Array.isArray(parsed)) args = parsed;
      else errors.args = 'args must be a JSON array, e.g. ["Ada", 3]';
    } catch (err) {
      errors.args = `args is not valid JSON: ${(err as Error).message}`;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, request: { workflowType: f.workflowType, workflowId: f.workflowId, taskQueue: f.taskQueue, args } };
}
