import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../client/index.ts';
import { Engine, type EngineLimits } from '../engine/index.ts';
import { openStore } from '../store/index.ts';
import { startHttpServer, type HttpServer } from '../server/index.ts';
import { ManualClock, systemClock, type Clock } from '../retry/clock.ts';
import { toMs, type Duration } from '../retry/duration.ts';
import type { CallOptions, GetHistoryRequest, WorkflowService } from '../protocol/index.ts';
import { ValidationError } from '../errors/index.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { NamespaceAlreadyExistsError } from '../common/errors.ts';
import { DEFAULT_NAMESPACE } from '../common/ids.ts';

/** Options of the TestEnvironment factories. */
export interface TestEnvironmentOptions {
  /** A store URL; @default a fresh SQLite file in a temporary folder, removed on teardown */
  database?: string;
  /** Namespace of `env.client`, registered at start when it is not `default`. @default "default" */
  namespace?: string;
  /** Per-run limits of the engine (pending commands, history events and bytes). @default Temporal's */
  limits?: Partial<EngineLimits>;
}

const TEST_ENVIRONMENT_OPTION_KEYS = optionKeys<TestEnvironmentOptions>({ database: true, namespace: true, limits: true });

/**
 * A steadfast service inside the test process: a real engine on a real SQLite file, its HTTP
 * API on a free port (`env.address`, for `Worker.create`), and a client (`env.client`).
 */
export class TestEnvironment {
  /** Starts workflows; in the time-skipping environment, waiting on a result lets time skip. */
  readonly client: Client;
  /** `http://127.0.0.1:<port>` of the in-process server. */
  readonly address: string;
  /** The engine itself, for `Worker.create({ connection })` without HTTP. */
  readonly connection: WorkflowService;
  /** The same as {@link connection}, under the name Temporal's tests give workers: `Worker.create({ connection: env.nativeConnection })`. */
  readonly nativeConnection: WorkflowService;
  /** The engine's clock: a ManualClock when time skips. */
  readonly clock: Clock;
  readonly #close: () => Promise<void>;
  readonly #skipper: TimeSkipper | undefined;

  private constructor(parts: {
    engine: Engine; http: HttpServer; client: Client; clock: Clock; skipper: TimeSkipper | undefined; close: () => Promise<void>;
  }) {
    this.#skipper = parts.skipper;
    this.client = parts.client;
    this.address = parts.http.address;
    this.connection = parts.engine;
    this.nativeConnection = parts.engine;
    this.clock = parts.clock;
    this.#close = parts.close;
  }

  /** An engine on real time. */
  static createLocal(options: TestEnvironmentOptions = {}): Promise<TestEnvironment> {
    return TestEnvironment.#create(options, false);
  }

  /**
   * An engine on a ManualClock. Whenever the test waits on a workflow's result and no worker can
   * make progress (no transition running, no task handed out and unanswered, no task ready on a
   * queue some worker polls), time jumps to the next timer, retry backoff or timeout, so a
   * workflow that sleeps 30 days finishes in milliseconds, and an activity sent to a queue
   * nobody polls reaches its schedule-to-start timeout at once.
   */
  static createTimeSkipping(options: TestEnvironmentOptions = {}): Promise<TestEnvironment> {
    return TestEnvironment.#create(options, true);
  }

  static async #create(options: TestEnvironmentOptions, skipping: boolean): Promise<TestEnvironment> {
    if (typeof options !== 'object' || options === null) throw new ValidationError('TestEnvironment options', 'must be an object', options);
    refuseUnknownKeys('TestEnvironment', options, TEST_ENVIRONMENT_OPTION_KEYS);
    let dir: string | undefined;
    let database = options.database;
    if (!database) {
      dir = mkdtempSync(join(tmpdir(), 'steadfast-test-'));
      database = `sqlite:${join(dir, 'test.sqlite')}`;
    }
    const clock = skipping ? new ManualClock(Date.now()) : systemClock;
    const store = await openStore(database);
    const engine = await Engine.create({ store, clock, ...(options.limits ? { limits: options.limits } : {}) });
    if (options.namespace !== undefined && options.namespace !== DEFAULT_NAMESPACE) {
      await engine.registerNamespace({ namespace: options.namespace }).catch(async (err: unknown) => {
        if (err instanceof NamespaceAlreadyExistsError) return;
        await engine.shutdown();
        await store.close();
        throw err;
      });
    }
    const http = await startHttpServer({ service: engine, port: 0 });
    const skipper = clock instanceof ManualClock ? new TimeSkipper(clock, engine) : undefined;
    const connection = skipper ? skipper.wrap(engine) : engine;
    const client = new Client({ connection, ...(options.namespace ? { namespace: options.namespace } : {}) });
    return new TestEnvironment({
      engine, http, client, clock, skipper,
      close: async () => {
        skipper?.stop();
        await http.close();
        await engine.shutdown();
        await store.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    });
  }

