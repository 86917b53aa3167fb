/*
 * The list's query text as the browser handles it while a person types: a tokenizer that never
 * throws (the query is usually incomplete), the split of a query into its filter and its
 * ORDER BY / GROUP BY tail, and the completions offered at the cursor. The server parses and
 * checks the query for real (src/visibility/); nothing here decides what is valid.
 */
import type { SearchAttributeTypeName } from '../protocol/index.ts';
import { WORKFLOW_STATUSES as STATUSES } from '../history/events.ts';
import { QUERY_KEYWORDS } from '../visibility/keywords.ts';

/** A search attribute the namespace knows. */
export interface AttributeInfo { name: string; type: SearchAttributeTypeName }

/** A token of a possibly incomplete query; `end` is exclusive. Unterminated strings end at the text's end. */
interface LooseToken {
  kind: 'word' | 'string' | 'number' | 'symbol';
  text: string;
  start: number;
  end: number;
  /** A string or backtick name whose closing quote has not been typed yet. */
  open?: boolean;
}

// The server's keywords (src/visibility/keywords.ts, which imports nothing, so the bundle takes only the list).
const KEYWORDS: ReadonlySet<string> = new Set(QUERY_KEYWORDS);

/** Splits `text` into tokens the way the server's tokenizer does, but keeps going past anything it does not know. */
export function looseTokens(text: string): LooseToken[] {
  const out: LooseToken[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) { i++; continue; }
    const start = i;
    if (c === "'" || c === '"' || c === '`') {
      i++;
      let open = true;
      while (i < text.length) {
        if (c !== '`' && text[i] === '\\') { i += 2; continue; }
        if (text[i] === c) {
          if (c !== '`' && text[i + 1] === c) { i += 2; continue; }
          i++;
          open = false;
          break;
        }
        i++;
      }
      i = Math.min(i, text.length);
      out.push({ kind: c === '`' ? 'word' : 'string', text: text.slice(start, i), start, end: i, ...(open ? { open } : {}) });
      continue;
    }
    const m = /^(?:[A-Za-z_][A-Za-z0-9_]*|-?(?:\d+(?:\.\d*)?|\.\d+)|!=|<>|>=|<=|[=<>(),])/.exec(text.slice(i));
    const t = m ? m[0] : c;
    const kind = /^[A-Za-z_]/.test(t) ? 'word' : /^-?[\d.]/.test(t) && t !== '-' ? 'number' : 'symbol';
    out.push({ kind, text: t, start, end: i + t.length });
    i += t.length;
  }
  return out;
}

function isKeyword(t: LooseToken | undefined, ...words: string[]): boolean {
  return !!t && t.kind === 'word' && !t.text.startsWith('`') && words.includes(t.text.toUpperCase());
}

function attributeName(t: LooseToken): string {
  return t.text.startsWith('`') ? t.text.slice(1, -1) : t.text;
}

/** A query cut into its filter and its `ORDER BY …` or `GROUP BY …` tail (each trimmed, possibly empty). */
export function splitQuery(query: string): { filter: string; tail: string } {
  const tokens = looseTokens(query);
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (isKeyword(tokens[i], 'ORDER', 'GROUP') && isKeyword(tokens[i + 1], 'BY')) {
      return { filter: query.slice(0, tokens[i]!.start).trim(), tail: query.slice(tokens[i]!.start).trim() };
    }
  }
  return { filter: query.trim(), tail: '' };
}

/** The first ORDER BY term of a query, if it has one. */
export function orderOf(query: string): { attribute: string; desc: boolean } | undefined {
  const tokens = looseTokens(splitQuery(query).tail);
  if (!isKeyword(tokens[0], 'ORDER') || !tokens[2]) return undefined;
  return { attribute: attributeName(tokens[2]), desc: isKeyword(tokens[3], 'DESC') };
}

/** The query with its ORDER BY replaced by one term (the filter kept). */
export function withOrder(query: string, attribute: string, desc: boolean): string {
  const { filter } = splitQuery(query);
  return `${filter ? `${filter} ` : ''}ORDER BY ${attribute} ${desc ? 'DESC' : 'ASC'}`;
}

/** `ExecutionStatus = '<status>'` added to a query's filter, keeping its tail. */
export function withStatus(query: string, status: string): string {
  if (!status) return query.trim();
  return withClause(query, status === TASK_FAILING_CHIP ? 'TaskFailing = true' : `ExecutionStatus = '${status}'`);
}

