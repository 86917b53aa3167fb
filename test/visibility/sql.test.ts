import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compileCountQuery, compileListQuery, type CompiledListQuery, type VisibilityRecord,
} from '../../src/store/visibility/index.ts';
import { ValidationError } from '../../src/common/index.ts';
import { freshSchema, pgSkipReason } from '../store/pg-helpers.ts';
import { openPostgresBackend, openSqliteBackend, type Backend } from './backends.ts';
import { ATTRIBUTES, OTHER_ATTRIBUTES, RECORDS } from './dataset.ts';
import { COUNTS, LISTS, PAGED } from './queries.ts';

const skip = await pgSkipReason('the PostgreSQL visibility query tests');
const attributesOf = (namespace: string) => (namespace === 'default' ? ATTRIBUTES : OTHER_ATTRIBUTES);
const backends: Record<'sqlite' | 'postgres', Backend | undefined> = { sqlite: undefined, postgres: undefined };

before(async () => {
  backends.sqlite = openSqliteBackend();
  if (!skip) backends.postgres = await openPostgresBackend(freshSchema('sf_visibility'));
  for (const b of Object.values(backends)) await b?.insert(RECORDS, attributesOf);
});
after(async () => {
  for (const b of Object.values(backends)) await b?.close();
});

async function listAll(b: Backend, query: string, pageSize: number, namespace = 'default'): Promise<VisibilityRecord[]> {
  const out: VisibilityRecord[] = [];
  let token: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const compiled: CompiledListQuery = compileListQuery(b.dialect, {
      namespace, query, attributes: attributesOf(namespace), pageSize, ...(token !== undefined ? { nextPageToken: token } : {}),
    });
    const page = compiled.page(await b.run(compiled.sql, compiled.params));
    out.push(...page.records);
    if (page.nextPageToken === undefined) return out;
    token = page.nextPageToken;
  }
  throw new Error(`${query}: more than 100 pages`);
}

for (const name of ['sqlite', 'postgres'] as const) {
  const opts = { skip: name === 'postgres' ? skip : false };

  test(`${name}: the table of list queries gives the expected runs in order`, opts, async () => {
    const b = backends[name]!;
    for (const [query, runIds] of LISTS) {
      assert.deepEqual((await listAll(b, query, 1000)).map((r) => r.runId), runIds, query);
    }
  });

  test(`${name}: the table of count queries gives the expected counts and groups`, opts, async () => {
    const b = backends[name]!;
    for (const [query, count, groups] of COUNTS) {
      const compiled = compileCountQuery(b.dialect, { namespace: 'default', query, attributes: ATTRIBUTES });
      const answer = compiled.read(await b.run(compiled.sql, compiled.params));
      assert.equal(answer.count, count, query);
      assert.deepEqual(answer.groups?.map((g) => [g.value, g.count]), groups, query);
    }
  });

  test(`${name}: keyset pages of every size join up to the whole list, with no repeat and no gap`, opts, async () => {
    const b = backends[name]!;
    for (const query of PAGED) {
      const whole = (await listAll(b, query, 1000)).map((r) => r.runId);
      assert.ok(whole.length > 3, query);
      for (const size of [1, 2, 3, 5]) assert.deepEqual((await listAll(b, query, size)).map((r) => r.runId), whole, `${query} by ${size}`);
    }
  });

  test(`${name}: a namespace sees only its runs, even where its attribute shares a slot with another namespace's`, opts, async () => {
    const b = backends[name]!;
    assert.deepEqual((await listAll(b, `Region = 'c1'`, 10, 'other')).map((r) => r.runId), ['o01']);
    assert.deepEqual((await listAll(b, `WorkflowId = 'order-1'`, 10, 'other')).map((r) => r.runId), ['o01']);
    assert.ok(!(await listAll(b, `CustomerId = 'c1'`, 10)).some((r) => r.namespace !== 'default'));
  });

  test(`${name}: records read back whole, search attributes included`, opts, async () => {
    const b = backends[name]!;
    const got = await listAll(b, 'ORDER BY RunId', 1000);
    assert.deepEqual(got, RECORDS.filter((r) => r.namespace === 'default').sort((x, y) => (x.runId < y.runId ? -1 : 1)));
  });
}

