import { mergeSearchAttributes } from '../history/search-attribute-values.ts';
import { activator } from './activator.ts';
import { searchAttributesToCommand, type SearchAttributesOption } from './search-attribute-options.ts';

/**
 * Sets or removes custom search attributes of this run (Temporal's upsertSearchAttributes,
 * recorded as the UpsertWorkflowSearchAttributes event). Each attribute must be registered in
 * the namespace (`client.searchAttributes.create`); a value is one value or, as in Temporal, an
 * array of values (one value for a single-valued type); `[]` or `null` removes the attribute.
 * `workflowInfo().searchAttributes` shows the change at once (values as given, Dates as ISO
 * strings); describe and list show it once the workflow task completes. An unregistered or
 * built-in name, or a value of the wrong type, fails the workflow task (BadSearchAttributes)
 * and leaves the run open. On replay the call is matched against its recorded event.
 * @example upsertSearchAttributes({ CustomerId: 'c2', Tags: ['vip'], Draft: [] })
 */
export function upsertSearchAttributes(searchAttributes: SearchAttributesOption): void {
  const changes = searchAttributesToCommand('upsertSearchAttributes', searchAttributes);
  const a = activator();
  a.pushCommand({ commandType: 'UpsertWorkflowSearchAttributes', attributes: { searchAttributes: changes } });
  if (a.messages.readOnly) return;
  const { searchAttributes: before, ...rest } = a.info;
  const after = mergeSearchAttributes(before, changes);
  a.info = Object.freeze(after ? { ...rest, searchAttributes: after } : rest);
}
