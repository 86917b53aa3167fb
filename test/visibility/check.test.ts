import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkQuery, SearchAttributeTypeError, UnknownSearchAttributeError, UnsupportedQueryError, type VisibilityQueryError,
} from '../../src/visibility/index.ts';
import { DEFS } from './definitions.ts';


const valueOf = (query: string): unknown => {
  const f = checkQuery(query, DEFS).filter;
  assert.ok(f && f.kind === 'compare', query);
  return f.value;
};

test('check: literals become typed values (Datetime and ExecutionDuration in ms)', () => {
  const cases: [string, unknown][] = [
    [`CustomerId = 'c1'`, 'c1'],
    [`Priority = 3`, 3],
    [`Amount = 3`, 3],
    [`Amount < 2.5`, 2.5],
    [`Vip = true`, true],
    [`Vip = 'FALSE'`, false],
    [`StartTime > '2026-11-01T00:00:00Z'`, Date.UTC(2026, 10, 1)],
    [`StartTime > '2026-11-01T01:30:00+01:30'`, Date.UTC(2026, 10, 1)],
    [`StartTime > '2026-11-01T00:00:00.123Z'`, Date.UTC(2026, 10, 1) + 123],
    [`StartTime > '2026-11-01T00:00:00.000000500Z'`, Date.UTC(2026, 10, 1) + 0.0005],
    [`DueAt <= '2026-02-28T23:59:59Z'`, Date.UTC(2026, 1, 28, 23, 59, 59)],
    [`ExecutionDuration > '1h30m'`, 5_400_000],
    [`ExecutionDuration > '1.5s'`, 1500],
    [`ExecutionDuration > '250ms'`, 250],
    [`ExecutionDuration > '10us'`, 0.01],
    [`ExecutionDuration > 3600000000000`, 3_600_000],
    [`ExecutionDuration > '2000000'`, 2],
    [`Tags = 'red'`, 'red'],
    [`Notes = 'Hello world'`, 'Hello world'],
    [`ExecutionStatus = 'ContinuedAsNew'`, 'ContinuedAsNew'],
  ];
  for (const [query, value] of cases) assert.equal(valueOf(query), value, query);
});

test('check: attributes resolve to built-ins (with their nullability) and custom definitions', () => {
  const q = checkQuery(`CloseTime IS NULL AND WorkflowId = 'a' AND Priority = 1 ORDER BY DueAt DESC`, DEFS);
  assert.deepEqual(q.filter, {
    kind: 'and',
    operands: [
      { kind: 'isNull', attribute: { name: 'CloseTime', type: 'Datetime', nullable: true, builtIn: true }, negated: false },
      { kind: 'compare', attribute: { name: 'WorkflowId', type: 'Keyword', nullable: false, builtIn: true }, op: '=', value: 'a' },
      { kind: 'compare', attribute: { name: 'Priority', type: 'Int', nullable: true, builtIn: false }, op: '=', value: 1 },
    ],
  });
  assert.deepEqual(q.orderBy, [{ attribute: { name: 'DueAt', type: 'Datetime', nullable: true, builtIn: false }, direction: 'DESC' }]);
});

