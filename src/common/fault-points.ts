import { SteadfastError, brandClass } from '../errors/index.ts';

/**
 * Named fault points on the commit and conflict paths, as DBOS's debug points
 * (src/debugpoint.ts): tests arm a point to throw, run code, wait, or kill the process there,
 * and so test races and crashes at an exact place rather than by timing. A point costs one
 * property read when nothing is armed (`if (faults.armed) …`). Points are armed only by tests
 * ({@link FaultPoints.arm}) or by the STEADFAST_FAULTS environment variable of a process a
 * crash test starts: `STEADFAST_FAULTS="store.commit=crash@3,engine.conflict=throw"` (the action
 * on the given hit only, 1-based; every hit without `@`).
 */
const FAULT_POINT_NAMES = [
  /** The engine is about to commit a transition (its re-read and rebuild are done). */
  'engine.commit.before',
  /** The store committed the transition; the tasks it started are not yet handed to waiting polls. */
  'engine.commit.after',
  /** A commit lost to another writer of the run (a version conflict); the engine re-reads and retries. */
  'engine.conflict',
  /** Inside the store's write transaction, after the rows are written and before COMMIT. */
  'store.commit',
  /** An update-with-start built its start (or chose the running run) and is about to admit the update in the same transition. */
  'engine.start.admit',
] as const;

/** One of {@link FAULT_POINT_NAMES}. */
type FaultPointName = (typeof FAULT_POINT_NAMES)[number];

/** What an armed point does when hit. */
interface FaultAction {
  /** Act on this hit only, 1-based. @default every hit */
  onHit?: number;
  /** Throw this error (a FaultInjectedError naming the point when `true`). */
  throw?: Error | true;
  /** Run this first; a point on an async path awaits it. */
  run?: () => void | Promise<void>;
  /** Kill the process with SIGKILL: no finally block, no exit handler, as a power cut. */
  crash?: boolean;
}

/** The error an armed point throws when its action says `throw: true`. */
export class FaultInjectedError extends SteadfastError {
  constructor(readonly point: FaultPointName, readonly hit: number) {
    super(`fault injected at ${point} (hit ${hit})`);
  }
}
brandClass(FaultInjectedError, 'FaultInjectedError');

/** The registry of armed points and their hit counts. */
class FaultPoints {
  /** True while any point is armed: the only cost of a point otherwise. */
  armed = false;
  readonly #actions = new Map<FaultPointName, FaultAction>();
  readonly #hits = new Map<FaultPointName, number>();

  /** Arms `point`; a later arm of the same point replaces the action. Hit counts restart. */
  arm(point: FaultPointName, action: FaultAction): void {
    if (!FAULT_POINT_NAMES.includes(point)) {
      throw new SteadfastError(`fault point must be one of ${FAULT_POINT_NAMES.join(', ')}, got ${JSON.stringify(point)}`);
    }
    this.#actions.set(point, action);
    this.#hits.set(point, 0);
    this.armed = true;
  }

  /** Disarms every point and forgets the counts. */
  disarm(): void {
    this.#actions.clear();
    this.#hits.clear();
    this.armed = false;
  }

  /** Times `point` was hit since it was armed. */
  hits(point: FaultPointName): number {
    return this.#hits.get(point) ?? 0;
  }

  /** A point on an async path: counts the hit and acts, awaiting `run`. */
  async hit(point: FaultPointName): Promise<void> {
    const action = this.#take(point);
    if (action?.run) await action.run();
    if (action) this.#finish(point, action);
  }

  /** A point on a synchronous path (inside a SQLite transaction): `run` must not return a promise. */
  hitSync(point: FaultPointName): void {
    const action = this.#take(point);
    if (action?.run) void action.run();
    if (action) this.#finish(point, action);
  }

  #take(point: FaultPointName): FaultAction | undefined {
    const action = this.#actions.get(point);
    if (!action) return undefined;
    const n = (this.#hits.get(point) ?? 0) + 1;
    this.#hits.set(point, n);
    return action.onHit === undefined || action.onHit === n ? action : undefined;
  }

  #finish(point: FaultPointName, action: FaultAction): void {
    if (action.crash) process.kill(process.pid, 'SIGKILL');
    if (action.throw === true) throw new FaultInjectedError(point, this.hits(point));
    if (action.throw) throw action.throw;
  }
}

/**
 * Reads STEADFAST_FAULTS: `point=action[@hit]` entries, comma-separated; actions `crash` and `throw`.
 * @throws SteadfastError naming the entry that does not parse.
 */
export function parseFaultSpec(spec: string): Array<{ point: FaultPointName; action: FaultAction }> {
  return spec.split(',').map((s) => s.trim()).filter(Boolean).map((entry) => {
    const m = /^([a-z.]+)=(crash|throw)(?:@(\d+))?$/.exec(entry);
    if (!m || !FAULT_POINT_NAMES.includes(m[1] as FaultPointName)) {
      throw new SteadfastError(`STEADFAST_FAULTS entry must be <point>=crash|throw[@hit] with a point of ${FAULT_POINT_NAMES.join(', ')}, got ${JSON.stringify(entry)}`);
    }
    const action: FaultAction = m[2] === 'crash' ? { crash: true } : { throw: true };
    if (m[3] !== undefined) action.onHit = Number(m[3]);
    return { point: m[1] as FaultPointName, action };
  });
}

/** The process's fault points. */
export const faults = new FaultPoints();

const fromEnv = typeof process === 'undefined' ? undefined : process.env.STEADFAST_FAULTS;
if (fromEnv) for (const { point, action } of parseFaultSpec(fromEnv)) faults.arm(point, action);
