import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import type { WorkflowHandle } from '../../src/client/index.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { waitFor } from '../helpers/wait.ts';

export { waitFor };

export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/workflows/${name}`, import.meta.url));
export const COMPOSITION = fixture('composition.ts');

/** One store the suite runs on: a SQLite file, or a fresh PostgreSQL schema. */
export interface Backend {
  name: 'sqlite' | 'postgres';
  /** A one-line skip reason when the backend is unavailable (PostgreSQL outside CI). */
  skipReason(): Promise<string | false>;
  env(): Promise<TestEnvironment>;
  cleanup(): Promise<void>;
}

/** SQLite and PostgreSQL, each with a time-skipping environment per test. */
export function backends(prefix: string): Backend[] {
  const schemas: string[] = [];
  return [
    { name: 'sqlite', skipReason: async () => false, env: () => TestEnvironment.createTimeSkipping(), cleanup: async () => {} },
    {
      name: 'postgres',
      skipReason: () => pgSkipReason(`${prefix} tests on PostgreSQL`),
      env: () => {
        const schema = freshSchema(prefix);
        schemas.push(schema);
        return TestEnvironment.createTimeSkipping({ database: `${PG_URL}?schema=${schema}` });
      },
      cleanup: async () => {
        for (const s of schemas.splice(0)) await dropSchema(s);
      },
    },
  ];
}

/** Waits until the handle's run history has an event of `type`. */
export function waitForEvent(handle: WorkflowHandle, type: string): Promise<HistoryEvent> {
  return waitFor(`${type} in ${handle.workflowId}`, async () => (await handle.fetchHistory()).events.find((e) => e.eventType === type));
}

export function types(events: HistoryEvent[]): string[] {
  return events.map((e) => e.eventType);
}

/** The scaffold of a suite on one backend, from {@link onBackend}. */
export interface BackendSuite {
  /** The backend's skip reason (PostgreSQL unreachable outside CI), for each test's `skip`. */
  readonly skip: string | false;
  /** The suite's environment, made before its first test and torn down after its last. */
  readonly env: TestEnvironment;
  /** A task queue name no other test of the suite uses: `<backend>-<name>-<n>`. */
  queue(name: string): string;
}

/** Registers, in the calling `describe`, the before/after that make and tear down `backend`'s environment. */
export async function onBackend(backend: Backend): Promise<BackendSuite> {
  const skip = await backend.skipReason();
  let env: TestEnvironment | undefined;
  let q = 0;
  before(async () => {
    if (!skip) env = await backend.env();
  });
  after(async () => {
    await env?.teardown();
    await backend.cleanup();
  });
  return { skip, get env() { return env!; }, queue: (name) => `${backend.name}-${name}-${++q}` };
}
