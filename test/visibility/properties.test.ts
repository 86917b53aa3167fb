import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileCountQuery, compileListQuery } from '../../src/store/visibility/index.ts';
import { checkQuery } from '../../src/visibility/index.ts';
import { freshSchema, pgSkipReason } from '../store/pg-helpers.ts';
import { openPostgresBackend, openSqliteBackend, type Backend } from './backends.ts';
import { ATTRIBUTES, OTHER_ATTRIBUTES, RECORDS, T0 } from './dataset.ts';
import { referenceList } from './reference.ts';

const skip = await pgSkipReason('the PostgreSQL visibility property tests');
const stores: Backend[] = [];
before(async () => {
  stores.push(openSqliteBackend());
  if (!skip) stores.push(await openPostgresBackend(freshSchema('sf_visprop')));
  for (const b of stores) await b.insert(RECORDS, (ns) => (ns === 'default' ? ATTRIBUTES : OTHER_ATTRIBUTES));
});
after(async () => {
  for (const b of stores) await b.close();
});

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
const H = 3_600_000;
const time = (ms: number) => q(new Date(Math.floor(ms)).toISOString().replace('Z', `${String(Math.round((ms % 1) * 1e6)).padStart(6, '0')}Z`));
const keyword = (values: string[]) => fc.constantFrom(...values, 'c', 'zzz', "it's").map(q);
const times = fc.oneof(fc.integer({ min: -50, max: 30 }).map((h) => time(T0 + h * H)), fc.constantFrom(time(T0 + 3 * H + 0.5), time(T0 + 24 * H - 0.25)));

// Each generator yields a predicate on one attribute, with operators and literals its type takes.
const predicate = fc.oneof(
  fc.tuple(fc.constantFrom('WorkflowId', 'CustomerId', 'WorkflowType', 'TemporalScheduledById'), fc.constantFrom('=', '!=', '>', '>=', '<', '<='),
    keyword(['order-1', 'order-10', 'pay-2', 'c1', 'c2', 'c3', 'é1', 'order', 'payment', 'sched-a'])).map(([a, op, v]) => `${a} ${op} ${v}`),
  fc.tuple(fc.constantFrom('WorkflowId', 'CustomerId'), fc.boolean(), fc.constantFrom('order-', 'order-1', 'c', 'c1', 'x', 'p', ''))
    .map(([a, not, p]) => `${a} ${not ? 'NOT ' : ''}STARTS_WITH ${q(p)}`),
  fc.tuple(fc.constantFrom('CustomerId', 'ExecutionStatus'), fc.boolean(), fc.subarray(['c1', 'c2', 'c4', 'Running', 'Completed', 'Failed'], { minLength: 1 }))
    .map(([a, not, vs]) => (a === 'ExecutionStatus' ? vs.filter((v) => !v.startsWith('c')) : vs).length === 0 ? `${a} IS NOT NULL`
      : `${a} ${not ? 'NOT ' : ''}IN (${(a === 'ExecutionStatus' ? vs.filter((v) => !v.startsWith('c')) : vs).map(q).join(', ')})`),
  fc.tuple(fc.constantFrom('StartTime', 'CloseTime', 'ExecutionTime', 'DueAt', 'TemporalScheduledStartTime'), fc.constantFrom('=', '!=', '>', '>=', '<', '<='), times)
    .map(([a, op, v]) => `${a} ${op} ${v}`),
  fc.tuple(fc.constantFrom('StartTime', 'CloseTime', 'DueAt'), fc.boolean(), times, times).map(([a, not, x, y]) => `${a} ${not ? 'NOT ' : ''}BETWEEN ${x} AND ${y}`),
  fc.tuple(fc.constantFrom('Priority', 'HistoryLength'), fc.constantFrom('=', '!=', '>', '>=', '<', '<='), fc.integer({ min: -1, max: 45 })).map(([a, op, v]) => `${a} ${op} ${v}`),
  fc.tuple(fc.constantFrom('Amount'), fc.constantFrom('=', '!=', '>', '>=', '<', '<='), fc.constantFrom(-12.25, 0, 0.5, 10.5, 42, 99.99, 1e6)).map(([a, op, v]) => `${a} ${op} ${v}`),
  fc.tuple(fc.constantFrom('=', '!=', '>', '>=', '<', '<='), fc.constantFrom("'1h'", "'90m'", "'30s'", "'1m'", '5000000000', "'11h'", "'0.5ms'"))
    .map(([op, v]) => `ExecutionDuration ${op} ${v}`),
  fc.tuple(fc.constantFrom('=', '!='), fc.boolean()).map(([op, v]) => `Vip ${op} ${v}`),
  fc.tuple(fc.constantFrom('=', '!='), fc.constantFrom('alice', 'rush order', 'BOB', 'notes', 'nothing')).map(([op, v]) => `Notes ${op} ${q(v)}`),
  fc.tuple(fc.constantFrom('=', '!=', 'IN', 'NOT IN'), fc.subarray(['red', 'blue', 'green', 'yellow', 'pink'], { minLength: 1 }))
    .map(([op, vs]) => (op.endsWith('IN') ? `Tags ${op} (${vs.map(q).join(', ')})` : `Tags ${op} ${q(vs[0]!)}`)),
  fc.tuple(fc.constantFrom('CloseTime', 'Tags', 'Notes', 'Vip', 'DueAt', 'TemporalScheduledById', 'ExecutionDuration'), fc.boolean())
    .map(([a, not]) => `${a} IS ${not ? 'NOT ' : ''}NULL`),
);

