import { ValidationError } from '../../errors/index.ts';
import type { CheckedFilter, OrderTerm, ResolvedAttribute, SearchAttributeType } from '../../visibility/types.ts';
import type { SqlParams, VisibilityDialect } from './dialect.ts';

/** One key of a list's total order: a column, its direction, and whether it may be NULL. */
export interface OrderKey {
  readonly name: string;
  readonly column: string;
  readonly type: SearchAttributeType;
  readonly direction: 'ASC' | 'DESC';
  readonly nullable: boolean;
}

/** A cursor value: the last row's value of one order key. */
export type KeyValue = string | number | boolean | null;

const RUN_ID: Omit<OrderKey, 'direction'> = { name: 'RunId', column: 'run_id', type: 'Keyword', nullable: false };

/**
 * The total order of a list: the query's ORDER BY (default `StartTime DESC`) followed by
 * RunId, unique, in the direction of the last term, so that every row has one place and
 * keyset pages never skip or repeat a row.
 */
export function orderKeys(
  orderBy: readonly OrderTerm<ResolvedAttribute>[],
  column: (a: ResolvedAttribute) => string,
  filter?: CheckedFilter,
): OrderKey[] {
  const keys: OrderKey[] = orderBy.map((t) => ({
    name: t.attribute.name, column: column(t.attribute), type: t.attribute.type, direction: t.direction,
    // When the filter already excludes runs without the value, the key is NOT NULL for this
    // query: the plain ORDER BY and the row-value cursor then match an index in both stores.
    nullable: t.attribute.nullable && !(filter && excludesMissing(filter, t.attribute.name)),
  }));
  if (keys.length === 0) keys.push({ name: 'StartTime', column: 'start_time', type: 'Datetime', direction: 'DESC', nullable: false });
  if (!keys.some((k) => k.name === RUN_ID.name)) keys.push({ ...RUN_ID, direction: keys[keys.length - 1]!.direction });
  return keys;
}

/** Whether no run without a value of `name` can pass the filter: every predicate but IS NULL drops such runs. */
function excludesMissing(filter: CheckedFilter, name: string): boolean {
  switch (filter.kind) {
    case 'and': return filter.operands.some((o) => excludesMissing(o, name));
    case 'or': return filter.operands.every((o) => excludesMissing(o, name));
    case 'isNull': return filter.attribute.name === name && filter.negated;
    default: return filter.attribute.name === name;
  }
}

/** The ORDER BY clause; a missing value sorts after every present one in both directions and both stores. */
export function orderByClause(keys: readonly OrderKey[]): string {
  return keys.map((k) => `${k.column} ${k.direction}${k.nullable ? ' NULLS LAST' : ''}`).join(', ');
}

function signature(keys: readonly OrderKey[]): string {
  return keys.map((k) => `${k.name} ${k.direction}`).join(',');
}

/** The row's values of the order keys, read from a result row of either store (PostgreSQL bigints arrive as strings). */
export function keyValues(keys: readonly OrderKey[], row: Record<string, unknown>): KeyValue[] {
  return keys.map((k) => {
    const v = row[k.column];
    if (v === null || v === undefined) return null;
    if (k.type === 'Bool') return v === true || v === 1;
    if (k.type === 'Keyword') return String(v);
    return Number(v);
  });
}

/**
 * Encodes the cursor after a row: base64url JSON of the order's signature and the row's key
 * values. Opaque to callers; only {@link decodePageToken} reads it.
 */
export function encodePageToken(keys: readonly OrderKey[], values: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify({ o: signature(keys), k: values }), 'utf8').toString('base64url');
}

/**
 * Reads a cursor made by {@link encodePageToken} for the same ORDER BY.
 * @throws ValidationError naming nextPageToken when the token is malformed or from another order.
 */
export function decodePageToken(keys: readonly OrderKey[], token: string): KeyValue[] {
  const bad = (rule: string): never => {
    throw new ValidationError('nextPageToken', rule, token.length > 40 ? `${token.slice(0, 37)}...` : token);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return bad('must be a token returned by a previous page');
  }
  const { o, k } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { o?: unknown; k?: unknown };
  if (typeof o !== 'string' || !Array.isArray(k) || k.length !== keys.length) return bad('must be a token returned by a previous page');
  if (o !== signature(keys)) return bad(`must come from a query with the same ORDER BY (the token's is ${o})`);
  keys.forEach((key, i) => {
    const v: unknown = k[i];
    const ok = v === null ? key.nullable
      : key.type === 'Bool' ? typeof v === 'boolean'
        : key.type === 'Keyword' ? typeof v === 'string'
          : typeof v === 'number' && Number.isFinite(v);
    if (!ok) bad('must be a token returned by a previous page');
  });
  return k as KeyValue[];
}

/**
 * The condition "comes after the cursor" in the order of `keys`. When every key is NOT NULL
 * and all run one way it is a row-value comparison, `(start_time, run_id) < (?, ?)`, which
 * both stores answer with one index range scan; otherwise the expanded form
 * `a > ? OR (a = ? AND b > ?) OR …`, with missing values last.
 */
export function keysetCondition(keys: readonly OrderKey[], values: readonly KeyValue[], dialect: VisibilityDialect, params: SqlParams): string {
  const bind = (k: OrderKey, v: KeyValue) => params.add(k.type === 'Bool' ? dialect.bool(v as boolean) : v);
  const direction = keys[0]!.direction;
  if (keys.every((k) => !k.nullable && k.direction === direction)) {
    const cols = keys.map((k) => k.column).join(', ');
    const vals = keys.map((k, i) => bind(k, values[i]!)).join(', ');
    return `(${cols}) ${direction === 'ASC' ? '>' : '<'} (${vals})`;
  }
  const terms: string[] = [];
  keys.forEach((key, i) => {
    const v = values[i]!;
    if (v === null) return;
    const equal = keys.slice(0, i).map((p, j) => (values[j] === null ? `${p.column} IS NULL` : `${p.column} = ${bind(p, values[j]!)}`));
    const beyond = `${key.column} ${key.direction === 'ASC' ? '>' : '<'} ${bind(key, v)}`;
    const after = key.nullable ? `(${beyond} OR ${key.column} IS NULL)` : beyond;
    terms.push(`(${[...equal, after].join(' AND ')})`);
  });
  return terms.length === 0 ? '(1 = 0)' : `(${terms.join(' OR ')})`;
}
