import type { SearchAttributeDefinition } from '../../src/visibility/index.ts';

/** One custom attribute of every type, as the checker and value tests register them. */
export const DEFS: SearchAttributeDefinition[] = [
  { name: 'CustomerId', type: 'Keyword' }, { name: 'Notes', type: 'Text' }, { name: 'Priority', type: 'Int' },
  { name: 'Amount', type: 'Double' }, { name: 'Vip', type: 'Bool' }, { name: 'DueAt', type: 'Datetime' },
  { name: 'Tags', type: 'KeywordList' },
];
