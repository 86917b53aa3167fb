import type { CheckedFilter, ComparisonOperator, QueryValue, ResolvedAttribute } from '../../visibility/types.ts';
import { textWords } from '../../visibility/values.ts';
import type { SqlParams, VisibilityDialect } from './dialect.ts';

/** What compiling a filter needs: the dialect, the statement's parameters and each attribute's column. */
interface FilterContext {
  readonly dialect: VisibilityDialect;
  readonly params: SqlParams;
  readonly column: (attribute: ResolvedAttribute) => string;
}

const FALSE = '(1 = 0)';
const SQL_OPERATORS: Record<ComparisonOperator, string> = { '=': '=', '!=': '<>', '>': '>', '>=': '>=', '<': '<', '<=': '<=' };

/**
 * Compiles a checked filter to a SQL condition; every value becomes a parameter. A run that
 * lacks an attribute matches no predicate on it except IS NULL, negated ones included, in
 * both dialects.
 */
export function compileFilter(filter: CheckedFilter, ctx: FilterContext): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `(${filter.operands.map((o) => compileFilter(o, ctx)).join(filter.kind === 'and' ? ' AND ' : ' OR ')})`;
    case 'isNull':
      return `${ctx.column(filter.attribute)} IS ${filter.negated ? 'NOT ' : ''}NULL`;
    case 'compare':
      return compare(filter.attribute, filter.op, filter.value, ctx);
    case 'in':
      return inList(filter.attribute, filter.values, filter.negated, ctx);
    case 'between': {
      const col = ctx.column(filter.attribute);
      const integral = isIntegral(filter.attribute);
      const low = integral ? Math.ceil(filter.low as number) : filter.low;
      const high = integral ? Math.floor(filter.high as number) : filter.high;
      return `${col} ${filter.negated ? 'NOT ' : ''}BETWEEN ${ctx.params.add(low)} AND ${ctx.params.add(high)}`;
    }
    case 'startsWith':
      return startsWith(ctx.column(filter.attribute), filter.prefix as string, filter.negated, ctx.params);
  }
}

// Int, Datetime and ExecutionDuration columns hold integers (ms for times); a fractional bound
// from a sub-millisecond literal is rounded the way that keeps the comparison exact.
function isIntegral(a: ResolvedAttribute): boolean {
  return a.type === 'Int' || a.type === 'Datetime';
}

function negate(col: string, condition: string): string {
  return `(${col} IS NOT NULL AND NOT (${condition}))`;
}

function compare(a: ResolvedAttribute, op: ComparisonOperator, value: QueryValue, ctx: FilterContext): string {
  const col = ctx.column(a);
  const { params, dialect } = ctx;
  if (a.type === 'Text') {
    const words = textWords(value as string).map((w) => dialect.containsSubstring(col, params.add(` ${w} `)));
    const all = words.join(' AND ');
    return op === '=' ? `(${all})` : negate(col, all);
  }
  if (a.type === 'KeywordList') {
    const contains = dialect.listContainsAny(col, [value as string], params);
    return op === '=' ? contains : negate(col, contains);
  }
  if (a.type === 'Bool') return `${col} ${SQL_OPERATORS[op]} ${params.add(dialect.bool(value as boolean))}`;
  if (isIntegral(a) && !Number.isInteger(value)) {
    const v = value as number;
    switch (op) {
      case '=': return FALSE;
      case '!=': return `${col} IS NOT NULL`;
      case '>': case '<=': return `${col} ${op} ${params.add(Math.floor(v))}`;
      case '>=': case '<': return `${col} ${op} ${params.add(Math.ceil(v))}`;
    }
  }
  return `${col} ${SQL_OPERATORS[op]} ${params.add(value)}`;
}

function inList(a: ResolvedAttribute, values: readonly QueryValue[], negated: boolean, ctx: FilterContext): string {
  const col = ctx.column(a);
  if (a.type === 'KeywordList') {
    const any = ctx.dialect.listContainsAny(col, values as string[], ctx.params);
    return negated ? negate(col, any) : any;
  }
  const kept = isIntegral(a) ? values.filter((v) => Number.isInteger(v)) : values;
  if (kept.length === 0) return negated ? `${col} IS NOT NULL` : FALSE;
  return `${col} ${negated ? 'NOT ' : ''}IN (${kept.map((v) => ctx.params.add(v)).join(', ')})`;
}

function startsWith(col: string, prefix: string, negated: boolean, params: SqlParams): string {
  if (prefix.length === 0) return negated ? FALSE : `${col} IS NOT NULL`;
  // A range instead of LIKE: no escaping of % and _, and the column's index applies. Both
  // stores compare strings by code point (SQLite BINARY, PostgreSQL COLLATE "C").
  const upper = successor(prefix);
  const range = upper === undefined
    ? `${col} >= ${params.add(prefix)}`
    : `${col} >= ${params.add(prefix)} AND ${col} < ${params.add(upper)}`;
  return negated ? negate(col, range) : `(${range})`;
}

/** The least string greater than every string that starts with `prefix`, in code point order. */
export function successor(prefix: string): string | undefined {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      const next = last === 0xd7ff ? 0xe000 : last + 1;
      return String.fromCodePoint(...points, next);
    }
  }
  return undefined;
}
