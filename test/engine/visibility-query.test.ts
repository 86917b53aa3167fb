import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../src/client/index.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { startHttpServer } from '../../src/server/index.ts';
import type { Store } from '../../src/store/types.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { setup, T0 } from './helpers.ts';

const schemas: string[] = [];
after(async () => {
  for (const s of schemas) await dropSchema(s);
});
const pgSkip = await pgSkipReason('the PostgreSQL list and count queries');

/** The queries both stores must answer alike: workflow ids in list order, or count answers. */
const LISTS = [
  '',
  "WorkflowType = 'order' AND ExecutionStatus = 'Running'",
  "CustomerId = 'c1'",
  "CustomerId IN ('c1', 'c2') ORDER BY Amount DESC",
  'Amount >= 20 AND Amount < 50',
  "StartTime BETWEEN '2026-01-01T00:00:02Z' AND '2026-01-01T00:00:05Z'",
  "ExecutionStatus = 'Terminated' ORDER BY CloseTime ASC",
  "WorkflowId STARTS_WITH 'wf-1' OR Vip = true",
  'CustomerId IS NULL',
  "Tags = 'red'",
  "Notes = 'rush order'",
  "Due > '2026-02-01T00:00:00Z'",
  "ExecutionDuration < '1h' AND CloseTime IS NOT NULL",
];
const COUNTS = ['', 'GROUP BY ExecutionStatus', "WorkflowType = 'refund' GROUP BY ExecutionStatus", 'GROUP BY CustomerId', 'Vip = true'];

/** Runs the same workload on one store through client → HTTP server → engine, and answers the queries. */
async function answers(store: Store | undefined) {
  const h = await setup(store);
  const server = await startHttpServer({ service: h.engine, port: 0 });
  const client = new Client({ address: server.address });
  try {
    for (const [name, type] of [['CustomerId', 'Keyword'], ['Amount', 'Int'], ['Vip', 'Bool'], ['Tags', 'KeywordList'], ['Notes', 'Text'], ['Due', 'Datetime']] as const) {
      await client.searchAttributes.create({ name, type });
    }
    for (let i = 0; i < 12; i++) {
      await client.workflow.start(i % 3 === 0 ? 'refund' : 'order', {
        taskQueue: 'q', workflowId: `wf-${i}`,
        searchAttributes: {
          ...(i % 4 !== 3 ? { CustomerId: `c${i % 4}` } : {}), Amount: i * 5, Vip: i % 5 === 0,
          ...(i % 2 ? { Tags: i % 3 ? ['red', 'big'] : ['blue'] } : {}),
          ...(i % 3 === 1 ? { Notes: `Rush ORDER number ${i}` } : {}),
          Due: new Date(T0 + i * 5 * 86_400_000),
        },
      });
      await h.advance(1000);
      if (i % 4 === 2) await client.workflow.getHandle(`wf-${i - 1}`).terminate('listed as terminated');
    }
    const lists: Record<string, string[]> = {};
    for (const query of LISTS) {
      const ids: string[] = [];
      for await (const e of client.workflow.list({ query, pageSize: 3 })) ids.push(e.workflowId);
      lists[query] = ids;
    }
    const counts: Record<string, unknown> = {};
    for (const query of COUNTS) counts[query] = await client.workflow.count({ query });
    const described = await client.workflow.getHandle('wf-5').describe();
    return { lists, counts, described: described.searchAttributes };
  } finally {
    client.close();
    await server.close();
    await h.close();
  }
}

test('list and count queries give the same answers on SQLite and PostgreSQL through client, server and engine', { skip: pgSkip }, async () => {
  const sqlite = await answers(undefined);
  const schema = freshSchema('sf_visquery');
  schemas.push(schema);
  const pgStore = await PostgresStore.open(PG_URL, { schema });
  let pgAnswers;
  try {
    pgAnswers = await answers(pgStore);
  } finally {
    await pgStore.close();
  }
  assert.deepEqual(pgAnswers, sqlite);
  // The answers themselves, spot-checked against the workload.
  assert.deepEqual(sqlite.lists[''], ['wf-11', 'wf-10', 'wf-9', 'wf-8', 'wf-7', 'wf-6', 'wf-5', 'wf-4', 'wf-3', 'wf-2', 'wf-1', 'wf-0']);
  assert.deepEqual(sqlite.lists["CustomerId = 'c1'"], ['wf-9', 'wf-5', 'wf-1']);
  assert.deepEqual(sqlite.lists['Amount >= 20 AND Amount < 50'], ['wf-9', 'wf-8', 'wf-7', 'wf-6', 'wf-5', 'wf-4']);
  assert.deepEqual(sqlite.lists["ExecutionStatus = 'Terminated' ORDER BY CloseTime ASC"], ['wf-1', 'wf-5', 'wf-9']);
  assert.deepEqual(sqlite.lists["Notes = 'rush order'"], ['wf-10', 'wf-7', 'wf-4', 'wf-1']);
  assert.deepEqual(sqlite.counts['GROUP BY ExecutionStatus'], {
    count: 12, groups: [{ value: 'Running', groupValues: ['Running'], count: 9 }, { value: 'Terminated', groupValues: ['Terminated'], count: 3 }],
  });
  assert.deepEqual(sqlite.described, { CustomerId: 'c1', Amount: 25, Vip: true, Tags: ['red', 'big'], Due: new Date(T0 + 25 * 86_400_000).toISOString() });
});

test('a query error names the column over HTTP; unregistered and mistyped search attributes are refused at start', async () => {
  const h = await setup();
  const server = await startHttpServer({ service: h.engine, port: 0 });
  const client = new Client({ address: server.address });
  try {
    await client.searchAttributes.create({ name: 'CustomerId', type: 'Keyword' });
    await assert.rejects(client.searchAttributes.create({ name: 'CustomerId', type: 'Int' }), { field: 'name', message: /registered already/ });
    await assert.rejects(client.searchAttributes.create({ name: 'TemporalX', type: 'Int' }), { field: 'name', message: /reserved/ });
    await assert.rejects(client.searchAttributes.create({ name: 'Size', type: 'Long' as never }), { field: 'type' });
    assert.deepEqual((await client.searchAttributes.list()).custom, [{ name: 'CustomerId', type: 'Keyword' }]);
    await assert.rejects(async () => client.workflow.listPage({ query: 'WorkflowId FOO 1' }), { name: 'QuerySyntaxError', column: 12 });
    await assert.rejects(client.workflow.count({ query: "CustomerID = 'x'" }),
      { field: 'query', column: 1, query: "CustomerID = 'x'", message: /unknown search attribute "CustomerID" at column 1 \(did you mean CustomerId\?\)/ });
    await assert.rejects(client.workflow.start('order', { taskQueue: 'q', searchAttributes: { Nope: 'x' } }), { field: 'searchAttributes.Nope' });
    await assert.rejects(client.workflow.start('order', { taskQueue: 'q', searchAttributes: { CustomerId: 5 } }), { field: 'searchAttributes.CustomerId' });
    await assert.rejects(async () => client.workflow.listPage({ query: "WorkflowId = 'x'", workflowType: 'order' }), { field: 'query', message: /cannot be combined/ });
    assert.equal((await client.workflow.count()).count, 0);
  } finally {
    client.close();
    await server.close();
    await h.close();
  }
});
