export * from './types.ts';
export * from './errors.ts';
export { tokenize, describeToken, QUERY_KEYWORDS, type Token, type QueryKeyword } from './tokenizer.ts';
export { parseQuery, MAX_QUERY_LENGTH, MAX_QUERY_DEPTH } from './parser.ts';
export { checkQuery, type QueryPurpose } from './check.ts';
export * from './attributes.ts';
export { parseRfc3339, parseDurationLiteral, textWords, storedTextForm } from './values.ts';
