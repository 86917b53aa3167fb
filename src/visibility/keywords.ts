/** The words with a meaning in the filter language; matched case-insensitively. */
export const QUERY_KEYWORDS = [
  'AND', 'OR', 'NOT', 'IN', 'BETWEEN', 'STARTS_WITH', 'IS', 'NULL', 'ORDER', 'GROUP', 'BY', 'ASC', 'DESC', 'TRUE', 'FALSE',
] as const;

/** One of {@link QUERY_KEYWORDS}. */
export type QueryKeyword = (typeof QUERY_KEYWORDS)[number];