const ERRORS: [string, new (...a: any[]) => VisibilityQueryError, string][] = [
  [`CustomerId = 5`, SearchAttributeTypeError, 'CustomerId is a Keyword attribute: the value at column 14 must be a quoted string, got 5'],
  [`Priority = '5'`, SearchAttributeTypeError, 'Priority is an Int attribute: the value at column 12 must be an integer between -(2^53 - 1) and 2^53 - 1, got "5"'],
  [`Priority = 1.5`, SearchAttributeTypeError, 'Priority is an Int attribute: the value at column 12 must be an integer between -(2^53 - 1) and 2^53 - 1, got 1.5'],
  [`Amount = 'x'`, SearchAttributeTypeError, 'Amount is a Double attribute: the value at column 10 must be a finite number, got "x"'],
  [`Vip = 1`, SearchAttributeTypeError, 'Vip is a Bool attribute: the value at column 7 must be true or false, got 1'],
  [`StartTime > '2026-11-01'`, SearchAttributeTypeError, `StartTime is a Datetime attribute: the value at column 13 must be an RFC 3339 date-time such as '2026-11-01T00:00:00Z', got "2026-11-01"`],
  [`StartTime > '2026-02-30T00:00:00Z'`, SearchAttributeTypeError, `StartTime is a Datetime attribute: the value at column 13 must be an RFC 3339 date-time such as '2026-11-01T00:00:00Z', got "2026-02-30T00:00:00Z"`],
  [`ExecutionDuration > '1 hour'`, SearchAttributeTypeError, `ExecutionDuration is an Int attribute: the value at column 21 must be a duration such as '1h30m', '1.5s' or '250ms', or an integer number of nanoseconds, got "1 hour"`],
  [`ExecutionStatus = 'running'`, SearchAttributeTypeError, 'ExecutionStatus is a Keyword attribute: the value at column 19 must be one of Running, Completed, Failed, Canceled, Terminated, ContinuedAsNew, TimedOut, got "running"'],
  [`Notes = '!!'`, SearchAttributeTypeError, 'Notes is a Text attribute: the value at column 9 must contain at least one word (letters or digits), got "!!"'],
  [`CustomerID = 'c'`, UnknownSearchAttributeError, 'unknown search attribute "CustomerID" at column 1 (did you mean CustomerId?)'],
  [`Region = 'eu'`, UnknownSearchAttributeError, 'unknown search attribute "Region" at column 1'],
  [`Notes > 'a'`, UnsupportedQueryError, 'Notes is a Text attribute and does not support > (column 1); it supports =, !=, IS NULL, but not ORDER BY'],
  [`Tags STARTS_WITH 'a'`, UnsupportedQueryError, 'Tags is a KeywordList attribute and does not support STARTS_WITH (column 1); it supports =, !=, IN, IS NULL, but not ORDER BY'],
  [`Priority STARTS_WITH '1'`, UnsupportedQueryError, 'Priority is an Int attribute and does not support STARTS_WITH (column 1); it supports =, !=, >, >=, <, <=, IN, BETWEEN, IS NULL'],
  [`Vip IN (true)`, UnsupportedQueryError, 'Vip is a Bool attribute and does not support IN (column 1); it supports =, !=, IS NULL'],
  [`ORDER BY Notes`, UnsupportedQueryError, 'Notes is a Text attribute and does not support ORDER BY (column 10); it supports =, !=, IS NULL, but not ORDER BY'],
  [`ORDER BY StartTime, StartTime DESC`, UnsupportedQueryError, 'ORDER BY names StartTime twice (again at column 21)'],
  [`GROUP BY StartTime`, UnsupportedQueryError, 'cannot GROUP BY StartTime (column 10): it is a Datetime attribute; group by a Keyword, Int or Bool attribute'],
  [`GROUP BY ExecutionStatus, WorkflowType`, UnsupportedQueryError, 'GROUP BY takes one attribute; WorkflowType at column 27 is a second one'],
];

test('check: a table of ill-typed queries and their named errors', () => {
  for (const [query, cls, message] of ERRORS) {
    assert.throws(() => checkQuery(query, DEFS), (err: unknown) => {
      assert.ok(err instanceof cls, `${query}: ${String(err)}`);
      assert.equal((err as Error).message, message, query);
      return true;
    });
  }
});

test('check: the type error names the attribute, its type and the value as fields', () => {
  try {
    checkQuery(`WorkflowType = 'x' AND CustomerId = 5`, DEFS);
    assert.fail('no error');
  } catch (err) {
    assert.ok(err instanceof SearchAttributeTypeError);
    assert.equal(err.attribute, 'CustomerId');
    assert.equal(err.attributeType, 'Keyword');
    assert.equal(err.value, 5);
    assert.equal(err.column, 37);
  }
});

test('check: a list refuses GROUP BY and a count refuses ORDER BY', () => {
  assert.throws(() => checkQuery(`GROUP BY ExecutionStatus`, DEFS, 'list'),
    /GROUP BY is for counts only; remove GROUP BY ExecutionStatus \(column 10\) from this list query/);
  assert.throws(() => checkQuery(`ORDER BY StartTime`, DEFS, 'count'),
    /ORDER BY is for lists only; remove ORDER BY StartTime \(column 10\) from this count query/);
  assert.equal(checkQuery(`GROUP BY ExecutionStatus`, DEFS, 'count').groupBy[0]?.name, 'ExecutionStatus');
});

test('check: an unregistered attribute is unknown even when another namespace has it', () => {
  assert.throws(() => checkQuery(`CustomerId = 'c'`, []), UnknownSearchAttributeError);
});
