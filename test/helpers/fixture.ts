/**
 * One fixture for tests that start things: what a test starts through it (a test environment,
 * an engine harness, a worker, anything with a close) is torn down after the test, last started
 * first, whether the test passed or not; then the test FAILS if the process holds more live
 * resources than before it began (process.getActiveResourcesInfo(): a server, a socket, a
 * timer, a child process left behind), naming them.
 */
import { test, type TestContext, type TestOptions } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { TestEnvironment, type TestEnvironmentOptions } from '../../src/testing/index.ts';
import { Worker, type WorkerOptions } from '../../src/worker/index.ts';
import { setup, type Harness } from '../engine/helpers.ts';
import type { Store } from '../../src/store/types.ts';

/** How long teardown may take to let sockets and timers close before the leftovers count as leaks, ms of real time. */
const SETTLE_MS = 2000;

/** Counts of live resources by type, as process.getActiveResourcesInfo() lists them. */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/**
 * The resources once those an earlier test closed are gone: counts are read until they stop
 * falling (a closed server or socket leaves the list a few turns after its close resolved).
 */
async function settledResources(): Promise<Map<string, number>> {
  let now = activeResources();
  for (let i = 0; i < 50; i++) {
    await delay(10);
    const next = activeResources();
    if (resourcesAdded(next, now).length === 0) return next;
    now = next;
  }
  return now;
}

/** Resources in `now` beyond those in `before`: `["1 TCPServerWrap", "2 Timeout"]`. */
export function resourcesAdded(before: Map<string, number>, now: Map<string, number>): string[] {
  const added: string[] = [];
  for (const [type, n] of now) {
    const extra = n - (before.get(type) ?? 0);
    if (extra > 0) added.push(`${extra} ${type}`);
  }
  return added.sort();
}

/** What a test starts, to be stopped after it. */
export class Fixture {
  readonly #cleanups: Array<{ what: string; close: () => unknown }> = [];

  /** Runs `close` at teardown (the last registered first). */
  defer(what: string, close: () => unknown): void {
    this.#cleanups.push({ what, close });
  }

  /** A time-skipping test environment, torn down after the test. */
  async env(options: TestEnvironmentOptions = {}): Promise<TestEnvironment> {
    const env = await TestEnvironment.createTimeSkipping(options);
    this.defer('test environment', () => env.teardown());
    return env;
  }

  /** An engine harness on a fresh SQLite file (or `store`) and a ManualClock, closed after the test. */
  async engine(store?: Store): Promise<Harness> {
    const h = await setup(store);
    this.defer('engine', () => h.close());
    return h;
  }

  /** A running worker, shut down after the test (its run() awaited). */
  async worker(options: WorkerOptions): Promise<Worker> {
    const worker = await Worker.create(options);
    const running = worker.run();
    running.catch(() => undefined);
    this.defer(`worker on ${options.taskQueue}`, async () => {
      await worker.shutdown();
      await running;
    });
    return worker;
  }

  /** Closes everything registered, last first; the first error is thrown once all ran. */
  async teardown(): Promise<void> {
    let first: unknown;
    for (const { what, close } of this.#cleanups.splice(0).reverse()) {
      try {
        await close();
      } catch (err) {
        first ??= new Error(`tearing down the ${what} failed: ${(err as Error).message}`, { cause: err });
      }
    }
    if (first) throw first;
  }
}

/**
 * Runs `fn` with a fixture, tears the fixture down, then waits (real time, up to SETTLE_MS)
 * until the process holds no more resources than before.
 * @throws Error naming the resources left behind.
 */
export async function runWithFixture(fn: (f: Fixture) => Promise<void>): Promise<void> {
  const before = await settledResources();
  const fixture = new Fixture();
  try {
    await fn(fixture);
  } finally {
    await fixture.teardown();
  }
  const deadline = Date.now() + SETTLE_MS;
  let added = resourcesAdded(before, activeResources());
  while (added.length > 0 && Date.now() < deadline) {
    await delay(10);
    added = resourcesAdded(before, activeResources());
  }
  if (added.length > 0) {
    throw new Error(`the test left behind ${added.join(', ')} (process.getActiveResourcesInfo()): close what it starts, `
      + 'or start it through the fixture');
  }
}

/** `test(name, fn)` whose `fn` gets a {@link Fixture}, and which fails when the test leaks a resource. */
export function fixtureTest(name: string, fn: (f: Fixture, t: TestContext) => Promise<void>): Promise<void>;
export function fixtureTest(name: string, options: TestOptions, fn: (f: Fixture, t: TestContext) => Promise<void>): Promise<void>;
export function fixtureTest(
  name: string, a: TestOptions | ((f: Fixture, t: TestContext) => Promise<void>), b?: (f: Fixture, t: TestContext) => Promise<void>,
): Promise<void> {
  const options = typeof a === 'function' ? {} : a;
  const fn = typeof a === 'function' ? a : b!;
  return test(name, options, (t) => runWithFixture((f) => fn(f, t)));
}