/** The chip (a `status` value of the list's URL) of the runs whose workflow task keeps failing. */
export const TASK_FAILING_CHIP = 'TaskFailing';

/** A query's filter ANDed with `clause`, its ORDER BY or GROUP BY kept. */
export function withClause(query: string, clause: string): string {
  const { filter, tail } = splitQuery(query);
  return [filter ? `(${filter}) AND ${clause}` : clause, tail].filter(Boolean).join(' ');
}

/** The count query behind the status chips: the query's filter, grouped by status. */
export function statusCountQuery(query: string): string {
  const { filter } = splitQuery(query);
  return `${filter ? `${filter} ` : ''}GROUP BY ExecutionStatus`;
}

/** One completion: what the menu shows and the text that replaces the word at the cursor. */
export interface Completion { label: string; insert: string; detail?: string }

/** The completions at a cursor and the range of text they replace. */
export interface Completions { from: number; to: number; items: Completion[] }

const ORDERABLE: readonly SearchAttributeTypeName[] = ['Keyword', 'Int', 'Double', 'Datetime', 'Bool'];
const GROUPABLE: readonly SearchAttributeTypeName[] = ['Keyword', 'Int', 'Bool'];
const COMPARE = ['=', '!=', '>', '>=', '<', '<='];
const OPERATORS: Record<SearchAttributeTypeName, string[]> = {
  Keyword: [...COMPARE, 'IN (', 'NOT IN (', 'BETWEEN', 'STARTS_WITH', 'NOT STARTS_WITH', 'IS NULL', 'IS NOT NULL'],
  Int: [...COMPARE, 'IN (', 'NOT IN (', 'BETWEEN', 'IS NULL', 'IS NOT NULL'],
  Double: [...COMPARE, 'IN (', 'NOT IN (', 'BETWEEN', 'IS NULL', 'IS NOT NULL'],
  Datetime: [...COMPARE, 'IN (', 'NOT IN (', 'BETWEEN', 'IS NULL', 'IS NOT NULL'],
  Bool: ['=', '!=', 'IS NULL', 'IS NOT NULL'],
  Text: ['=', '!=', 'IS NULL', 'IS NOT NULL'],
  KeywordList: ['=', '!=', 'IN (', 'NOT IN (', 'IS NULL', 'IS NOT NULL'],
};
const VALUE_OPERATORS = new Set(['=', '!=', '<>', '>', '>=', '<', '<=', 'BETWEEN', 'STARTS_WITH', 'IN', '(', ',']);

/** Extra facts for value completions: the time "now" and values seen on screen, by attribute. */
interface CompletionContext {
  now: number;
  seen?: Record<string, string[]>;
}

function valuesFor(attr: AttributeInfo | undefined, ctx: CompletionContext): Completion[] {
  if (!attr) return [];
  const quoted = (v: string, detail?: string): Completion => ({ label: `'${v}'`, insert: `'${v.replace(/'/g, "''")}'`, ...(detail ? { detail } : {}) });
  if (attr.name === 'ExecutionStatus') return STATUSES.map((s) => quoted(s));
  if (attr.name === 'ExecutionDuration') return ['1s', '1m', '1h', '1d'].map((d) => quoted(d, 'duration'));
  if (attr.type === 'Bool') return ['true', 'false'].map((v) => ({ label: v, insert: v }));
  if (attr.type === 'Datetime') {
    return [['now', 0], ['1 hour ago', 3_600_000], ['1 day ago', 86_400_000], ['7 days ago', 604_800_000]]
      .map(([label, ago]) => quoted(new Date(ctx.now - (ago as number)).toISOString().replace(/\.\d{3}Z$/, 'Z'), label as string));
  }
  return [...new Set(ctx.seen?.[attr.name] ?? [])].slice(0, 20).map((v) => quoted(v));
}

/** Walks back from a value position to the attribute the predicate is about. */
function predicateAttribute(tokens: LooseToken[], attrs: Map<string, AttributeInfo>): AttributeInfo | undefined {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (isKeyword(t, 'OR') || isKeyword(t, 'AND') && !isKeyword(tokens[i - 2], 'BETWEEN')) return undefined;
    if (t.text === '(' && !isKeyword(tokens[i - 1], 'IN')) return undefined;
    if (t.kind === 'word' && !isKeyword(t, ...KEYWORDS)) return attrs.get(attributeName(t));
  }
  return undefined;
}

