import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseQuery, QuerySyntaxError, tokenize, type AttributeRef, type Filter, type Literal, type ParsedQuery,
} from '../../src/visibility/index.ts';

// A compact rendering of a parsed tree, so the table below reads like the queries it checks.
function show(q: ParsedQuery): string {
  const lit = (l: Literal) => (l.kind === 'string' ? JSON.stringify(l.value) : l.kind === 'number' ? `#${l.text}` : String(l.value));
  const f = (x: Filter<AttributeRef, Literal>): string => {
    const not = (n: boolean) => (n ? 'not ' : '');
    switch (x.kind) {
      case 'and': case 'or': return `(${x.kind} ${x.operands.map(f).join(' ')})`;
      case 'compare': return `(${x.op} ${x.attribute.name} ${lit(x.value)})`;
      case 'in': return `(${not(x.negated)}in ${x.attribute.name} ${x.values.map(lit).join(' ')})`;
      case 'between': return `(${not(x.negated)}between ${x.attribute.name} ${lit(x.low)} ${lit(x.high)})`;
      case 'startsWith': return `(${not(x.negated)}starts_with ${x.attribute.name} ${lit(x.prefix)})`;
      case 'isNull': return `(${not(x.negated)}null ${x.attribute.name})`;
    }
  };
  const parts = [q.filter ? f(q.filter) : '-'];
  if (q.groupBy.length) parts.push(`group ${q.groupBy.map((a) => a.name).join(',')}`);
  if (q.orderBy.length) parts.push(`order ${q.orderBy.map((t) => `${t.attribute.name} ${t.direction}`).join(',')}`);
  return parts.join(' | ');
}

const GOOD: [string, string][] = [
  ['', '-'],
  [`WorkflowId = 'a'`, '(= WorkflowId "a")'],
  [`WorkflowId = "a"`, '(= WorkflowId "a")'],
  [`WorkflowId != 'a'`, '(!= WorkflowId "a")'],
  [`WorkflowId <> 'a'`, '(!= WorkflowId "a")'],
  [`HistoryLength >= 10 and HistoryLength<20`, '(and (>= HistoryLength #10) (< HistoryLength #20))'],
  [`Amount > -1.5e3`, '(> Amount #-1.5e3)'],
  [`a = 'x' OR b = 'y' AND c = 'z'`, '(or (= a "x") (and (= b "y") (= c "z")))'],
  [`(a = 'x' OR b = 'y') AND c = 'z'`, '(and (or (= a "x") (= b "y")) (= c "z"))'],
  [`((a = 'x'))`, '(= a "x")'],
  [`CustomerId IN ('c1', 'c2')`, '(in CustomerId "c1" "c2")'],
  [`CustomerId not in ('c1')`, '(not in CustomerId "c1")'],
  [`StartTime BETWEEN '2026-01-01T00:00:00Z' AND '2026-02-01T00:00:00Z'`, '(between StartTime "2026-01-01T00:00:00Z" "2026-02-01T00:00:00Z")'],
  [`HistoryLength NOT BETWEEN 1 AND 5`, '(not between HistoryLength #1 #5)'],
  [`WorkflowId STARTS_WITH 'order-'`, '(starts_with WorkflowId "order-")'],
  [`WorkflowId NOT STARTS_WITH 'order-'`, '(not starts_with WorkflowId "order-")'],
  [`CloseTime IS NULL`, '(null CloseTime)'],
  [`CloseTime is not null`, '(not null CloseTime)'],
  [`Vip = TRUE AND Flag = false`, '(and (= Vip true) (= Flag false))'],
  ['`Order-Id` = \'1\'', '(= Order-Id "1")'],
  ['`ORDER` = \'1\'', '(= ORDER "1")'],
  [`WorkflowId = 'it''s' AND WorkflowType = "say ""hi"""`, `(and (= WorkflowId "it's") (= WorkflowType "say \\"hi\\""))`],
  [`WorkflowId = 'back\\'slash\\\\'`, `(= WorkflowId "back'slash\\\\")`],
  [`WorkflowId = 'x'' OR 1=1 --'`, `(= WorkflowId "x' OR 1=1 --")`],
  [`ORDER BY StartTime`, '- | order StartTime ASC'],
  [`order by StartTime desc, WorkflowId asc`, '- | order StartTime DESC,WorkflowId ASC'],
  [`WorkflowType = 'order' GROUP BY ExecutionStatus`, '(= WorkflowType "order") | group ExecutionStatus'],
  [
    `WorkflowType = 'order' AND ExecutionStatus = 'Running' AND CustomerId IN ('c1','c2') AND StartTime > '2026-11-01T00:00:00Z' ORDER BY StartTime DESC`,
    '(and (= WorkflowType "order") (= ExecutionStatus "Running") (in CustomerId "c1" "c2") (> StartTime "2026-11-01T00:00:00Z")) | order StartTime DESC',
  ],
];

test('parser: a table of queries and their trees', () => {
  for (const [query, tree] of GOOD) assert.equal(show(parseQuery(query)), tree, query);
});

