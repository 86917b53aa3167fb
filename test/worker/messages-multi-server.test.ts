import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../src/engine/index.ts';
import { PostgresStore } from '../../src/store/index.ts';
import { Client } from '../../src/client/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { addItem, finish, itemsQuery, limiter, limitQuery, setLimit, collector } from '../fixtures/workflows/messages.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

const skip = await pgSkipReason('the two-servers-on-PostgreSQL message test');
const schema = freshSchema('sf_messages_multi');
after(async () => {
  if (!skip) await dropSchema(schema);
});

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/messages.ts', import.meta.url));

test('two servers on one PostgreSQL: queries, updates and signals sent to one reach a worker polling the other', { skip }, async () => {
  const stores = [await PostgresStore.open(PG_URL, { schema }), await PostgresStore.open(PG_URL, { schema })];
  const [front, back] = await Promise.all(stores.map((store, i) => Engine.create({ store, identity: `server-${i}` })));
  try {
    const client = new Client({ connection: front! });
    const worker = await Worker.create({ connection: back!, taskQueue: 'multi-messages', workflowsPath, activities: { echo: async (s: string) => s } });
    await worker.runUntil(async () => {
      const c = await client.workflow.start(collector, { taskQueue: 'multi-messages', workflowId: 'multi-collector', args: [0] });
      await c.signal(addItem, 'one');
      assert.deepEqual(await c.query(itemsQuery), ['one']);
      const l = await client.workflow.start(limiter, { taskQueue: 'multi-messages', workflowId: 'multi-limiter' });
      assert.equal(await l.executeUpdate(setLimit, { args: [3] }), 0);
      await assert.rejects(l.executeUpdate(setLimit, { args: [-2] }), /rejected by its validator/);
      assert.equal(await l.query(limitQuery), 3);
      await c.signal(finish);
      await l.signal(finish);
      assert.deepEqual(await c.result(), ['one']);
      assert.equal(await l.result(), 3);
    });
  } finally {
    await front!.shutdown();
    await back!.shutdown();
    await Promise.all(stores.map((s) => s.close()));
  }
});