const filter: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
  f: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    predicate,
    fc.tuple(tie('f'), fc.constantFrom('AND', 'OR'), tie('f')).map(([a, op, b]) => `(${a} ${op} ${b})`)),
})).f;

const orderBy = fc.subarray(['StartTime', 'CloseTime', 'WorkflowId', 'Priority', 'Amount', 'Vip', 'DueAt', 'HistoryLength', 'ExecutionStatus'], { maxLength: 3 })
  .chain((names) => fc.tuple(fc.constant(names), fc.array(fc.constantFrom('ASC', 'DESC'), { minLength: names.length, maxLength: names.length })))
  .map(([names, dirs]) => (names.length ? ` ORDER BY ${names.map((n, i) => `${n} ${dirs[i]}`).join(', ')}` : ''));

async function listIds(b: Backend, query: string, pageSize: number): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const c = compileListQuery(b.dialect, { namespace: 'default', query, attributes: ATTRIBUTES, pageSize, ...(token ? { nextPageToken: token } : {}) });
    const page = c.page(await b.run(c.sql, c.params));
    ids.push(...page.records.map((r) => r.runId));
    token = page.nextPageToken;
  } while (token !== undefined);
  return ids;
}

test('property: for generated queries, every store and every page size give the reference answer', async () => {
  const records = RECORDS.filter((r) => r.namespace === 'default');
  await fc.assert(fc.asyncProperty(fc.option(filter, { nil: '' }), orderBy, fc.integer({ min: 1, max: 6 }), async (where, order, pageSize) => {
    const query = `${where}${order}`;
    const expected = referenceList(records, checkQuery(query, ATTRIBUTES, 'list'));
    for (const b of stores) {
      assert.deepEqual(await listIds(b, query, 1000), expected, `${b.dialect.name}: ${query}`);
      assert.deepEqual(await listIds(b, query, pageSize), expected, `${b.dialect.name} by ${pageSize}: ${query}`);
      const c = compileCountQuery(b.dialect, { namespace: 'default', query: where, attributes: ATTRIBUTES });
      assert.equal(c.read(await b.run(c.sql, c.params)).count, expected.length, `${b.dialect.name} count: ${where}`);
    }
  }), { numRuns: 300 });
});
