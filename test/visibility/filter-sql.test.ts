import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCountQuery, postgresVisibility, sqliteVisibility } from '../../src/store/visibility/index.ts';
import { successor } from '../../src/store/visibility/filter-sql.ts';
import { ATTRIBUTES } from './dataset.ts';

test('successor: the least string after every string with the prefix, in code point order', () => {
  assert.equal(successor('order-'), 'order.');
  assert.equal(successor('a\u{10FFFF}'), 'b');
  assert.equal(successor('\u{10FFFF}\u{10FFFF}'), undefined);
  assert.equal(successor('x\uD7FF'), 'x\uE000');
  assert.equal(successor('é'), 'ê');
});

const where = (dialect: typeof sqliteVisibility, query: string) => {
  const c = compileCountQuery(dialect, { namespace: 'default', query, attributes: ATTRIBUTES });
  return { sql: c.sql.replace(/^SELECT COUNT\(\*\) AS count FROM executions_visibility WHERE namespace = (\?|\$1) AND /, ''), params: c.params.slice(1) };
};

test('filters compile to the documented SQL in each dialect, values as parameters', () => {
  const cases: [string, string, string, unknown[], unknown[]?][] = [
    [`WorkflowId STARTS_WITH 'order-'`, '(workflow_id >= ? AND workflow_id < ?)', '(workflow_id >= $2 AND workflow_id < $3)', ['order-', 'order.']],
    [`Notes = 'Rush, order'`, '(instr(text_01, ?) > 0 AND instr(text_01, ?) > 0)', '(strpos(text_01, $2) > 0 AND strpos(text_01, $3) > 0)', [' rush ', ' order ']],
    [`Tags != 'red'`, '(keyword_list_01 IS NOT NULL AND NOT (EXISTS (SELECT 1 FROM json_each(keyword_list_01) WHERE json_each.value IN (?))))',
      '(keyword_list_01 IS NOT NULL AND NOT (keyword_list_01 && $2::text[]))', ['red'], [['red']]],
    [`Vip = true`, 'bool_01 = ?', 'bool_01 = $2', [true]],
    [`StartTime > '2026-11-01T00:00:00.0005Z'`, 'start_time > ?', 'start_time > $2', [Date.UTC(2026, 10, 1)]],
    [`StartTime >= '2026-11-01T00:00:00.0005Z'`, 'start_time >= ?', 'start_time >= $2', [Date.UTC(2026, 10, 1) + 1]],
    [`StartTime = '2026-11-01T00:00:00.0005Z'`, '(1 = 0)', '(1 = 0)', []],
    [`StartTime != '2026-11-01T00:00:00.0005Z'`, 'start_time IS NOT NULL', 'start_time IS NOT NULL', []],
    [`ExecutionDuration BETWEEN '0.5ms' AND '2.5ms'`, 'execution_duration BETWEEN ? AND ?', 'execution_duration BETWEEN $2 AND $3', [1, 2]],
    [`CloseTime IS NULL OR HistoryLength NOT IN (1, 2)`, '(close_time IS NULL OR history_length NOT IN (?, ?))', '(close_time IS NULL OR history_length NOT IN ($2, $3))', [1, 2]],
  ];
  for (const [query, sqlite, postgres, params, pgParams] of cases) {
    const s = where(sqliteVisibility, query);
    const p = where(postgresVisibility, query);
    assert.equal(s.sql, sqlite, query);
    assert.equal(p.sql, postgres, query);
    assert.deepEqual(p.params, pgParams ?? params, query);
    assert.deepEqual(s.params, params.map((v) => (typeof v === 'boolean' ? Number(v) : v)), query);
  }
});
