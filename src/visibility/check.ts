import { WORKFLOW_STATUSES } from '../history/events.ts';
import { SearchAttributeTypeError, UnknownSearchAttributeError, UnsupportedQueryError, withArticle } from './errors.ts';
import { parseQuery } from './parser.ts';
import {
  BUILT_IN_ATTRIBUTES, isBuiltInAttribute,
  type AttributeRef, type CheckedFilter, type CheckedQuery, type Filter, type Literal, type OrderTerm, type QueryValue,
  type ResolvedAttribute, type SearchAttributeDefinition, type SearchAttributeType,
} from './types.ts';
import { parseDurationLiteral, parseRfc3339, textWords } from './values.ts';

type Operation = 'compare' | 'order' | 'in' | 'between' | 'startsWith';

// Which operations each type admits beyond =, != and IS [NOT] NULL, which all types admit.
const OPERATIONS: Record<SearchAttributeType, ReadonlySet<Operation>> = {
  Keyword: new Set(['compare', 'order', 'in', 'between', 'startsWith']),
  Text: new Set(),
  Int: new Set(['compare', 'order', 'in', 'between']),
  Double: new Set(['compare', 'order', 'in', 'between']),
  Bool: new Set(['order']),
  Datetime: new Set(['compare', 'order', 'in', 'between']),
  KeywordList: new Set(['in']),
};
const GROUPABLE: ReadonlySet<SearchAttributeType> = new Set(['Keyword', 'Int', 'Bool']);

/** What a query is for: a list takes ORDER BY and no GROUP BY, a count the reverse. */
export type QueryPurpose = 'list' | 'count';

/**
 * Parses and type-checks a query against the built-in attributes and the namespace's custom
 * definitions, converting each literal to its attribute's type.
 * @param purpose when given, refuses the clause the other purpose takes (GROUP BY in a list,
 *   ORDER BY in a count).
 * @throws UnknownSearchAttributeError, SearchAttributeTypeError or UnsupportedQueryError naming
 *   the attribute, its type, the value and the column.
 */
export function checkQuery(query: string, definitions: readonly SearchAttributeDefinition[], purpose?: QueryPurpose): CheckedQuery {
  const parsed = parseQuery(query);
  const misplaced = purpose === 'list' ? parsed.groupBy[0] : purpose === 'count' ? parsed.orderBy[0]?.attribute : undefined;
  if (misplaced) {
    const clause = purpose === 'list' ? 'GROUP BY' : 'ORDER BY';
    throw new UnsupportedQueryError(query, misplaced.column, `${clause} is not allowed in a ${purpose} query`, misplaced.name,
      `${clause} is for ${purpose === 'list' ? 'counts' : 'lists'} only; remove ${clause} ${misplaced.name} (column ${misplaced.column}) from this ${purpose} query`);
  }
  return new Checker(query, definitions).query(parsed);
}

class Checker {
  private readonly custom = new Map<string, SearchAttributeDefinition>();
  constructor(private readonly text: string, definitions: readonly SearchAttributeDefinition[]) {
    for (const d of definitions) this.custom.set(d.name, d);
  }

  query(parsed: ReturnType<typeof parseQuery>): CheckedQuery {
    const filter = parsed.filter ? this.filter(parsed.filter) : undefined;
    if (parsed.groupBy.length > 1) {
      const extra = parsed.groupBy[1]!;
      throw new UnsupportedQueryError(this.text, extra.column, 'must name one attribute', extra.name,
        `GROUP BY takes one attribute; ${extra.name} at column ${extra.column} is a second one`);
    }
    const groupBy = parsed.groupBy.map((ref) => {
      const a = this.resolve(ref);
      if (!GROUPABLE.has(a.type) || a.name === 'ExecutionDuration') {
        throw new UnsupportedQueryError(this.text, ref.column, 'must be a Keyword, Int or Bool attribute', a.name,
          `cannot GROUP BY ${a.name} (column ${ref.column}): it is ${withArticle(a.type)} attribute; group by a Keyword, Int or Bool attribute`);
      }
      return a;
    });
    const seen = new Set<string>();
    const orderBy = parsed.orderBy.map((term): OrderTerm<ResolvedAttribute> => {
      const a = this.resolve(term.attribute);
      this.require(a, 'order', 'ORDER BY', term.attribute.column);
      if (seen.has(a.name)) {
        throw new UnsupportedQueryError(this.text, term.attribute.column, 'must name each attribute once', a.name,
          `ORDER BY names ${a.name} twice (again at column ${term.attribute.column})`);
      }
      seen.add(a.name);
      return { attribute: a, direction: term.direction };
    });
    return { ...(filter ? { filter } : {}), groupBy, orderBy };
  }

