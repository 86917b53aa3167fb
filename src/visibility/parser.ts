import { ValidationError } from '../errors/index.ts';
import { QuerySyntaxError } from './errors.ts';
import { describeToken, tokenize, type QueryKeyword, type Token } from './tokenizer.ts';
import type { AttributeRef, ComparisonOperator, Filter, Literal, OrderTerm, ParsedQuery } from './types.ts';

type ParsedFilter = Filter<AttributeRef, Literal>;

const COMPARISONS = new Set<string>(['=', '!=', '>', '>=', '<', '<=']);

/** Longest query text accepted, in characters. */
export const MAX_QUERY_LENGTH = 32_768;
/** Deepest nesting of parentheses accepted. */
export const MAX_QUERY_DEPTH = 64;

/**
 * Parses a visibility query into its tree:
 * `[filter] [GROUP BY attr, …] [ORDER BY attr [ASC|DESC], …]`, where a filter is predicates
 * joined by AND (binding tighter) and OR, with parentheses. An empty query lists everything.
 * @throws QuerySyntaxError naming the column, what was expected and what was found.
 */
export function parseQuery(query: string): ParsedQuery {
  if (typeof query !== 'string') throw new ValidationError('query', 'must be a string', query);
  if (query.length > MAX_QUERY_LENGTH) {
    throw new ValidationError('query', `must be at most ${MAX_QUERY_LENGTH} characters`, `${query.slice(0, 40)}... (${query.length} characters)`);
  }
  return new Parser(query, tokenize(query)).query();
}

class Parser {
  private index = 0;
  private depth = 0;
  constructor(private readonly text: string, private readonly tokens: Token[]) {}

  query(): ParsedQuery {
    let filter: ParsedFilter | undefined;
    if (!this.atKeyword('ORDER') && !this.atKeyword('GROUP') && this.peek().kind !== 'end') filter = this.or();
    const groupBy: AttributeRef[] = [];
    if (this.acceptKeyword('GROUP')) {
      this.expectKeyword('BY', '"BY" after GROUP');
      do groupBy.push(this.attribute()); while (this.acceptSymbol(','));
    }
    const orderBy: OrderTerm<AttributeRef>[] = [];
    if (this.acceptKeyword('ORDER')) {
      this.expectKeyword('BY', '"BY" after ORDER');
      do {
        const attribute = this.attribute();
        const direction = this.acceptKeyword('DESC') ? 'DESC' : (this.acceptKeyword('ASC'), 'ASC');
        orderBy.push({ attribute, direction });
      } while (this.acceptSymbol(','));
    }
    if (this.peek().kind !== 'end') {
      const expected = filter || groupBy.length || orderBy.length ? 'AND, OR, GROUP BY, ORDER BY or the end of the query' : 'an attribute name';
      this.fail(orderBy.length ? 'a comma, ASC, DESC or the end of the query' : expected);
    }
    return { ...(filter ? { filter } : {}), groupBy, orderBy };
  }

  private or(): ParsedFilter {
    const operands = [this.and()];
    while (this.acceptKeyword('OR')) operands.push(this.and());
    return operands.length === 1 ? operands[0]! : { kind: 'or', operands };
  }

  private and(): ParsedFilter {
    const operands = [this.primary()];
    while (this.acceptKeyword('AND')) operands.push(this.primary());
    return operands.length === 1 ? operands[0]! : { kind: 'and', operands };
  }

  private primary(): ParsedFilter {
    if (this.acceptSymbol('(')) {
      if (++this.depth > MAX_QUERY_DEPTH) this.fail(`at most ${MAX_QUERY_DEPTH} nested parentheses, not another`, -1);
      const inner = this.or();
      this.depth--;
      if (!this.acceptSymbol(')')) this.fail('AND, OR or a closing parenthesis');
      return inner;
    }
    return this.predicate();
  }

  private predicate(): ParsedFilter {
    const attribute = this.attribute();
    const t = this.peek();
    if (t.kind === 'symbol' && COMPARISONS.has(t.symbol)) {
      this.index++;
      return { kind: 'compare', attribute, op: t.symbol as ComparisonOperator, value: this.literal() };
    }
    if (this.acceptKeyword('IS')) {
      const negated = this.acceptKeyword('NOT');
      this.expectKeyword('NULL', negated ? 'NULL after IS NOT' : 'NULL or NOT NULL after IS');
      return { kind: 'isNull', attribute, negated };
    }
    const negated = this.acceptKeyword('NOT');
    if (this.acceptKeyword('IN')) {
      if (!this.acceptSymbol('(')) this.fail('an opening parenthesis after IN');
      const values = [this.literal()];
      while (this.acceptSymbol(',')) values.push(this.literal());
      if (!this.acceptSymbol(')')) this.fail('a comma or a closing parenthesis in the IN list');
      return { kind: 'in', attribute, negated, values };
    }
    if (this.acceptKeyword('BETWEEN')) {
      const low = this.literal();
      this.expectKeyword('AND', 'AND between the two BETWEEN values');
      return { kind: 'between', attribute, negated, low, high: this.literal() };
    }
    if (this.acceptKeyword('STARTS_WITH')) return { kind: 'startsWith', attribute, negated, prefix: this.literal() };
    return this.fail(negated ? 'IN, BETWEEN or STARTS_WITH after NOT' : 'a comparison operator');
  }

  private attribute(): AttributeRef {
    const t = this.peek();
    if (t.kind !== 'identifier') {
      const hint = t.kind === 'keyword' ? ` (${t.keyword} is a keyword; quote an attribute of that name in backticks)` : '';
      return this.fail(`an attribute name${hint}`);
    }
    this.index++;
    return { name: t.name, column: t.column };
  }

  private literal(): Literal {
    const t = this.peek();
    if (t.kind === 'string') { this.index++; return { kind: 'string', value: t.value, column: t.column }; }
    if (t.kind === 'number') { this.index++; return { kind: 'number', value: t.value, text: t.text, column: t.column }; }
    if (t.kind === 'keyword' && (t.keyword === 'TRUE' || t.keyword === 'FALSE')) {
      this.index++;
      return { kind: 'bool', value: t.keyword === 'TRUE', column: t.column };
    }
    if (t.kind === 'keyword' && t.keyword === 'NULL') return this.fail('a value (test for a missing value with IS NULL)');
    return this.fail('a value: a quoted string, a number, true or false');
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private atKeyword(keyword: QueryKeyword): boolean {
    const t = this.peek();
    return t.kind === 'keyword' && t.keyword === keyword;
  }

  private acceptKeyword(keyword: QueryKeyword): boolean {
    if (!this.atKeyword(keyword)) return false;
    this.index++;
    return true;
  }

  private expectKeyword(keyword: QueryKeyword, expected: string): void {
    if (!this.acceptKeyword(keyword)) this.fail(expected);
  }

  private acceptSymbol(symbol: string): boolean {
    const t = this.peek();
    if (t.kind !== 'symbol' || t.symbol !== symbol) return false;
    this.index++;
    return true;
  }

  private fail(expected: string, offset = 0): never {
    const t = this.tokens[this.index + offset]!;
    throw new QuerySyntaxError(this.text, t.column, expected, describeToken(t));
  }
}
