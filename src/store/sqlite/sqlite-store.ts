import { Listeners } from '../listeners.ts';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import type { HistoryEvent } from '../../history/events.ts';
import { buildListQuery } from '../list-query.ts';
import { loadMigrations } from '../migrations.ts';
import { notificationsOf } from '../transition-checks.ts';
import { toEvent, toExecution, toQueueRef, toTask } from '../rows.ts';
import type {
  ClaimTaskRequest, ClaimTimersRequest, ExecutionQuery, ExecutionRecord, QueueRef, Store, StoreNotification,
  NamespaceChanges, NamespaceRecord, ScheduleRecord, StartRuns, TaskRecord, TimerRecord, Transition, VisibilityQuery,
} from '../types.ts';
import { SqliteNamespaces } from './namespace-queries.ts';
import { SqliteTaskQueues } from './task-queue-queries.ts';
import { GroupCommitter } from './group-commit.ts';
import { applyTransition, checkTransition, claimTimers } from './writes.ts';
import { TaskLeases } from './task-leases.ts';
import { lockDatabaseFile } from './file-lock.ts';
import { SqliteVisibility } from './visibility.ts';
import type { SearchAttributeDefinition } from '../../visibility/types.ts';
import type { VisibilityCount } from '../visibility/compile.ts';
import { Q, SQLITE_PRAGMAS } from './queries.ts';
import { SqliteSchedules } from './schedule-queries.ts';
import { faults } from '../../common/fault-points.ts';
import { EXECUTION_CACHE_SIZE, ExecutionCache } from '../execution-cache.ts';
import { resolveCacheMaxBytes, type StoreCacheOptions } from '../byte-bounded-map.ts';

type Row = Record<string, unknown>;

type Statements = { [K in keyof typeof Q]: BetterSqlite3.Statement };

