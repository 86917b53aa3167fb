import { QuerySyntaxError } from './errors.ts';
import { QUERY_KEYWORDS, type QueryKeyword } from './keywords.ts';

export { QUERY_KEYWORDS, type QueryKeyword } from './keywords.ts';

/** A lexical token; `column` is 1-based, `text` is the source text. */
export type Token =
  | { readonly kind: 'keyword'; readonly keyword: QueryKeyword; readonly text: string; readonly column: number }
  | { readonly kind: 'identifier'; readonly name: string; readonly text: string; readonly column: number }
  | { readonly kind: 'string'; readonly value: string; readonly text: string; readonly column: number }
  | { readonly kind: 'number'; readonly value: number; readonly text: string; readonly column: number }
  | { readonly kind: 'symbol'; readonly symbol: string; readonly text: string; readonly column: number }
  | { readonly kind: 'end'; readonly text: ''; readonly column: number };

const KEYWORDS = new Set<string>(QUERY_KEYWORDS);
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const SYMBOL = /!=|<>|>=|<=|=|>|<|\(|\)|,/y;

/** How a token is shown in an error message: quoted text, or `the end of the query`. */
export function describeToken(token: Token): string {
  return token.kind === 'end' ? 'the end of the query' : JSON.stringify(token.text);
}

/**
 * Splits a query into tokens. Strings take single or double quotes; the quote is escaped by
 * doubling it or with a backslash (`\\` is a backslash). Attribute names may be backtick-quoted.
 * @throws QuerySyntaxError at the column of an unterminated string or an unknown character.
 */
export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) { i++; continue; }
    const column = i + 1;
    if (c === "'" || c === '"') {
      const end = readQuoted(query, i, c);
      tokens.push({ kind: 'string', value: end.value, text: query.slice(i, end.next), column });
      i = end.next;
      continue;
    }
    if (c === '`') {
      const close = query.indexOf('`', i + 1);
      if (close < 0) throw new QuerySyntaxError(query, column, 'a closing backtick', 'the end of the query');
      const name = query.slice(i + 1, close);
      if (name.length === 0) throw new QuerySyntaxError(query, column, 'an attribute name between the backticks', '"``"');
      tokens.push({ kind: 'identifier', name, text: query.slice(i, close + 1), column });
      i = close + 1;
      continue;
    }
    const number = matchAt(NUMBER, query, i);
    if (number !== undefined && (c !== '-' || /[\d.]/.test(query[i + 1] ?? ''))) {
      tokens.push({ kind: 'number', value: Number(number), text: number, column });
      i += number.length;
      continue;
    }
    const word = matchAt(WORD, query, i);
    if (word !== undefined) {
      const upper = word.toUpperCase();
      tokens.push(KEYWORDS.has(upper)
        ? { kind: 'keyword', keyword: upper as QueryKeyword, text: word, column }
        : { kind: 'identifier', name: word, text: word, column });
      i += word.length;
      continue;
    }
    const symbol = matchAt(SYMBOL, query, i);
    if (symbol !== undefined) {
      tokens.push({ kind: 'symbol', symbol: symbol === '<>' ? '!=' : symbol, text: symbol, column });
      i += symbol.length;
      continue;
    }
    throw new QuerySyntaxError(query, column, 'an attribute, a value, an operator or a parenthesis', JSON.stringify(c));
  }
  tokens.push({ kind: 'end', text: '', column: query.length + 1 });
  return tokens;
}

function matchAt(re: RegExp, text: string, index: number): string | undefined {
  re.lastIndex = index;
  return re.exec(text)?.[0];
}

function readQuoted(query: string, start: number, quote: string): { value: string; next: number } {
  let value = '';
  let i = start + 1;
  while (i < query.length) {
    const c = query[i]!;
    if (c === '\\' && (query[i + 1] === quote || query[i + 1] === '\\')) {
      value += query[i + 1];
      i += 2;
    } else if (c === quote && query[i + 1] === quote) {
      value += quote;
      i += 2;
    } else if (c === quote) {
      return { value, next: i + 1 };
    } else {
      value += c;
      i++;
    }
  }
  throw new QuerySyntaxError(query, start + 1, `a closing ${quote} for the string that starts here`, 'the end of the query');
}