  /** Current time of the environment's clock, ms since the epoch. */
  now(): number {
    return this.clock.now();
  }

  /** Current time of the environment's clock, ms since the epoch (Temporal's name for {@link now}). */
  async currentTimeMs(): Promise<number> {
    return this.clock.now();
  }

  /**
   * Lets `duration` of the environment's time pass. On a ManualClock it does as Temporal's test
   * server: time jumps to the next timer only once the engine is idle (every workflow or activity
   * task ready on a polled queue has run), so each timer's workflow task runs before the next
   * timer fires; it ends, the engine idle again, at exactly the start time + `duration`. On real
   * time it waits.
   */
  async sleep(duration: Duration): Promise<void> {
    const ms = toMs(duration, 'duration');
    if (this.#skipper) await this.#skipper.sleep(ms);
    else await systemClock.sleep(ms);
  }

  /** Stops the server and the engine and removes the temporary database. */
  async teardown(): Promise<void> {
    await this.#close();
  }
}

/** Calls during which the test is waiting on the workflow, so time may skip: which requests wait. */
const WAITS: Record<string, (req: any) => boolean> = {
  getWorkflowExecutionHistory: (req: GetHistoryRequest) => req.waitForClose === true,
  pollWorkflowExecutionUpdate: () => true,
  updateWorkflowExecution: (req: { waitForStage?: string }) => req.waitForStage === 'Completed',
};

/**
 * Skips time while somebody awaits a workflow result or an update's outcome and the engine is idle
 * (`Engine.isIdle`: tasks ready on queues no worker polls do not count): the clock jumps to the
 * earliest pending sleep, which is the engine's next timer.
 */
class TimeSkipper {
  #waiters = 0;
  #running = false;
  #stopped = false;

  constructor(
    private readonly clock: ManualClock,
    private readonly engine: Engine,
  ) {}

  /** A service whose result waits switch time skipping on for their duration. */
  wrap(service: WorkflowService): WorkflowService {
    return new Proxy(service, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function' || !(prop in WAITS)) {
          return typeof value === 'function' ? value.bind(target) : value;
        }
        const isWait = WAITS[prop as string]!;
        return async (req: GetHistoryRequest, opts?: CallOptions) => {
          if (!isWait(req)) return value.call(target, req, opts);
          this.#waiters++;
          this.#kick();
          try {
            return await value.call(target, req, opts);
          } finally {
            this.#waiters--;
          }
        };
      },
    });
  }

  stop(): void {
    this.#stopped = true;
  }

  /**
   * Lets `ms` of the clock's time pass as a waiter: the loop skips to the next timer whenever the
   * engine is idle, this sleep's own end among them; then waits until the engine is idle again,
   * so what the last timers started has run.
   */
  async sleep(ms: number): Promise<void> {
    this.#waiters++;
    this.#kick();
    try {
      await this.clock.sleep(ms);
    } finally {
      this.#waiters--;
    }
    await this.#idle(() => !this.#stopped);
  }

  #kick(): void {
    if (this.#running) return;
    this.#running = true;
    void this.#loop().finally(() => {
      this.#running = false;
    });
  }

  /**
   * Resolves true once the engine has been idle over several real pauses in a row, or false as
   * soon as `waiting()` turns false. A real pause lets sockets, pollers and activities run; the
   * idle state must hold over several of them, so a task in hand-off is never skipped past.
   */
  async #idle(waiting: () => boolean): Promise<boolean> {
    let idleTurns = 0;
    while (waiting()) {
      await new Promise((r) => setTimeout(r, 1));
      if (!this.engine.isIdle()) idleTurns = 0;
      else if (++idleTurns >= 3) return waiting();
    }
    return false;
  }

  async #loop(): Promise<void> {
    const waiting = () => !this.#stopped && this.#waiters > 0;
    while (await this.#idle(waiting)) {
      const due = this.clock.nextDue();
      if (due === undefined) continue;
      await this.clock.set(Math.max(due, this.clock.now()));
    }
  }
}