/** Options of {@link SqliteStore.open}. */
export interface SqliteStoreOptions extends StoreCacheOptions {
  /** Batch writes of one event-loop turn into one COMMIT. @default true */
  groupCommit?: boolean;
}

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=FULL, written by one server
 * process (a lock file next to it refuses a second). Reads are synchronous (better-sqlite3) and see committed data; writes go through
 * {@link GroupCommitter}.
 */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  readonly #db: BetterSqlite3.Database;
  readonly #q: Statements;
  /** Group commit, or (groupCommit false) a transaction per write. */
  readonly #writer: GroupCommitter | undefined;
  readonly #listeners = new Listeners();
  readonly #leases = new TaskLeases();
  readonly #schedules: SqliteSchedules;
  readonly #visibility: SqliteVisibility;
  readonly #namespaces: SqliteNamespaces;
  readonly taskQueues: SqliteTaskQueues;
  /**
   * Execution rows as last committed by this process, by run id. One server process writes a
   * SQLite file, so a row read or written here stays current until this process changes it;
   * reading a run (every transition starts with one) becomes a map lookup. Updated synchronously
   * after COMMIT, before any caller resumes; a version conflict drops the entry, in case another
   * process wrote the file after all.
   */
  readonly #rows: ExecutionCache;

  #closed = false;

  readonly #release: () => void;

  private constructor(db: BetterSqlite3.Database, options: SqliteStoreOptions, release: () => void) {
    this.#db = db;
    this.#release = release;
    this.#q = Object.fromEntries(Object.entries(Q).filter(([k]) => !k.startsWith('migration') && k !== 'appliedMigrations'
      && k !== 'recordMigration').map(([k, sql]) => [k, db.prepare(sql)])) as Statements;
    this.#q.claimCandidates.pluck();
    this.#schedules = new SqliteSchedules(db);
    this.#visibility = new SqliteVisibility(db);
    this.#namespaces = new SqliteNamespaces(db);
    this.#writer = (options.groupCommit ?? true) ? new GroupCommitter(db) : undefined;
    this.#rows = new ExecutionCache(EXECUTION_CACHE_SIZE, resolveCacheMaxBytes(options));
    this.taskQueues = new SqliteTaskQueues(db, (run) => this.#write(run));
  }

  /**
   * Opens (creating it and its folder if needed) the database file at `path` and applies pending
   * migrations.
   * @throws SteadfastError when another store (in this process or another) has the file open.
   */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    resolveCacheMaxBytes(options);
    let release = () => {};
    if (path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true });
      release = lockDatabaseFile(resolve(path));
    }
    try {
      const db = new Database(path);
      for (const p of SQLITE_PRAGMAS) db.pragma(p);
      migrate(db);
      return new SqliteStore(db, options, release);
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Commits issued and the largest batch, for benchmarks. */
  get writeStats(): { commits: number; maxBatch: number } {
    return { commits: this.#writer?.commits ?? 0, maxBatch: this.#writer?.maxBatch ?? 0 };
  }

  async getExecution(runId: string): Promise<ExecutionRecord | undefined> {
    const cached = this.#rows.get(runId)?.rec;
    if (cached) return cached;
    const row = this.#q.getExecution.get({ runId }) as Row | undefined;
    if (!row) return undefined;
    const rec = toExecution(row);
    this.#rows.set({ rec, events: undefined, firstEventId: 0 });
    return rec;
  }

  async getLatestExecution(namespace: string, workflowId: string): Promise<ExecutionRecord | undefined> {
    const row = this.#q.getLatestExecution.get({ namespace, workflowId }) as Row | undefined;
    return row ? toExecution(row) : undefined;
  }

  async findExecutionByRequestId(namespace: string, workflowId: string, requestId: string): Promise<ExecutionRecord | undefined> {
    const row = this.#q.findByRequestId.get({ namespace, workflowId, requestId }) as Row | undefined;
    return row ? toExecution(row) : undefined;
  }

  async findStartRuns(namespace: string, workflowId: string, requestId: string | undefined): Promise<StartRuns> {
    const found: StartRuns = {};
    const byRequestId = requestId === undefined ? undefined : await this.findExecutionByRequestId(namespace, workflowId, requestId);
    const latest = await this.getLatestExecution(namespace, workflowId);
    if (byRequestId) found.byRequestId = byRequestId;
    if (latest) found.latest = latest;
    return found;
  }

  async listExecutions(query: ExecutionQuery): Promise<ExecutionRecord[]> {
    const { sql, params } = buildListQuery(query, () => '?');
    return (this.#db.prepare(sql).all(...params) as Row[]).map(toExecution);
  }

  async getSchedule(namespace: string, scheduleId: string): Promise<ScheduleRecord | undefined> {
    return this.#schedules.get(namespace, scheduleId);
  }

  async listSchedules(namespace: string, afterId: string | undefined, limit: number): Promise<ScheduleRecord[]> {
    return this.#schedules.list(namespace, afterId, limit);
  }

  async queryExecutions(query: VisibilityQuery): Promise<{ executions: ExecutionRecord[]; nextPageToken?: string }> {
    return this.#visibility.query(query);
  }

  async countExecutions(query: Omit<VisibilityQuery, 'pageSize' | 'nextPageToken'>): Promise<VisibilityCount> {
    return this.#visibility.count(query);
  }

  async listSearchAttributes(namespace: string): Promise<SearchAttributeDefinition[]> {
    return this.#visibility.columns(namespace).map(({ name, type }) => ({ name, type }));
  }

  createSearchAttribute(namespace: string, definition: SearchAttributeDefinition): Promise<void> {
    return this.#write(() => this.#visibility.createAttribute(namespace, definition));
  }

  removeSearchAttribute(namespace: string, name: string): Promise<boolean> {
    return this.#write(() => this.#visibility.removeAttribute(namespace, name));
  }

  createNamespace(record: NamespaceRecord): Promise<void> {
    return this.#write(() => this.#namespaces.create(record));
  }

  async getNamespace(name: string): Promise<NamespaceRecord | undefined> {
    return this.#namespaces.get(name);
  }

  async listNamespaces(afterName: string | undefined, limit: number): Promise<NamespaceRecord[]> {
    return this.#namespaces.list(afterName, limit);
  }

  updateNamespace(name: string, changes: NamespaceChanges, updateTime: number): Promise<NamespaceRecord | undefined> {
    return this.#write(() => this.#namespaces.update(name, changes, updateTime));
  }

  async markNamespaceDeleted(name: string, updateTime: number): Promise<NamespaceRecord | undefined> {
    const marked = await this.#write(() => this.#namespaces.markDeleted(name, updateTime));
    if (marked) this.#listeners.emit([{ type: 'namespaceDeleted', name }]);
    return marked;
  }

  purgeNamespace(name: string, limit: number): Promise<{ runIds: string[]; done: boolean }> {
    return this.#write(() => this.#namespaces.purge(name, limit), undefined, ({ runIds }) => {
      for (const runId of runIds) {
        this.#rows.delete(runId);
        this.#leases.dropRun(runId);
      }
    });
  }

  deleteClosedRuns(namespace: string, closedBefore: number, limit: number, runId?: string): Promise<string[]> {
    return this.#write(() => this.#namespaces.deleteClosedRuns(namespace, closedBefore, limit, runId), undefined, (runIds) => {
      for (const runId of runIds) {
        this.#rows.delete(runId);
        this.#leases.dropRun(runId);
      }
    });
  }

  async readHistory(runId: string, fromEventId: number, limit: number): Promise<HistoryEvent[]> {
    const cached = this.#rows.get(runId);
    if (cached?.events && fromEventId >= cached.firstEventId) {
      const start = fromEventId - cached.firstEventId;
      return cached.events.slice(start, start + limit);
    }
    return (this.#q.readHistory.all({ runId, fromEventId, limit }) as Row[]).map(toEvent);
  }

  commit(transition: Transition): Promise<void> {
    const q = this.#q;
    const sched = this.#schedules;
    const done = this.#write(() => {
      const seqs = applyTransition(q, transition, (rec, inserted) => this.#visibility.write(rec, inserted));
      sched.apply(transition);
      if (faults.armed) faults.hitSync('store.commit');
      return seqs;
    }, () => checkTransition(q, transition) ?? sched.check(transition),
      (seqs) => this.#remember(transition, seqs));
    return done.then(() => this.#listeners.emit(notificationsOf(transition)), (err: unknown) => {
      this.#rows.forget(transition);
      throw err;
    });
  }

  /**
   * Runs a write where this store writes, unless `check` (run first, in the same transaction)
   * refuses it; `committed` runs synchronously after its COMMIT.
   */
  #write<T>(run: () => T, check?: () => Error | undefined, committed?: (result: T) => void): Promise<T> {
    if (this.#writer) return this.#writer.submit(run, check, committed);
    return Promise.resolve().then(() => {
      const result = this.#db.transaction(() => {
        const rejected = check?.();
        if (rejected) throw rejected;
        return run();
      }).immediate();
      committed?.(result);
      return result;
    });
  }

  /** Caches the rows a committed transition wrote and drops its tasks' leases. */
  #remember(t: Transition, seqs: (number | undefined)[]): void {
    for (const runId of t.purgeRunIds ?? []) this.#leases.dropRun(runId);
    for (const id of t.deleteTaskIds ?? []) this.#leases.drop(id);
    this.#rows.remember(t, seqs);
  }

  async claimTask(req: ClaimTaskRequest): Promise<TaskRecord | undefined> {
    return (await this.claimTasks(req, 1))[0];
  }

  async claimTasks(req: ClaimTaskRequest, limit: number): Promise<TaskRecord[]> {
    const { namespace, taskQueue, kind, now } = req;
    const claimed: TaskRecord[] = [];
    if (limit < 1) return claimed;
    // Ids only: rows leased here (started, their deletion waiting for the commit) are skipped
    // without being turned into objects; one walk serves the whole claim.
    for (const candidate of this.#q.claimCandidates.iterate({ namespace, taskQueue, kind, now }) as IterableIterator<string>) {
      const id = String(candidate);
      if (this.#leases.held(id, now)) continue;
      const row = this.#q.getTask.get({ id }) as Row | undefined;
      if (!row) continue;
      const task = toTask(row);
      task.leaseUntil = now + req.leaseMs;
      task.leaseOwner = req.owner;
      this.#leases.take(id, task.runId, task, task.leaseUntil);
      claimed.push(task);
      if (claimed.length >= limit) break;
    }
    return claimed;
  }

  claimDueTimers(req: ClaimTimersRequest): Promise<TimerRecord[]> {
    // A read first: leasing is a write, worth making (and waiting a group commit for) only when a timer is due.
    if (!this.#q.anyTimerDue.get({ now: req.now })) return Promise.resolve([]);
    return this.#write(() => claimTimers(this.#q, req));
  }

  async sharedSecret(name: string, candidate: string): Promise<string> {
    this.#db.prepare(Q.insertSecret).run({ name, value: candidate });
    return (this.#db.prepare(Q.readSecret).get({ name }) as { value: string }).value;
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
    this.#writer?.flushNow();
    this.#db.close();
    this.#release();
  }
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