/**
 * What may come at `cursor` in `text`: attribute names where a predicate or an ORDER BY / GROUP BY
 * term starts, the operators of the attribute's type after it, values where a literal goes
 * (statuses, booleans, times, values seen), and the connecting keywords after a value.
 */
export function complete(text: string, cursor: number, attributes: AttributeInfo[], ctx: CompletionContext): Completions {
  const attrs = new Map(attributes.map((a) => [a.name, a]));
  const all = looseTokens(text.slice(0, cursor));
  let last = all[all.length - 1];
  // A word (or an open string) ending at the cursor is being typed: it is what the completion replaces.
  const typing = last && last.end === cursor && (last.kind === 'word' && !last.text.startsWith('`') || last.open || last.kind === 'number') ? last : undefined;
  const before = typing ? all.slice(0, -1) : all;
  const from = typing ? typing.start : cursor;
  const prefix = typing ? typing.text.replace(/^[`'"]/, '').toLowerCase() : '';
  last = before[before.length - 1];
  const prev = before[before.length - 2];
  const attrItems = (types?: readonly SearchAttributeTypeName[]) => attributes
    .filter((a) => !types || types.includes(a.type))
    .map((a) => ({ label: a.name, insert: /^[A-Za-z_][A-Za-z0-9_]*$/.test(a.name) && !KEYWORDS.has(a.name.toUpperCase()) ? a.name : `\`${a.name}\``, detail: a.type }));
  const words = (...w: string[]) => w.map((x) => ({ label: x, insert: x }));
  let items: Completion[];
  const clause = before.findIndex((t, i) => isKeyword(t, 'ORDER', 'GROUP') && isKeyword(before[i + 1], 'BY'));
  if (clause >= 0) {
    const order = isKeyword(before[clause], 'ORDER');
    if (isKeyword(last, 'BY') || last?.text === ',') items = attrItems(order ? ORDERABLE : GROUPABLE);
    else if (order && isKeyword(last, 'ASC', 'DESC')) items = words(',');
    else items = order ? words('DESC', 'ASC', ',') : [];
  } else if (!last || last.text === '(' && !isKeyword(prev, 'IN') || isKeyword(last, 'AND', 'OR') && !isBetweenAnd(before)) {
    items = [...attrItems(), ...(last ? [] : words('ORDER BY', 'GROUP BY'))];
  } else if (isKeyword(last, 'IS')) {
    items = words('NULL', 'NOT NULL');
  } else if (isKeyword(last, 'NOT') && isKeyword(prev, 'IS')) {
    items = words('NULL');
  } else if (isKeyword(last, 'NOT')) {
    items = words('IN (', 'BETWEEN', 'STARTS_WITH');
  } else if (last.kind === 'word' && !isKeyword(last, ...KEYWORDS)) {
    items = (attrs.get(attributeName(last)) ? OPERATORS[attrs.get(attributeName(last))!.type] : COMPARE).map((o) => ({ label: o, insert: o }));
  } else if (VALUE_OPERATORS.has(last.text.toUpperCase()) || isBetweenAnd(before)) {
    items = valuesFor(predicateAttribute(before, attrs), ctx);
  } else if (insideIn(before)) {
    items = words(',', ')');
  } else if (before.slice(-3).some((t) => isKeyword(t, 'BETWEEN')) && !isKeyword(last, 'AND')) {
    items = words('AND');
  } else {
    items = words('AND', 'OR', 'ORDER BY', 'GROUP BY');
  }
  const matching = items.filter((c) => c.label.replace(/^'/, '').toLowerCase().startsWith(prefix));
  return { from, to: cursor, items: matching.filter((c) => c.insert !== typing?.text) };
}

/** Whether the last token is the AND of `BETWEEN x AND`. */
function isBetweenAnd(tokens: LooseToken[]): boolean {
  const n = tokens.length;
  return isKeyword(tokens[n - 1], 'AND') && isKeyword(tokens[n - 3], 'BETWEEN');
}

/** Whether the tokens end inside an unclosed `IN (` list. */
function insideIn(tokens: LooseToken[]): boolean {
  for (let i = tokens.length - 1; i >= 0; i--) {
    if (tokens[i]!.text === ')') return false;
    if (tokens[i]!.text === '(') return isKeyword(tokens[i - 1], 'IN');
  }
  return false;
}
