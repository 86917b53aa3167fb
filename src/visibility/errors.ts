import { brandClass, describeValue, ValidationError } from '../errors/index.ts';

/** `a Keyword`, `an Int`: the type name with its article, for messages. */
export function withArticle(type: string): string {
  return `${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type}`;
}

/**
 * A visibility query that cannot be run. `column` is the 1-based position of the offending
 * text in `query`, so a CLI can print {@link VisibilityQueryError.pointer}.
 */
export class VisibilityQueryError extends ValidationError {
  /** The query text as given. */
  readonly query: string;
  /** 1-based column of the offending token. */
  readonly column: number;
  constructor(query: string, column: number, rule: string, value: unknown, message: string) {
    super('query', rule, value, message);
    this.query = query;
    this.column = column;
  }

  /** Two lines: the query, and a caret under the offending column. */
  pointer(): string {
    const line = this.query.replace(/[\r\n\t]/g, ' ');
    return `${line}\n${' '.repeat(Math.max(0, this.column - 1))}^`;
  }
}
brandClass(VisibilityQueryError, 'VisibilityQueryError');

/** The query text does not follow the grammar: `expected a comparison operator at column 14, found "FOO"`. */
export class QuerySyntaxError extends VisibilityQueryError {
  /** What the parser expected, e.g. `a comparison operator`. */
  readonly expected: string;
  /** What it found, quoted, or `the end of the query`. */
  readonly found: string;
  constructor(query: string, column: number, expected: string, found: string) {
    super(query, column, `expected ${expected}`, found, `expected ${expected} at column ${column}, found ${found}`);
    this.expected = expected;
    this.found = found;
  }
}
brandClass(QuerySyntaxError, 'QuerySyntaxError');

/** The query names an attribute that is neither built in nor registered in the namespace. */
export class UnknownSearchAttributeError extends VisibilityQueryError {
  readonly attribute: string;
  constructor(query: string, column: number, attribute: string, suggestion?: string) {
    const hint = suggestion ? ` (did you mean ${suggestion}?)` : '';
    super(query, column, 'must be a built-in or registered search attribute', attribute,
      `unknown search attribute ${JSON.stringify(attribute)} at column ${column}${hint}`);
    this.attribute = attribute;
  }
}
brandClass(UnknownSearchAttributeError, 'UnknownSearchAttributeError');

/** A literal does not fit its attribute's type: `CustomerId is a Keyword attribute and 5 is not a string`. */
export class SearchAttributeTypeError extends VisibilityQueryError {
  readonly attribute: string;
  readonly attributeType: string;
  constructor(query: string, column: number, attribute: string, attributeType: string, value: unknown, rule: string) {
    super(query, column, rule, value,
      `${attribute} is ${withArticle(attributeType)} attribute: the value at column ${column} ${rule}, got ${describeValue(value)}`);
    this.attribute = attribute;
    this.attributeType = attributeType;
  }
}
brandClass(SearchAttributeTypeError, 'SearchAttributeTypeError');

/** An operator, ORDER BY or GROUP BY that the attribute's type or the query kind does not support. */
export class UnsupportedQueryError extends VisibilityQueryError {
  constructor(query: string, column: number, rule: string, value: unknown, message: string) {
    super(query, column, rule, value, message);
  }
}
brandClass(UnsupportedQueryError, 'UnsupportedQueryError');

/** A search attribute value given at start or upsert is unregistered or of the wrong type. */
export class InvalidSearchAttributeError extends ValidationError {
  /** The attribute's name. */
  readonly attribute: string;
  /** Its registered type, when it is registered. */
  readonly attributeType?: string;
  /** @param field the option holding the attributes, `searchAttributes` or e.g. `action.searchAttributes` */
  constructor(attribute: string, rule: string, value: unknown, attributeType?: string, field = 'searchAttributes') {
    const shown = typeof value === 'string' && value.length > 80 ? `${JSON.stringify(value.slice(0, 40))}... (${value.length} characters)` : describeValue(value);
    super(`${field}.${attribute}`, rule, value, `${field}.${attribute} ${rule}, got ${shown}`);
    this.attribute = attribute;
    if (attributeType !== undefined) this.attributeType = attributeType;
  }
}
brandClass(InvalidSearchAttributeError, 'InvalidSearchAttributeError');
