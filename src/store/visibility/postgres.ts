import type { SqlParams, VisibilityDialect } from './dialect.ts';

/**
 * PostgreSQL: `$n` placeholders, native boolean, KeywordList as `text[]` matched with the
 * GIN-indexable overlap operator `&&`, Text words found with `strpos`.
 */
export const postgresVisibility: VisibilityDialect = {
  name: 'postgres',
  placeholder: (index) => `$${index}`,
  bool: (value) => value,
  keywordList: (values) => [...values],
  readKeywordList: (value) => (Array.isArray(value) ? (value as string[]) : []),
  listContainsAny(column: string, values: readonly string[], params: SqlParams): string {
    return `${column} && ${params.add([...values])}::text[]`;
  },
  containsSubstring: (column, needle) => `strpos(${column}, ${needle}) > 0`,
};
