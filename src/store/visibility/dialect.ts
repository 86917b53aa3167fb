/**
 * What differs between the SQLite and PostgreSQL visibility SQL: placeholders, how Bool and
 * KeywordList values are stored, and the substring function Text filters use. Everything
 * else the compilers share.
 */
export interface VisibilityDialect {
  readonly name: 'sqlite' | 'postgres';
  /** The n-th (1-based) parameter placeholder. */
  placeholder(index: number): string;
  /** A Bool value as bound to a parameter or written to a column. */
  bool(value: boolean): unknown;
  /** A KeywordList value as written to its column. */
  keywordList(values: readonly string[]): unknown;
  /** Reads a KeywordList column. */
  readKeywordList(value: unknown): string[];
  /** SQL that is true when the KeywordList `column` holds any of `values`. */
  listContainsAny(column: string, values: readonly string[], params: SqlParams): string;
  /** SQL that is true when the text `column` contains the parameter `needle` as a substring. */
  containsSubstring(column: string, needle: string): string;
}

/** The parameters of one statement, in order; `add` answers the placeholder to write. */
export class SqlParams {
  /** The bound values, in placeholder order. */
  readonly values: unknown[] = [];
  constructor(private readonly dialect: VisibilityDialect) {}

  /** Appends a value and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return this.dialect.placeholder(this.values.length);
  }
}
