import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import {
  assignAttributeColumn, slotColumns, SLOTS_PER_TYPE, sqliteVisibility, VISIBILITY_TABLE, visibilityLayoutSql, visibilityRow, visibilityWrites,
  type CustomAttributeColumn, type VisibilityRecord,
} from '../../src/store/visibility/index.ts';
import { ValidationError } from '../../src/common/index.ts';
import { SEARCH_ATTRIBUTE_TYPES } from '../../src/visibility/index.ts';

test('layout: docs/visibility.md shows the layout the tests run, verbatim, for both stores', () => {
  const doc = readFileSync(new URL('../../docs/visibility.md', import.meta.url), 'utf8');
  for (const dialect of ['sqlite', 'postgres'] as const) {
    assert.ok(doc.includes(visibilityLayoutSql(dialect).trim()), `docs/visibility.md lacks the ${dialect} layout; copy the layout of src/store/sql/${dialect}/0004-visibility.sql`);
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

test('writes: the upsert names every column of a row, and a progress update leaves the row a full upsert would', () => {
  const db = new Database(':memory:');
  db.exec(visibilityLayoutSql('sqlite'));
  const w = visibilityWrites(sqliteVisibility);
  const open: VisibilityRecord = {
    namespace: 'default', runId: 'r1', workflowId: 'w1', workflowType: 'order', taskQueue: 'q', status: 'Running',
    startTime: 1000, executionTime: 1500, historyLength: 3,
  };
  const closed: VisibilityRecord = { ...open, status: 'Completed', closeTime: 4000, historyLength: 11 };
  assert.deepEqual(Object.keys(visibilityRow(sqliteVisibility, open, [])).sort(),
    [...w.upsertSql.matchAll(/\(([^)]*)\) VALUES/g)][0]![1]!.split(', ').sort());
  const read = () => db.prepare(`SELECT * FROM ${VISIBILITY_TABLE} WHERE run_id = 'r1'`).get();
  db.prepare(w.upsertSql).run(...w.upsertParams(closed, []));
  const full = read();
  db.prepare(w.upsertSql).run(...w.upsertParams(open, []));
  assert.equal(db.prepare(w.progressSql).run(...w.progressParams(closed)).changes, 1);
  assert.deepEqual(read(), full);
  // A row that holds attributes is never narrowed: its slots may need clearing.
  db.prepare(w.upsertSql).run(...w.upsertParams({ ...open, searchAttributes: { CustomerId: 'c1' } }, [{ name: 'CustomerId', type: 'Keyword', column: 'keyword_01' }]));
  assert.equal(db.prepare(w.progressSql).run(...w.progressParams(closed)).changes, 0);
  db.close();
});
