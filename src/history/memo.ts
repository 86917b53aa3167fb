/**
 * The memo after an upsert (ModifyWorkflowProperties / WorkflowPropertiesModified): each key of
 * `upserted` is set, a `null` value removes its key, as Temporal's server merges it. Undefined
 * when no key is left. Pure, so the engine and the workflow sandbox compute the same memo.
 */
export function mergeMemo(
  memo: Record<string, unknown> | undefined, upserted: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = { ...memo };
  for (const [key, value] of Object.entries(upserted)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