test('sqlite and postgres give the same pages, tokens included, for every listed query', { skip }, async () => {
  for (const [query] of LISTS) {
    let token: string | undefined;
    do {
      const pages = await Promise.all((['sqlite', 'postgres'] as const).map(async (name) => {
        const b = backends[name]!;
        const c = compileListQuery(b.dialect, {
          namespace: 'default', query, attributes: ATTRIBUTES, pageSize: 4, ...(token !== undefined ? { nextPageToken: token } : {}),
        });
        return c.page(await b.run(c.sql, c.params));
      }));
      assert.deepEqual(pages[0], pages[1], query);
      token = pages[0]!.nextPageToken;
    } while (token !== undefined);
  }
});

test('injection attempts are bound as plain values, never written into the SQL text', async () => {
  const attempts = [`WorkflowId = 'x'' OR 1=1 --'`, `CustomerId = "c1'; DROP TABLE executions_visibility; --"`,
    `WorkflowId IN ('a'' OR ''1''=''1', "b\\" OR 1=1")`, `Notes = 'robert''); DROP TABLE executions_visibility;--'`];
  for (const name of ['sqlite', 'postgres'] as const) {
    const dialect = name === 'sqlite' ? (await import('../../src/store/visibility/index.ts')).sqliteVisibility
      : (await import('../../src/store/visibility/index.ts')).postgresVisibility;
    for (const query of attempts) {
      const c = compileListQuery(dialect, { namespace: "de'fault", query, attributes: ATTRIBUTES, pageSize: 10 });
      assert.doesNotMatch(c.sql, /'|"|1=1|DROP|robert/i, `${name}: ${query}`);
    }
  }
  const b = backends.sqlite!;
  for (const query of attempts) {
    const c = compileListQuery(b.dialect, { namespace: 'default', query, attributes: ATTRIBUTES, pageSize: 100 });
    assert.ok(c.page(await b.run(c.sql, c.params)).records.length <= 1, query);
  }
  assert.equal((await listAll(b, '', 100)).length, 14, 'the table is still there, whole');
});

test('a page token is refused when malformed or made for another ORDER BY', async () => {
  const b = backends.sqlite!;
  const first = compileListQuery(b.dialect, { namespace: 'default', query: 'ORDER BY CloseTime DESC', attributes: ATTRIBUTES, pageSize: 2 });
  const token = first.page(await b.run(first.sql, first.params)).nextPageToken!;
  assert.ok(token);
  assert.throws(() => compileListQuery(b.dialect, { namespace: 'default', query: '', attributes: ATTRIBUTES, pageSize: 2, nextPageToken: token }),
    (err: unknown) => err instanceof ValidationError && err.field === 'nextPageToken'
      && /must come from a query with the same ORDER BY \(the token's is CloseTime DESC,RunId DESC\)/.test(err.message));
  for (const bad of ['garbage', Buffer.from('{"o":"CloseTime DESC,RunId DESC","k":[1]}').toString('base64url'),
    Buffer.from('{"o":"CloseTime DESC,RunId DESC","k":["x","r01"]}').toString('base64url')]) {
    assert.throws(() => compileListQuery(b.dialect, {
      namespace: 'default', query: 'ORDER BY CloseTime DESC', attributes: ATTRIBUTES, pageSize: 2, nextPageToken: bad,
    }), /nextPageToken must be a token returned by a previous page/);
  }
});

test('list and count requests are validated: page size, namespace, clauses', () => {
  const d = backends.sqlite!.dialect;
  assert.throws(() => compileListQuery(d, { namespace: 'default', query: '', attributes: ATTRIBUTES, pageSize: 0 }), /pageSize must be >= 1, got 0/);
  assert.throws(() => compileListQuery(d, { namespace: 'default', query: '', attributes: ATTRIBUTES, pageSize: 1001 }), /pageSize must be <= 1000, got 1001/);
  assert.throws(() => compileListQuery(d, { namespace: '', query: '', attributes: ATTRIBUTES, pageSize: 1 }), /namespace must be a non-empty string/);
  assert.throws(() => compileListQuery(d, { namespace: 'default', query: 'GROUP BY ExecutionStatus', attributes: ATTRIBUTES, pageSize: 1 }),
    /GROUP BY is for counts only/);
  assert.throws(() => compileCountQuery(d, { namespace: 'default', query: 'ORDER BY StartTime', attributes: ATTRIBUTES }), /ORDER BY is for lists only/);
  assert.throws(() => compileListQuery(d, {
    namespace: 'default', query: `CustomerId = 'c'`, attributes: [{ name: 'CustomerId', type: 'Keyword', column: 'keyword_01; DROP' }], pageSize: 1,
  }), /searchAttributes.CustomerId.column must be a Keyword slot column, got "keyword_01; DROP"/);
});

test('postgres: every orderable text column compares by code point (COLLATE "C"), as SQLite does, whatever the database default', { skip }, async () => {
  const b = backends.postgres!;
  const rows = await b.run(`SELECT column_name, collation_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'executions_visibility' AND data_type = 'text' ORDER BY column_name`, []);
  const notC = rows.filter((r) => r.collation_name !== 'C' && !/^(text_\d\d|search_attributes)$/.test(String(r.column_name)));
  assert.deepEqual(notC, []);
  assert.ok(rows.some((r) => r.column_name === 'keyword_10' && r.collation_name === 'C'));
});

test('a cursor is one row-value comparison when the order keys cannot be missing, the expanded form otherwise', async () => {
  const b = backends.sqlite!;
  const second = async (query: string) => {
    const first = compileListQuery(b.dialect, { namespace: 'default', query, attributes: ATTRIBUTES, pageSize: 2 });
    const nextPageToken = first.page(await b.run(first.sql, first.params)).nextPageToken!;
    return compileListQuery(b.dialect, { namespace: 'default', query, attributes: ATTRIBUTES, pageSize: 2, nextPageToken }).sql;
  };
  assert.match(await second(''), /\(start_time, run_id\) < \(\?, \?\) ORDER BY start_time DESC, run_id DESC LIMIT/);
  assert.match(await second('CloseTime IS NOT NULL ORDER BY CloseTime DESC'), /\(close_time, run_id\) < \(\?, \?\) ORDER BY close_time DESC, run_id DESC LIMIT/);
  assert.match(await second(`CloseTime > '2026-01-01T00:00:00Z' ORDER BY CloseTime ASC`), /\(close_time, run_id\) > \(\?, \?\)/);
  const expanded = await second('ORDER BY CloseTime DESC');
  assert.match(expanded, /\(close_time < \? OR close_time IS NULL\)/);
  assert.match(expanded, /ORDER BY close_time DESC NULLS LAST, run_id DESC/);
  assert.match(await second(`CloseTime IS NULL OR CloseTime > 0 ORDER BY CloseTime DESC`.replace('0', "'2026-01-01T00:00:00Z'")), /NULLS LAST/);
});

for (const name of ['sqlite', 'postgres'] as const) {
  test(`${name}: search_attribute_columns holds a namespace's slots, one per name and column, of known types`, { skip: name === 'postgres' ? skip : false }, async () => {
    const b = backends[name]!;
    const p = (i: number) => b.dialect.placeholder(i);
    const insert = `INSERT INTO search_attribute_columns (namespace, name, type, column_name) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`;
    for (const a of ATTRIBUTES) await b.run(insert, ['default', a.name, a.type, a.column]);
    const rows = await b.run(`SELECT name, type, column_name AS "column" FROM search_attribute_columns WHERE namespace = ${p(1)} ORDER BY name`, ['default']);
    const loaded = rows.map((r) => ({ name: String(r.name), type: r.type, column: String(r.column) })) as typeof ATTRIBUTES;
    assert.deepEqual(loaded, [...ATTRIBUTES].sort((x, y) => (x.name < y.name ? -1 : 1)));
    const c = compileListQuery(b.dialect, { namespace: 'default', query: `CustomerId = 'c3'`, attributes: loaded, pageSize: 10 });
    assert.deepEqual(c.page(await b.run(c.sql, c.params)).records.map((r) => r.runId), ['r13', 'r04']);
    await assert.rejects(b.run(insert, ['default', 'CustomerId', 'Keyword', 'keyword_02']), /UNIQUE|duplicate key/i);
    await assert.rejects(b.run(insert, ['default', 'Other', 'Keyword', 'keyword_01']), /UNIQUE|duplicate key/i);
    await assert.rejects(b.run(insert, ['default', 'Odd', 'String', 'keyword_05']), /CHECK|check constraint/i);
  });
}
