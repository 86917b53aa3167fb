import type { SqlParams, VisibilityDialect } from './dialect.ts';

/**
 * SQLite: `?` placeholders, Bool as 0/1, KeywordList as a JSON array searched with
 * `json_each`, Text words found with `instr`.
 */
export const sqliteVisibility: VisibilityDialect = {
  name: 'sqlite',
  placeholder: () => '?',
  bool: (value) => (value ? 1 : 0),
  keywordList: (values) => JSON.stringify(values),
  readKeywordList: (value) => (typeof value === 'string' ? (JSON.parse(value) as string[]) : []),
  listContainsAny(column: string, values: readonly string[], params: SqlParams): string {
    return `EXISTS (SELECT 1 FROM json_each(${column}) WHERE json_each.value IN (${values.map((v) => params.add(v)).join(', ')}))`;
  },
  containsSubstring: (column, needle) => `instr(${column}, ${needle}) > 0`,
};
