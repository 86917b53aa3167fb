import { optionalRecord } from '../common/validate.ts';
import { mergeMemo } from '../history/memo.ts';
import { ValidationError } from '../errors/index.ts';
import { activator } from './activator.ts';

/**
 * Changes the run's memo from workflow code (ModifyWorkflowProperties, recorded as
 * WorkflowPropertiesModified): each given field is set, a `null` value removes the field.
 * `workflowInfo().memo` shows the result at once; describe and list show it once the
 * workflow task completes. On replay the same call is matched against its recorded event.
 * @example upsertMemo({ stage: 'shipped', draft: null })
 */
export function upsertMemo(memo: Record<string, unknown>): void {
  const fields = optionalRecord('memo', memo);
  if (fields === undefined) throw new ValidationError('memo', 'must be an object of memo fields', memo);
  const a = activator();
  a.pushCommand({ commandType: 'ModifyWorkflowProperties', attributes: { upsertedMemo: { ...fields } } });
  if (a.messages.readOnly) return;
  const { memo: before, ...rest } = a.info;
  const after = mergeMemo(before, fields);
  a.info = Object.freeze(after ? { ...rest, memo: after } : rest);
}