  private filter(f: Filter<AttributeRef, Literal>): CheckedFilter {
    switch (f.kind) {
      case 'and':
      case 'or':
        return { kind: f.kind, operands: f.operands.map((o) => this.filter(o)) };
      case 'isNull':
        return { kind: 'isNull', attribute: this.resolve(f.attribute), negated: f.negated };
      case 'compare': {
        const a = this.resolve(f.attribute);
        if (f.op !== '=' && f.op !== '!=') this.require(a, 'compare', f.op, f.attribute.column);
        return { kind: 'compare', attribute: a, op: f.op, value: this.value(a, f.value) };
      }
      case 'in': {
        const a = this.resolve(f.attribute);
        this.require(a, 'in', f.negated ? 'NOT IN' : 'IN', f.attribute.column);
        return { kind: 'in', attribute: a, negated: f.negated, values: f.values.map((v) => this.value(a, v)) };
      }
      case 'between': {
        const a = this.resolve(f.attribute);
        this.require(a, 'between', f.negated ? 'NOT BETWEEN' : 'BETWEEN', f.attribute.column);
        return { kind: 'between', attribute: a, negated: f.negated, low: this.value(a, f.low), high: this.value(a, f.high) };
      }
      case 'startsWith': {
        const a = this.resolve(f.attribute);
        this.require(a, 'startsWith', f.negated ? 'NOT STARTS_WITH' : 'STARTS_WITH', f.attribute.column);
        return { kind: 'startsWith', attribute: a, negated: f.negated, prefix: this.value(a, f.prefix) };
      }
    }
  }

  private resolve(ref: AttributeRef): ResolvedAttribute {
    if (isBuiltInAttribute(ref.name)) return { name: ref.name, ...BUILT_IN_ATTRIBUTES[ref.name], builtIn: true };
    const d = this.custom.get(ref.name);
    if (d) return { name: d.name, type: d.type, builtIn: false, nullable: true };
    const lower = ref.name.toLowerCase();
    const suggestion = [...Object.keys(BUILT_IN_ATTRIBUTES), ...this.custom.keys()].find((n) => n.toLowerCase() === lower);
    throw new UnknownSearchAttributeError(this.text, ref.column, ref.name, suggestion);
  }

  private require(a: ResolvedAttribute, operation: Operation, shown: string, column: number): void {
    if (OPERATIONS[a.type].has(operation)) return;
    const allowed = describeAllowed(a.type);
    throw new UnsupportedQueryError(this.text, column, `does not support ${shown}`, a.name,
      `${a.name} is ${withArticle(a.type)} attribute and does not support ${shown} (column ${column}); it supports ${allowed}`);
  }

  private value(a: ResolvedAttribute, lit: Literal): QueryValue {
    const fail = (rule: string): never => {
      throw new SearchAttributeTypeError(this.text, lit.column, a.name, a.type, lit.value, rule);
    };
    if (a.name === 'ExecutionDuration') {
      const ms = lit.kind === 'bool' ? undefined : parseDurationLiteral(lit.value);
      return ms ?? fail("must be a duration such as '1h30m', '1.5s' or '250ms', or an integer number of nanoseconds");
    }
    switch (a.type) {
      case 'Keyword':
      case 'KeywordList':
        if (lit.kind !== 'string') return fail('must be a quoted string');
        if (a.name === 'ExecutionStatus' && !(WORKFLOW_STATUSES as readonly string[]).includes(lit.value)) {
          return fail(`must be one of ${WORKFLOW_STATUSES.join(', ')}`);
        }
        return lit.value;
      case 'Text':
        if (lit.kind !== 'string') return fail('must be a quoted string');
        if (textWords(lit.value).length === 0) return fail('must contain at least one word (letters or digits)');
        return lit.value;
      case 'Int':
        if (lit.kind !== 'number' || !Number.isSafeInteger(lit.value)) return fail('must be an integer between -(2^53 - 1) and 2^53 - 1');
        return lit.value;
      case 'Double':
        if (lit.kind !== 'number' || !Number.isFinite(lit.value)) return fail('must be a finite number');
        return lit.value;
      case 'Bool':
        if (lit.kind === 'bool') return lit.value;
        if (lit.kind === 'string' && /^(true|false)$/i.test(lit.value)) return lit.value.toLowerCase() === 'true';
        return fail('must be true or false');
      case 'Datetime': {
        const ms = lit.kind === 'string' ? parseRfc3339(lit.value) : undefined;
        return ms ?? fail("must be an RFC 3339 date-time such as '2026-11-01T00:00:00Z'");
      }
    }
  }
}

function describeAllowed(type: SearchAttributeType): string {
  const ops = OPERATIONS[type];
  const parts = ['=', '!='];
  if (ops.has('compare')) parts.push('>', '>=', '<', '<=');
  if (ops.has('in')) parts.push('IN');
  if (ops.has('between')) parts.push('BETWEEN');
  if (ops.has('startsWith')) parts.push('STARTS_WITH');
  parts.push('IS NULL');
  if (!ops.has('order')) parts.push('but not ORDER BY');
  return parts.join(', ');
}
