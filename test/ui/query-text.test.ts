import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  complete, looseTokens, orderOf, splitQuery, statusCountQuery, withOrder, withStatus, type AttributeInfo,
} from '../../src/ui/query-text.ts';

const attrs: AttributeInfo[] = [
  { name: 'WorkflowType', type: 'Keyword' }, { name: 'ExecutionStatus', type: 'Keyword' }, { name: 'StartTime', type: 'Datetime' },
  { name: 'HistoryLength', type: 'Int' }, { name: 'Notes', type: 'Text' }, { name: 'Vip', type: 'Bool' }, { name: 'Order-Id', type: 'Keyword' },
];
const now = Date.parse('2026-11-24T12:00:00Z');
const labels = (text: string, cursor = text.length) => complete(text, cursor, attrs, { now, seen: { WorkflowType: ['order', 'refund'] } }).items.map((c) => c.label);

test('attribute names where a predicate starts, filtered by what is typed, keyword-like names in backticks', () => {
  assert.deepEqual(labels(''), [...attrs.map((a) => a.name), 'ORDER BY', 'GROUP BY']);
  assert.deepEqual(labels('Wor'), ['WorkflowType']);
  assert.deepEqual(labels("WorkflowType = 'x' AND (Exec"), ['ExecutionStatus']);
  const order = complete('Ord', 3, attrs, { now }).items;
  assert.deepEqual(order.map((c) => c.insert), ['`Order-Id`', 'ORDER BY']);
});

test("operators follow the attribute's type; values follow the operator", () => {
  assert.deepEqual(labels('Vip '), ['=', '!=', 'IS NULL', 'IS NOT NULL']);
  assert.ok(labels('WorkflowType ').includes('STARTS_WITH'));
  assert.ok(!labels('StartTime ').includes('STARTS_WITH'));
  assert.deepEqual(labels('ExecutionStatus = '), ["'Running'", "'Completed'", "'Failed'", "'Canceled'", "'Terminated'", "'ContinuedAsNew'", "'TimedOut'"]);
  assert.deepEqual(labels("ExecutionStatus IN ('Running', 'Fa"), ["'Failed'"]);
  assert.deepEqual(labels('Vip = '), ['true', 'false']);
  assert.deepEqual(labels("WorkflowType = 're"), ["'refund'"]);
  assert.deepEqual(complete('StartTime > ', 12, attrs, { now }).items[1], { label: "'2026-11-24T11:00:00Z'", insert: "'2026-11-24T11:00:00Z'", detail: '1 hour ago' });
  assert.deepEqual(labels('HistoryLength BETWEEN 1 '), ['AND']);
  assert.deepEqual(labels('Vip IS '), ['NULL', 'NOT NULL']);
});

test('after a value the connectives; in ORDER BY the orderable attributes and directions', () => {
  assert.deepEqual(labels("WorkflowType = 'order' "), ['AND', 'OR', 'ORDER BY', 'GROUP BY']);
  assert.deepEqual(labels("WorkflowType = 'order' o"), ['OR', 'ORDER BY']);
  assert.deepEqual(labels('ORDER BY '), ['WorkflowType', 'ExecutionStatus', 'StartTime', 'HistoryLength', 'Vip', 'Order-Id']);
  assert.deepEqual(labels('ORDER BY StartTime '), ['DESC', 'ASC', ',']);
  assert.deepEqual(labels('GROUP BY '), ['WorkflowType', 'ExecutionStatus', 'HistoryLength', 'Vip', 'Order-Id']);
});

test('the filter and the tail of a query, ORDER BY replaced, a status added, the count by status', () => {
  const q = "WorkflowId = 'order by' ORDER BY StartTime ASC";
  assert.deepEqual(splitQuery(q), { filter: "WorkflowId = 'order by'", tail: 'ORDER BY StartTime ASC' });
  assert.deepEqual(orderOf(q), { attribute: 'StartTime', desc: false });
  assert.equal(orderOf("WorkflowId = 'x'"), undefined);
  assert.equal(withOrder(q, 'CloseTime', true), "WorkflowId = 'order by' ORDER BY CloseTime DESC");
  assert.equal(withOrder('', 'CloseTime', false), 'ORDER BY CloseTime ASC');
  assert.equal(withStatus(q, 'Failed'), "(WorkflowId = 'order by') AND ExecutionStatus = 'Failed' ORDER BY StartTime ASC");
  assert.equal(withStatus('', 'Failed'), "ExecutionStatus = 'Failed'");
  assert.equal(withStatus(q, ''), q);
  assert.equal(statusCountQuery(q), "WorkflowId = 'order by' GROUP BY ExecutionStatus");
  assert.equal(statusCountQuery(''), 'GROUP BY ExecutionStatus');
});

test('the loose tokenizer keeps going through unfinished strings and unknown characters', () => {
  assert.deepEqual(looseTokens("a = 'it''s").map((t) => [t.kind, t.text, t.open ?? false]), [['word', 'a', false], ['symbol', '=', false], ['string', "'it''s", true]]);
  assert.deepEqual(looseTokens('a ~ -1.5').map((t) => t.kind), ['word', 'symbol', 'number']);
});
