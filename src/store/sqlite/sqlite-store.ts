import { Listeners } from '../listeners.ts';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import type { HistoryEvent } from '../../history/events.ts';
import { StoreConflictError, SQLITE_ERROR_CODES } from '../errors.ts';
import { buildListQuery } from '../list-query.ts';
import { loadMigrations } from '../migrations.ts';
import { checkEventIds, notificationsOf } from '../transition-checks.ts';
import { executionValues, toEvent, toExecution, toQueueRef, toTask, toTimer } from '../rows.ts';
import type {
  ClaimTaskRequest, ClaimTimersRequest, ExecutionQuery, ExecutionRecord, QueueRef, Store, StoreNotification,
  TaskRecord, TimerRecord, Transition,
} from '../types.ts';
import { GroupCommitter } from './group-commit.ts';
import { TaskLeases } from './task-leases.ts';
import { Q, SQLITE_PRAGMAS } from './queries.ts';

type Row = Record<string, unknown>;
type Statements = { [K in keyof typeof Q]: BetterSqlite3.Statement };

/** Options of {@link SqliteStore.open}. */
export interface SqliteStoreOptions {
  /** Batch writes of one event-loop turn into one COMMIT. @default true */
  groupCommit?: boolean;
}

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=FULL, written by one server
 * process. Reads are synchronous (better-sqlite3) and see committed data; writes go through
 * {@link GroupCommitter}.
 */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  readonly #db: BetterSqlite3.Database;
  readonly #q: Statements;
  readonly #writer: GroupCommitter;
  readonly #listeners = new Listeners();
  readonly #groupCommit: boolean;
  readonly #leases = new TaskLeases();
  #closed = false;

  private constructor(db: BetterSqlite3.Database, options: SqliteStoreOptions) {
    this.#db = db;
    this.#groupCommit = options.groupCommit ?? true;
    this.#q = Object.fromEntries(Object.entries(Q).filter(([k]) => !k.startsWith('migration') && k !== 'appliedMigrations'
      && k !== 'recordMigration').map(([k, sql]) => [k, db.prepare(sql)])) as Statements;
    this.#writer = new GroupCommitter(db);
  }

  /** Opens (creating it and its folder if needed) the database file at `path` and applies pending migrations. */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    for (const p of SQLITE_PRAGMAS) db.pragma(p);
    migrate(db);
    return new SqliteStore(db, options);
  }

  /** Commits issued and the largest batch, for benchmarks. */
  get writeStats(): { commits: number; maxBatch: number } {
    return { commits: this.#writer.commits, maxBatch: this.#writer.maxBatch };
  }

  async getExecution(runId: string): Promise<ExecutionRecord | undefined> {
    const row = this.#q.getExecution.get({ runId }) as Row | undefined;
    return row ? toExecution(row) : undefined;
  }

  async getLatestExecution(namespace: string, workflowId: string): Promise<ExecutionRecord | undefined> {
    const row = this.#q.getLatestExecution.get({ namespace, workflowId }) as Row | undefined;
    return row ? toExecution(row) : undefined;
  }

  async findExecutionByRequestId(namespace: string, workflowId: string, requestId: string): Promise<ExecutionRecord | undefined> {
    const row = this.#q.findByRequestId.get({ namespace, workflowId, requestId }) as Row | undefined;
    return row ? toExecution(row) : undefined;
  }

  async listExecutions(query: ExecutionQuery): Promise<ExecutionRecord[]> {
    const { sql, params } = buildListQuery(query, () => '?');
    return (this.#db.prepare(sql).all(...params) as Row[]).map(toExecution);
  }

  async readHistory(runId: string, fromEventId: number, limit: number): Promise<HistoryEvent[]> {
    return (this.#q.readHistory.all({ runId, fromEventId, limit }) as Row[]).map(toEvent);
  }

  commit(transition: Transition): Promise<void> {
    const run = () => this.#apply(transition);
    const done = this.#groupCommit ? this.#writer.submit(run, () => this.#check(transition)) : Promise.resolve().then(() => this.#db.transaction(run).immediate());
    return done.then(() => this.#listeners.emit(notificationsOf(transition)));
  }

  /** The conflicts #apply would hit, found by reads alone (group commit's fast path). */
  #check(t: Transition): Error | undefined {
    const q = this.#q;
    for (const w of t.executions) {
      try {
        checkEventIds(w);
      } catch (err) {
        return err as Error;
      }
      const r = w.record;
      if (w.expectedVersion !== undefined) {
        const row = q.versionOf.get({ runId: r.runId }) as { version: number } | undefined;
        if (row?.version !== w.expectedVersion) return new StoreConflictError('version', `run ${r.runId} changed since version ${w.expectedVersion}`);
        continue;
      }
      if (q.versionOf.get({ runId: r.runId })) return new StoreConflictError('duplicateRun', `run ${r.runId} exists`);
      const open = q.openRun.get({ namespace: r.namespace, workflowId: r.workflowId }) as { run_id: string } | undefined;
      const closedHere = open && t.executions.some((x) => x.record.runId === open.run_id && x.record.status !== 'Running');
      if (open && !closedHere) return new StoreConflictError('alreadyOpen', `workflow ${r.workflowId} has an open run`);
    }
    if (t.consumeTimerId !== undefined && !q.timerExists.get({ id: t.consumeTimerId })) {
      return new StoreConflictError('timerGone', `timer ${t.consumeTimerId} was already fired`);
    }
    return undefined;
  }

  #apply(t: Transition): void {
    const q = this.#q;
    for (const w of t.executions) {
      checkEventIds(w);
      if (w.expectedVersion === undefined) {
        try {
          q.insertExecution.run(...executionValues(w.record));
        } catch (err) {
          throw mapInsertError(err, w.record);
        }
      } else {
        const r = w.record;
        const res = q.updateExecution.run({
          runId: r.runId, status: r.status, workflowType: r.workflowType, taskQueue: r.taskQueue,
          executionTime: r.executionTime, closeTime: r.closeTime ?? null, nextEventId: r.nextEventId,
          memo: r.memo === undefined ? null : JSON.stringify(r.memo), state: JSON.stringify(r.state),
          version: r.version, expectedVersion: w.expectedVersion,
        });
        if (res.changes !== 1) {
          throw new StoreConflictError('version', `run ${r.runId} changed since version ${w.expectedVersion}`);
        }
      }
      for (const e of w.events) {
        q.insertEvent.run(w.record.runId, e.eventId, e.eventType, e.eventTime, JSON.stringify(e.attributes));
      }
    }
    if (t.consumeTimerId !== undefined && q.deleteTimer.run(t.consumeTimerId).changes !== 1) {
      throw new StoreConflictError('timerGone', `timer ${t.consumeTimerId} was already fired`);
    }
    for (const runId of t.purgeRunIds ?? []) {
      q.purgeRunTasks.run(runId);
      q.purgeRunTimers.run(runId);
      this.#leases.dropRun(runId);
    }
    for (const id of t.deleteTaskIds ?? []) {
      q.deleteTask.run(id);
      this.#leases.drop(id);
    }
    for (const id of t.deleteTimerIds ?? []) q.deleteTimer.run(id);
    for (const k of t.createTasks ?? []) {
      q.insertTask.run(k.id, k.namespace, k.taskQueue, k.kind, k.runId, k.visibleAt, JSON.stringify(k.data));
    }
    for (const k of t.createTimers ?? []) {
      q.insertTimer.run(k.id, k.namespace, k.runId, k.kind, k.dueAt, JSON.stringify(k.data));
    }
  }

  async claimTask(req: ClaimTaskRequest): Promise<TaskRecord | undefined> {
    const { namespace, taskQueue, kind, now } = req;
    for (const row of this.#q.claimCandidates.iterate({ namespace, taskQueue, kind, now }) as IterableIterator<Row>) {
      const id = String(row.id);
      if (this.#leases.held(id, now)) continue;
      const task = toTask(row);
      task.leaseUntil = now + req.leaseMs;
      task.leaseOwner = req.owner;
      this.#leases.take(id, task.runId, task, task.leaseUntil);
      return task;
    }
    return undefined;
  }

  claimDueTimers(req: ClaimTimersRequest): Promise<TimerRecord[]> {
    return this.#writer.submit(() => (this.#q.claimTimers.all({
      now: req.now, limit: req.limit, leaseUntil: req.now + req.leaseMs, owner: req.owner,
    }) as Row[]).map(toTimer));
  }

  async nextWakeTime(now: number): Promise<number | undefined> {
    const q = this.#q;
    const candidates = [
      (q.nextTimerDue.get() as Row).t, (q.nextTimerLease.get() as Row).t,
      (q.nextTaskVisible.get({ now }) as Row).t, (q.nextTaskLease.get({ now }) as Row).t, this.#leases.nextExpiry(now),
    ].filter((v): v is number => typeof v === 'number');
    return candidates.length ? Math.min(...candidates) : undefined;
  }

  async readyQueues(now: number): Promise<(QueueRef & { count: number })[]> {
    return (this.#q.readyQueues.all({ now }) as Row[]).map(toQueueRef)
      .map((r) => ({ ...r, count: r.count - this.#leases.countIn(r, now) })).filter((r) => r.count > 0);
  }

  subscribe(listener: (n: StoreNotification) => void): () => void {
    return this.#listeners.subscribe(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#writer.flushNow();
    this.#db.close();
  }
}

function mapInsertError(err: unknown, rec: ExecutionRecord): unknown {
  const code = (err as { code?: string }).code;
  const message = String((err as Error).message);
  if (code === SQLITE_ERROR_CODES.uniqueViolation || code === SQLITE_ERROR_CODES.primaryKeyViolation) {
    if (message.includes('executions.workflow_id')) {
      return new StoreConflictError('alreadyOpen', `workflow ${rec.workflowId} has an open run`);
    }
    if (message.includes('executions.run_id')) return new StoreConflictError('duplicateRun', `run ${rec.runId} exists`);
  }
  return err;
}

/** Applies pending migrations in one IMMEDIATE transaction (which excludes any other writer). */
function migrate(db: BetterSqlite3.Database): void {
  db.exec(Q.migrationsTable);
  db.transaction(() => {
    const applied = new Set((db.prepare(Q.appliedMigrations).all() as { version: number }[]).map((r) => r.version));
    for (const m of loadMigrations('sqlite')) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      db.prepare(Q.recordMigration).run(m.version, m.name);
    }
  }).immediate();
}
