import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { type ManualClock } from '../../src/retry/clock.ts';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import type { Engine } from '../../src/engine/index.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

export const TASK_QUEUE = 'schedules';
const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/schedules.ts', import.meta.url));

/** A time-skipping environment with a worker running the schedule fixtures. */
export interface ScheduleEnv {
  env: TestEnvironment;
  clock: ManualClock;
  engine: Engine;
  /** Moves time forward `ms`, stopping at every timer on the way and letting the engine and worker settle there. */
  advance(ms: number): Promise<void>;
  /** Waits until the engine is idle (real time). */
  settle(): Promise<void>;
  teardown(): Promise<void>;
}

/** The stores to run on: SQLite always, PostgreSQL when reachable. */
export const STORES = [
  { name: 'SQLite', skip: false as string | false },
  { name: 'PostgreSQL', skip: await pgSkipReason('schedules on PostgreSQL') },
];

export async function scheduleEnv(store: string, start = Date.parse('2027-01-04T00:00:00Z')): Promise<ScheduleEnv> {
  let schema: string | undefined;
  const options: { database?: string } = {};
  if (store === 'PostgreSQL') {
    schema = freshSchema('sf_sched');
    options.database = `${PG_URL}?schema=${schema}`;
  }
  const env = await TestEnvironment.createTimeSkipping(options);
  const clock = env.clock as ManualClock;
  await clock.set(start);
  const engine = env.connection as Engine;
  const worker = await Worker.create({ connection: env.connection, taskQueue: TASK_QUEUE, workflowsPath, activities: {} });
  const running = worker.run();
  const settle = async () => {
    for (let idle = 0; idle < 4;) {
      await delay(2);
      idle = engine.isIdle() ? idle + 1 : 0;
    }
  };
  const advance = async (ms: number) => {
    const target = clock.now() + ms;
    for (;;) {
      await settle();
      const due = clock.nextDue();
      if (due === undefined || due > target) break;
      await clock.set(Math.max(due, clock.now()));
    }
    await clock.set(target);
    await settle();
  };
  return {
    env, clock, engine, advance, settle,
    teardown: async () => {
      worker.shutdown();
      await running;
      await env.teardown();
      if (schema) await dropSchema(schema);
    },
  };
}