test('parser: the tree keeps each attribute and literal column, for the type checker\'s messages', () => {
  assert.deepEqual(parseQuery(`WorkflowId = 'a' OR HistoryLength > 3 ORDER BY RunId DESC`), {
    filter: {
      kind: 'or',
      operands: [
        { kind: 'compare', attribute: { name: 'WorkflowId', column: 1 }, op: '=', value: { kind: 'string', value: 'a', column: 14 } },
        { kind: 'compare', attribute: { name: 'HistoryLength', column: 21 }, op: '>', value: { kind: 'number', value: 3, text: '3', column: 37 } },
      ],
    },
    groupBy: [],
    orderBy: [{ attribute: { name: 'RunId', column: 48 }, direction: 'DESC' }],
  });
});

const BAD: [string, string][] = [
  [`WorkflowId FOO 'x'`, 'expected a comparison operator at column 12, found "FOO"'],
  [`WorkflowType FOO 'order'`, 'expected a comparison operator at column 14, found "FOO"'],
  [`WorkflowType = 'order' FOO 'x'`, 'expected AND, OR, GROUP BY, ORDER BY or the end of the query at column 24, found "FOO"'],
  [`WorkflowId = `, 'expected a value: a quoted string, a number, true or false at column 14, found the end of the query'],
  [`WorkflowId = 'abc`, 'expected a closing \' for the string that starts here at column 14, found the end of the query'],
  [`WorkflowId = NULL`, 'expected a value (test for a missing value with IS NULL) at column 14, found "NULL"'],
  [`= 'x'`, 'expected an attribute name at column 1, found "="'],
  [`ORDER = 'x'`, 'expected "BY" after ORDER at column 7, found "="'],
  [`(a = 'x'`, 'expected AND, OR or a closing parenthesis at column 9, found the end of the query'],
  [`a = 'x')`, 'expected AND, OR, GROUP BY, ORDER BY or the end of the query at column 8, found ")"'],
  [`a IN 'x'`, 'expected an opening parenthesis after IN at column 6, found "\'x\'"'],
  [`a IN ('x' 'y')`, 'expected a comma or a closing parenthesis in the IN list at column 11, found "\'y\'"'],
  [`a BETWEEN 1 OR 2`, 'expected AND between the two BETWEEN values at column 13, found "OR"'],
  [`a IS 'x'`, 'expected NULL or NOT NULL after IS at column 6, found "\'x\'"'],
  [`a NOT = 'x'`, 'expected IN, BETWEEN or STARTS_WITH after NOT at column 7, found "="'],
  [`a = 'x' AND`, 'expected an attribute name at column 12, found the end of the query'],
  [`a = 'x' AND AND b = 'y'`, 'expected an attribute name (AND is a keyword; quote an attribute of that name in backticks) at column 13, found "AND"'],
  [`a = 'x' ORDER BY StartTime DESC WorkflowId`, 'expected a comma, ASC, DESC or the end of the query at column 33, found "WorkflowId"'],
  [`a = 'x' ; DROP TABLE t`, 'expected an attribute, a value, an operator or a parenthesis at column 9, found ";"'],
  ['`unterminated = 1', 'expected a closing backtick at column 1, found the end of the query'],
];

test('parser: a table of bad queries and their messages', () => {
  for (const [query, message] of BAD) {
    assert.throws(() => parseQuery(query), (err: unknown) => {
      assert.ok(err instanceof QuerySyntaxError, `${query}: ${String(err)}`);
      assert.equal(err.message, message, query);
      assert.equal(err.field, 'query');
      return true;
    });
  }
});

test('parser: a syntax error carries a caret line under the column for the CLI', () => {
  const err = (() => {
    try { parseQuery(`WorkflowType = 'order' AND FOO`); } catch (e) { return e as QuerySyntaxError; }
    throw new Error('no error');
  })();
  assert.equal(err.column, 31);
  assert.equal(err.expected, 'a comparison operator');
  assert.equal(err.found, 'the end of the query');
  assert.equal(err.pointer(), `WorkflowType = 'order' AND FOO\n${' '.repeat(30)}^`);
});

test('tokenizer: keywords are case-insensitive and keep their source text', () => {
  const kinds = tokenize(`a In ('x') oR b iS nOt NuLl`).map((t) => (t.kind === 'keyword' ? t.keyword : t.kind));
  assert.deepEqual(kinds, ['identifier', 'IN', 'symbol', 'string', 'symbol', 'OR', 'identifier', 'IS', 'NOT', 'NULL', 'end']);
});

test('parser: query length and nesting are bounded, with the rule in the message', () => {
  assert.throws(() => parseQuery(`WorkflowId = '${'x'.repeat(40_000)}'`), /query must be at most 32768 characters, got "WorkflowId = 'x/);
  assert.throws(() => parseQuery(`${'('.repeat(65)}a = 'x'${')'.repeat(65)}`),
    /expected at most 64 nested parentheses, not another at column 65, found "\("/);
  assert.equal(show(parseQuery(`${'('.repeat(64)}a = 'x'${')'.repeat(64)}`)), '(= a "x")');
  assert.throws(() => parseQuery(42 as unknown as string), /query must be a string, got 42/);
});
