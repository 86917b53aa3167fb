import type BetterSqlite3 from 'better-sqlite3';

/** One write of a batch: `run` writes; `check` is a read-only precondition that fails the op before it writes (on either path). */
interface BatchOp<T = unknown> {
  run: () => T;
  check?: (() => Error | undefined) | undefined;
}

export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; err: unknown };

/**
 * Writes a batch of ops in ONE transaction on one connection. With synchronous=FULL each COMMIT
 * costs one fsync, which caps a single writer near 600 commits/s on the reference disk, so the
 * writes of many transitions share one.
 *
 * Fast path: each op's read-only `check` rejects it (a version conflict) before it writes, so no
 * SAVEPOINT is needed; SAVEPOINT/RELEASE per op cost 13% of engine throughput (3,000
 * one-activity workflows: 914/s with, 1,052/s without). If an op still throws mid-write, the
 * whole batch is rolled back and replayed with a SAVEPOINT around each op, so that one rolls
 * back alone.
 */
class BatchWriter {
  readonly #begin: BetterSqlite3.Statement;
  readonly #commit: BetterSqlite3.Statement;
  readonly #rollback: BetterSqlite3.Statement;
  readonly #savepoint: BetterSqlite3.Statement;
  readonly #release: BetterSqlite3.Statement;
  readonly #rollbackTo: BetterSqlite3.Statement;
  /** Largest batch written so far (for benchmarks and tests). */
  maxBatch = 0;
  /** Number of COMMITs issued. */
  commits = 0;

  constructor(db: BetterSqlite3.Database) {
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    this.#savepoint = db.prepare('SAVEPOINT op');
    this.#release = db.prepare('RELEASE op');
    this.#rollbackTo = db.prepare('ROLLBACK TO op');
  }

  /**
   * Writes and commits the batch; each op's outcome, in order.
   * @throws when the transaction itself fails (BEGIN, COMMIT, a full disk): nothing was written.
   */
  write(batch: readonly BatchOp[]): Outcome[] {
    this.maxBatch = Math.max(this.maxBatch, batch.length);
    try {
      this.#begin.run();
      let outcomes = this.#runFast(batch);
      if (!outcomes) {
        this.#rollback.run();
        this.#begin.run();
        outcomes = this.#runIsolated(batch);
      }
      this.#commit.run();
      this.commits++;
      return outcomes;
    } catch (err) {
      try { this.#rollback.run(); } catch { /* the transaction is already gone */ }
      throw err;
    }
  }

  /** Runs every op without savepoints; undefined when one threw after writing (the batch must be replayed). */
  #runFast(batch: readonly BatchOp[]): Outcome[] | undefined {
    const outcomes: Outcome[] = [];
    for (const op of batch) {
      const rejected = op.check?.();
      if (rejected) {
        outcomes.push({ ok: false, err: rejected });
        continue;
      }
      try {
        outcomes.push({ ok: true, value: op.run() });
      } catch {
        return undefined;
      }
    }
    return outcomes;
  }

  #runIsolated(batch: readonly BatchOp[]): Outcome[] {
    return batch.map((op): Outcome => {
      const rejected = op.check?.();
      if (rejected) return { ok: false, err: rejected };
      this.#savepoint.run();
      try {
        const value = op.run();
        this.#release.run();
        return { ok: true, value };
      } catch (err) {
        this.#rollbackTo.run();
        this.#release.run();
        return { ok: false, err };
      }
    });
  }
}

interface PendingOp<T> extends BatchOp<T> {
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
  /** Called synchronously once the op's writes are committed, before any promise settles. */
  committed?: ((value: T) => void) | undefined;
}

/**
 * Group commit: writes submitted in the same turn of the event loop are
 * written by one {@link BatchWriter} transaction. Every op's promise settles only after the
 * shared COMMIT is on disk.
 */
export class GroupCommitter {
  #queue: PendingOp<any>[] = [];
  #scheduled = false;
  readonly #writer: BatchWriter;

  constructor(db: BetterSqlite3.Database) {
    this.#writer = new BatchWriter(db);
  }

  get maxBatch(): number {
    return this.#writer.maxBatch;
  }

  get commits(): number {
    return this.#writer.commits;
  }

  /** Queues `run` to execute inside the next shared transaction; resolves with its result after COMMIT. */
  submit<T>(run: () => T, check?: () => Error | undefined, committed?: (value: T) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ run, check, resolve, reject, committed });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Runs every queued op now (used on close). */
  flushNow(): void {
    if (this.#queue.length > 0) this.#flush();
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = this.#writer.write(batch);
    } catch (err) {
      for (const op of batch) op.reject(err);
      return;
    }
    settle(batch, outcomes);
  }
}

/** Runs each committed op's hook, then settles every promise (so hooks run before any caller resumes). */
function settle<T>(batch: readonly PendingOp<T>[], outcomes: readonly Outcome[]): void {
  batch.forEach((op, i) => {
    const o = outcomes[i]!;
    if (o.ok) op.committed?.(o.value as T);
  });
  batch.forEach((op, i) => {
    const o = outcomes[i]!;
    if (o.ok) op.resolve(o.value as T);
    else op.reject(o.err);
  });
}

