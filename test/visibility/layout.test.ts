import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  assignAttributeColumn, slotColumns, SLOTS_PER_TYPE, visibilityLayoutSql, type CustomAttributeColumn,
} from '../../src/store/visibility/index.ts';
import { ValidationError } from '../../src/common/index.ts';
import { SEARCH_ATTRIBUTE_TYPES } from '../../src/visibility/index.ts';

test('layout: docs/visibility.md shows the layout the tests run, verbatim, for both stores', () => {
  const doc = readFileSync(new URL('../../docs/visibility.md', import.meta.url), 'utf8');
  for (const dialect of ['sqlite', 'postgres'] as const) {
    assert.ok(doc.includes(visibilityLayoutSql(dialect).trim()), `docs/visibility.md lacks the ${dialect} layout; copy src/store/visibility/sql/visibility.${dialect}.sql`);
  }
});

test('layout: every slot column of every type exists in both layouts', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const sql = visibilityLayoutSql(dialect);
    for (const type of SEARCH_ATTRIBUTE_TYPES) {
      for (const column of slotColumns(type)) assert.match(sql, new RegExp(`\\b${column} `), `${dialect}: ${column}`);
    }
  }
});

test('layout: attributes take the first free slot of their type, and a full type is refused by name', () => {
  const taken: CustomAttributeColumn[] = [];
  for (let i = 0; i < SLOTS_PER_TYPE.Int; i++) taken.push(assignAttributeColumn(taken, { name: `N${i}`, type: 'Int' }));
  assert.deepEqual(taken.map((c) => c.column), ['int_01', 'int_02', 'int_03']);
  assert.equal(assignAttributeColumn(taken, { name: 'K', type: 'Keyword' }).column, 'keyword_01');
  assert.equal(assignAttributeColumn(taken.filter((c) => c.column !== 'int_02'), { name: 'M', type: 'Int' }).column, 'int_02');
  assert.throws(() => assignAttributeColumn(taken, { name: 'Extra', type: 'Int' }), (err: unknown) =>
    err instanceof ValidationError && err.message === 'searchAttributes.Extra cannot be registered: all 3 Int attributes of the namespace are in use, got "Int"');
});
