import { test } from 'node:test';
import { PostgresStore } from '../../src/store/index.ts';
import { dropSchema, freshSchema, PG_URL } from '../store/pg-helpers.ts';
import { setup, type Harness } from './helpers.ts';

/** Two engines, each with a store of its own (two servers), on one PostgreSQL schema. */
export interface TwoServers {
  a: Harness;
  b: Harness;
  stores: [PostgresStore, PostgresStore];
  /** The schema both use. */
  schema: string;
}

/**
 * A test of two servers on a fresh schema named after `prefix`; the engines and stores are
 * closed and the schema dropped afterwards.
 */
export function twoServerTest(title: string, skip: string | false, prefix: string, fn: (h: TwoServers) => Promise<void>): Promise<void> {
  return test(title, { skip }, async () => {
    const schema = freshSchema(prefix);
    const stores: [PostgresStore, PostgresStore] = [
      await PostgresStore.open(PG_URL, { schema, poolSize: 4 }), await PostgresStore.open(PG_URL, { schema, poolSize: 4 }),
    ];
    const h = { a: await setup(stores[0]), b: await setup(stores[1]), stores, schema };
    try {
      await fn(h);
    } finally {
      await h.a.close();
      await h.b.close();
      for (const s of stores) await s.close();
      await dropSchema(schema);
    }
  });
}
