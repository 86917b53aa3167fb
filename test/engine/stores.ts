import { openStore } from '../../src/store/index.ts';
import type { Store } from '../../src/store/types.ts';
import type { Fixture } from '../helpers/fixture.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

/** A store an engine test runs on: SQLite (the harness's own file) or a fresh PostgreSQL schema. */
export interface EngineStore {
  name: 'SQLite' | 'PostgreSQL';
  /** A one-line skip reason when PostgreSQL is unreachable outside CI. */
  skip: string | false;
  /** The store for `f.engine()`: undefined for the harness's SQLite file; a schema dropped after the test. */
  open(f: Fixture): Promise<Store | undefined>;
}

/** Both stores, for `fixtureTest` loops; `what` names the tests in the PostgreSQL skip notice. */
export async function engineStores(what: string, schemaPrefix: string): Promise<EngineStore[]> {
  return [
    { name: 'SQLite', skip: false, open: async () => undefined },
    {
      name: 'PostgreSQL', skip: await pgSkipReason(`${what} on PostgreSQL`),
      open: async (f) => {
        const schema = freshSchema(schemaPrefix);
        f.defer('schema', () => dropSchema(schema));
        const store = await openStore(`${PG_URL}?schema=${schema}`);
        f.defer('store', () => store.close());
        return store;
      },
    },
  ];
}
