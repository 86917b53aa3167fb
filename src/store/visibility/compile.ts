import { requireInt, requireString } from '../../common/validate.ts';
import { ValidationError } from '../../errors/index.ts';
import { checkQuery } from '../../visibility/check.ts';
import { isBuiltInAttribute, type CheckedQuery, type ResolvedAttribute } from '../../visibility/types.ts';
import { SqlParams, type VisibilityDialect } from './dialect.ts';
import { compileFilter } from './filter-sql.ts';
import { BUILT_IN_COLUMNS, customColumn, VISIBILITY_TABLE, type CustomAttributeColumn } from './layout.ts';
import { decodePageToken, encodePageToken, keysetCondition, keyValues, orderByClause, orderKeys } from './paging.ts';
import { readVisibilityRow, type VisibilityRecord } from './rows.ts';

/** Most rows one list page may ask for. */
export const MAX_PAGE_SIZE = 1000;

/** A list request: the namespace, its custom attributes, the query text and the page. */
export interface VisibilityListRequest {
  namespace: string;
  /** The filter language text; empty lists every run. */
  query: string;
  /** The namespace's custom attributes with their slot columns. */
  attributes: readonly CustomAttributeColumn[];
  /** Rows per page, 1 to {@link MAX_PAGE_SIZE}. */
  pageSize: number;
  /** The token of the previous page, to read the next one. */
  nextPageToken?: string;
}

/** A compiled list query: run `sql` with `params`, then hand the rows to `page`. */
export interface CompiledListQuery {
  readonly sql: string;
  readonly params: unknown[];
  /** Turns the fetched rows into the page and the token of the next page, absent on the last page. */
  page(rows: readonly Record<string, unknown>[]): { records: VisibilityRecord[]; nextPageToken?: string };
}

/** A count request: as a list, without paging; GROUP BY allowed. */
export interface VisibilityCountRequest {
  namespace: string;
  query: string;
  attributes: readonly CustomAttributeColumn[];
}

/** The answer of a count: the total and, with GROUP BY, one entry per value, ordered by value, missing last. */
export interface VisibilityCount {
  count: number;
  groups?: { value: string | number | boolean | null; count: number }[];
}

/** A compiled count query: run `sql` with `params`, then hand the rows to `read`. */
export interface CompiledCountQuery {
  readonly sql: string;
  readonly params: unknown[];
  read(rows: readonly Record<string, unknown>[]): VisibilityCount;
}

function columnOf(attributes: readonly CustomAttributeColumn[]): (a: ResolvedAttribute) => string {
  const custom = new Map(attributes.map((c) => [c.name, c]));
  return (a) => {
    if (a.builtIn && isBuiltInAttribute(a.name)) return BUILT_IN_COLUMNS[a.name];
    const c = custom.get(a.name);
    if (!c) throw new ValidationError('attributes', `must include the column of ${a.name}`, a.name);
    return customColumn(c);
  };
}

function whereClause(dialect: VisibilityDialect, params: SqlParams, namespace: string, checked: CheckedQuery, column: (a: ResolvedAttribute) => string): string[] {
  const where = [`namespace = ${params.add(namespace)}`];
  if (checked.filter) where.push(compileFilter(checked.filter, { dialect, params, column }));
  return where;
}

/**
 * Compiles a list query to one parameterized statement with keyset paging: the rows after the
 * token's cursor in the query's order (RunId breaking ties), `pageSize + 1` of them so the
 * last page is known without another round trip. No OFFSET: a page costs the same at any depth.
 * @throws the query's errors (syntax, unknown attribute, type), or ValidationError for the request.
 */
export function compileListQuery(dialect: VisibilityDialect, request: VisibilityListRequest): CompiledListQuery {
  const namespace = requireString('namespace', request.namespace);
  const pageSize = requireInt('pageSize', request.pageSize, 1, MAX_PAGE_SIZE);
  const checked = checkQuery(request.query, request.attributes, 'list');
  const column = columnOf(request.attributes);
  const keys = orderKeys(checked.orderBy, column, checked.filter);
  const params = new SqlParams(dialect);
  const where = whereClause(dialect, params, namespace, checked, column);
  if (request.nextPageToken !== undefined && request.nextPageToken !== '') {
    const cursor = decodePageToken(keys, requireString('nextPageToken', request.nextPageToken, 10_000));
    where.push(keysetCondition(keys, cursor, dialect, params));
  }
  const sql = `SELECT * FROM ${VISIBILITY_TABLE} WHERE ${where.join(' AND ')} ORDER BY ${orderByClause(keys)} LIMIT ${params.add(pageSize + 1)}`;
  return {
    sql,
    params: params.values,
    page(rows) {
      const pageRows = rows.slice(0, pageSize);
      const records = pageRows.map(readVisibilityRow);
      if (rows.length <= pageSize) return { records };
      return { records, nextPageToken: encodePageToken(keys, keyValues(keys, pageRows[pageRows.length - 1]!)) };
    },
  };
}

/**
 * Compiles a count query, grouped by one attribute when the query says `GROUP BY`.
 * @throws the query's errors, or ValidationError for the request.
 */
export function compileCountQuery(dialect: VisibilityDialect, request: VisibilityCountRequest): CompiledCountQuery {
  const namespace = requireString('namespace', request.namespace);
  const checked = checkQuery(request.query, request.attributes, 'count');
  const column = columnOf(request.attributes);
  const params = new SqlParams(dialect);
  const where = whereClause(dialect, params, namespace, checked, column).join(' AND ');
  const group = checked.groupBy[0];
  if (!group) {
    return {
      sql: `SELECT COUNT(*) AS count FROM ${VISIBILITY_TABLE} WHERE ${where}`,
      params: params.values,
      read: (rows) => ({ count: Number(rows[0]?.count ?? 0) }),
    };
  }
  const col = column(group);
  const value = (v: unknown): string | number | boolean | null =>
    v === null || v === undefined ? null : group.type === 'Bool' ? v === true || v === 1 : group.type === 'Int' ? Number(v) : String(v);
  return {
    sql: `SELECT ${col} AS value, COUNT(*) AS count FROM ${VISIBILITY_TABLE} WHERE ${where} GROUP BY ${col} ORDER BY ${col} NULLS LAST`,
    params: params.values,
    read(rows) {
      const groups = rows.map((r) => ({ value: value(r.value), count: Number(r.count) }));
      return { count: groups.reduce((sum, g) => sum + g.count, 0), groups };
    },
  };
}
