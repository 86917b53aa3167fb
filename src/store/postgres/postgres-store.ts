import { Listeners } from '../listeners.ts';
import pg from 'pg';
import type { HistoryEvent } from '../../history/events.ts';
import { newUuid } from '../../common/ids.ts';
import { NamespaceNotFoundError } from '../../common/errors.ts';
import { connectionLoss, StoreConflictError } from '../errors.ts';
import { buildListQuery } from '../list-query.ts';
import { mapError, migrate } from './setup.ts';
import { toEvent, toExecution, toQueueRef, toTask, toTimer } from '../rows.ts';
import { notificationsOf } from '../transition-checks.ts';
import type {
  ClaimTaskRequest, ClaimTimersRequest, ExecutionQuery, ExecutionRecord, QueueRef, Store, StoreNotification,
  NamespaceChanges, NamespaceRecord, ScheduleRecord, StartRuns, TaskRecord, TimerRecord, Transition, VisibilityQuery,
} from '../types.ts';
import * as ns from './namespace-queries.ts';
import { PostgresTaskQueues } from './task-queue-queries.ts';
import { PQ, quoteIdent } from './queries.ts';
import { batchPayloads, noticePayloads } from './batch-sql.ts';
import { NotifyListener } from './listener.ts';
import { MAX_IN_FLIGHT, PgGroupCommitter } from './group-commit.ts';
import { StatisticsKeeper } from './statistics.ts';
import { getSchedule, listSchedules } from './schedule-queries.ts';
import { applyTransition } from './apply-transition.ts';
import { postgresVisibilityStore as vis } from './visibility.ts';
import type { SearchAttributeDefinition } from '../../visibility/types.ts';
import type { VisibilityCount } from '../visibility/compile.ts';
import { faults } from '../../common/fault-points.ts';
import { EXECUTION_CACHE_SIZE, ExecutionCache } from '../execution-cache.ts';
import { SCHEDULE_CACHE_SIZE, ScheduleCache, scheduleKey } from '../schedule-cache.ts';
import { resolveCacheMaxBytes, type StoreCacheOptions } from '../byte-bounded-map.ts';

type Row = Record<string, unknown>;

/** Options of {@link PostgresStore.open}. */
export interface PostgresStoreOptions extends StoreCacheOptions {
  /** Schema holding the tables (created if missing). @default "public" */
  schema?: string;
  /**
   * Connections in the pool of reads and single writes. @default 10 (the group commit keeps up to
   * two connections of its own besides)
   */
  poolSize?: number;
}

/**
 * The store for production: PostgreSQL, shared by any number of servers. Tasks and timers are
 * claimed with FOR UPDATE SKIP LOCKED and a lease; every commit NOTIFYs the other servers
 * (tasks added, timers created, runs closed) so their long polls and timer loops wake at once.
 */
export class PostgresStore implements Store {
  readonly dialect = 'postgres' as const;
  readonly #pool: pg.Pool;
  /** The group commit's connections, one per batch in flight (see {@link openPool}). */
  readonly #batchPool: pg.Pool;
  readonly #listener: NotifyListener;
  readonly #origin = newUuid();
  readonly #listeners = new Listeners();
  readonly taskQueues = new PostgresTaskQueues((sql, params) => this.#query(sql, params));
  readonly #committer: PgGroupCommitter;
  readonly #statistics = new StatisticsKeeper((sql, params) => this.#pool.query(sql, params));
  /**
   * Execution rows (and recent events) as this server last committed them. Other servers write
   * the same rows, so a cached row may be stale: it answers only {@link cachedExecution} (whose
   * callers confirm what they decide with a version-checked write) and history ranges it holds
   * whole (committed events never change). Other servers' NOTIFYs and failed commits drop rows;
   * they are an economy, not the guard.
   */
  readonly #rows: ExecutionCache;
  /** Schedule rows as this server last committed them, under the same rules as {@link #rows}. */
  readonly #schedules: ScheduleCache;
  #closed = false;

  private constructor(pool: pg.Pool, batchPool: pg.Pool, config: pg.ClientConfig, channel: string, cacheMaxBytes: number) {
    this.#rows = new ExecutionCache(EXECUTION_CACHE_SIZE, cacheMaxBytes - Math.floor(cacheMaxBytes / 4));
    this.#schedules = new ScheduleCache(SCHEDULE_CACHE_SIZE, Math.floor(cacheMaxBytes / 4));
    this.#pool = pool;
    this.#batchPool = batchPool;
    this.#listener = new NotifyListener(config, channel, this.#origin, {
      notice: (body) => {
        for (const runId of body.r ?? []) this.#rows.delete(runId);
        for (const key of body.s ?? []) this.#schedules.delete(key);
        this.#listeners.emit(body.n);
      },
      lost: () => {
        this.#rows.clear();
        this.#schedules.clear();
      },
      resumed: () => this.#listeners.emit([{ type: 'resync' }]),
    });
    this.#committer = new PgGroupCommitter({
      channel, origin: this.#origin,
      query: (config) => this.#batchPool.query(config),
      commitAlone: (t) => this.#commitAlone(t),
      connectionLost: (err) => connectionLoss(err),
    });
  }

  /** Batch statements sent and the largest batch, for benchmarks and tests. */
  get writeStats(): { batches: number; maxBatch: number } {
    return { ...this.#committer.stats };
  }

  /** Connects, creates the schema and applies pending migrations under an advisory lock. */
  static async open(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const schema = options.schema ?? 'public';
    const cacheMaxBytes = resolveCacheMaxBytes(options);
    // application_name lets an operator find (or pg_terminate_backend) steadfast's sessions; one in the URL wins.
    const config = { connectionString, options: `-c search_path=${quoteIdent(schema)}`, application_name: 'steadfast' };
    const pool = openPool(config, options.poolSize ?? 10);
    // The batch statements are few shapes run over and over: planned once per connection
    // (a generic plan) instead of on every run, which took longer than running them
    // (docs/benchmarks.md, "The engine in the application's process").
    const batchPool = openPool({ ...config, options: `${config.options} -c plan_cache_mode=force_generic_plan` }, MAX_IN_FLIGHT);
    try {
      await migrate(pool, schema);
      const channel = `steadfast_${schema}`.replace(/[^a-zA-Z0-9_]/g, '_').slice(0, 63);
      const store = new PostgresStore(pool, batchPool, config, channel, cacheMaxBytes);
      await store.#listener.open();
      return store;
    } catch (err) {
      await Promise.all([pool.end(), batchPool.end()]);
      throw err;
    }
  }

  /** Runs one statement on the pool; a lost connection becomes a StoreUnavailableError (503). */
  async #query(sql: string, params?: unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.#pool.query(sql, params);
    } catch (err) {
      throw mapError(err);
    }
  }

  async getExecution(runId: string): Promise<ExecutionRecord | undefined> {
    const r = await this.#query(PQ.getExecution, [runId]);
    return r.rows[0] ? toExecution(r.rows[0]) : undefined;
  }

  /**
   * The row as this server last committed it, if it is in memory: possibly stale, since another
   * server may have changed it since. A caller may act on it only through a transition that
   * writes this row with `expectedVersion` its version (a stale one conflicts, which drops it,
   * and the caller reads again with {@link getExecution}); anything else it decides from the
   * row (a refusal, nothing to write, deletes alone) must be decided again on a read.
   */
  cachedExecution(runId: string): ExecutionRecord | undefined {
    return this.#rows.get(runId)?.rec;
  }

  async findStartRuns(namespace: string, workflowId: string, requestId: string | undefined): Promise<StartRuns> {
    const r = await this.#query(PQ.findStartRuns, [namespace, workflowId, requestId ?? null]);
    const found: StartRuns = {};
    for (const row of r.rows as Row[]) {
      if (row.found_by === 'request') found.byRequestId = toExecution(row);
      else found.latest = toExecution(row);
    }
    return found;
  }

  async getLatestExecution(namespace: string, workflowId: string): Promise<ExecutionRecord | undefined> {
    const r = await this.#query(PQ.getLatestExecution, [namespace, workflowId]);
    return r.rows[0] ? toExecution(r.rows[0]) : undefined;
  }

  async findExecutionByRequestId(namespace: string, workflowId: string, requestId: string): Promise<ExecutionRecord | undefined> {
    const r = await this.#query(PQ.findByRequestId, [namespace, workflowId, requestId]);
    return r.rows[0] ? toExecution(r.rows[0]) : undefined;
  }

  async listExecutions(query: ExecutionQuery): Promise<ExecutionRecord[]> {
    const { sql, params } = buildListQuery(query, (i) => `$${i}`);
    return (await this.#query(sql, params)).rows.map(toExecution);
  }

  async getSchedule(namespace: string, scheduleId: string): Promise<ScheduleRecord | undefined> {
    return getSchedule((sql, params) => this.#query(sql, params), namespace, scheduleId);
  }

  /**
   * The schedule row as this server last committed it, if it is in memory: possibly stale, since
   * another server may have changed or deleted it since. A caller may act on it only through a
   * transition that writes this row with `expectedVersion` its version (a stale one conflicts,
   * which drops it, and the caller reads again with {@link getSchedule}); anything else it
   * decides from the row (a refusal) must be decided again on a read.
   */
  cachedSchedule(namespace: string, scheduleId: string): ScheduleRecord | undefined {
    return this.#schedules.get(namespace, scheduleId);
  }

  async listSchedules(namespace: string, afterId: string | undefined, limit: number): Promise<ScheduleRecord[]> {
    return listSchedules((sql, params) => this.#query(sql, params), namespace, afterId, limit);
  }

  async queryExecutions(query: VisibilityQuery): Promise<{ executions: ExecutionRecord[]; nextPageToken?: string }> {
    return this.#read((db) => vis.query(db, query));
  }

  async countExecutions(query: Omit<VisibilityQuery, 'pageSize' | 'nextPageToken'>): Promise<VisibilityCount> {
    return this.#read((db) => vis.count(db, query));
  }

  async listSearchAttributes(namespace: string): Promise<SearchAttributeDefinition[]> {
    return (await this.#read((db) => vis.columns(db, namespace))).map(({ name, type }) => ({ name, type }));
  }

  async createSearchAttribute(namespace: string, definition: SearchAttributeDefinition): Promise<void> {
    await this.#transaction((client) => vis.createAttribute(client, namespace, definition));
  }

  async removeSearchAttribute(namespace: string, name: string): Promise<boolean> {
    let removed = false;
    await this.#transaction(async (client) => void (removed = await vis.removeAttribute(client, namespace, name)));
    return removed;
  }

  createNamespace(record: NamespaceRecord): Promise<void> {
    return ns.createNamespace((sql, params) => this.#query(sql, params), record);
  }

  getNamespace(name: string): Promise<NamespaceRecord | undefined> {
    return ns.getNamespace((sql, params) => this.#query(sql, params), name);
  }

  listNamespaces(afterName: string | undefined, limit: number): Promise<NamespaceRecord[]> {
    return ns.listNamespaces((sql, params) => this.#query(sql, params), afterName, limit);
  }

  updateNamespace(name: string, changes: NamespaceChanges, updateTime: number): Promise<NamespaceRecord | undefined> {
    return ns.updateNamespace((sql, params) => this.#query(sql, params), name, changes, updateTime);
  }

  async markNamespaceDeleted(name: string, updateTime: number): Promise<NamespaceRecord | undefined> {
    let marked: NamespaceRecord | undefined;
    const note: StoreNotification = { type: 'namespaceDeleted', name };
    await this.#transaction(async (c) => {
      marked = await ns.markNamespaceDeleted(c, name, updateTime);
      // Every other server stops accepting the namespace when this commits.
      if (marked) for (const p of noticePayloads(this.#origin, [], [note])) await c.query(PQ.notify, [this.#listener.channel, p]);
    });
    if (marked) this.#listeners.emit([note]);
    return marked;
  }

  async purgeNamespace(name: string, limit: number): Promise<{ runIds: string[]; done: boolean }> {
    let batch: { runIds: string[]; scheduleIds: string[]; done: boolean } = { runIds: [], scheduleIds: [], done: false };
    await this.#transaction(async (c) => {
      batch = await ns.purgeNamespace(c, name, limit);
      const schedules = batch.scheduleIds.map((id) => scheduleKey(name, id));
      for (const p of noticePayloads(this.#origin, batch.runIds, [], schedules)) await c.query(PQ.notify, [this.#listener.channel, p]);
    });
    for (const runId of batch.runIds) this.#rows.delete(runId);
    for (const id of batch.scheduleIds) this.#schedules.delete(scheduleKey(name, id));
    return { runIds: batch.runIds, done: batch.done };
  }

  async deleteClosedRuns(namespace: string, closedBefore: number, limit: number, runId?: string): Promise<string[]> {
    let runIds: string[] = [];
    await this.#transaction(async (c) => {
      runIds = await ns.deleteClosedRuns(c, namespace, closedBefore, limit, runId);
      // Other servers drop the deleted runs from their caches when this commits.
      for (const p of noticePayloads(this.#origin, runIds, [])) await c.query(PQ.notify, [this.#listener.channel, p]);
    });
    for (const runId of runIds) this.#rows.delete(runId);
    return runIds;
  }

  /** Runs reads on the pool; a lost connection becomes a StoreUnavailableError (503). */
  async #read<T>(run: (db: pg.Pool) => Promise<T>): Promise<T> {
    try {
      return await run(this.#pool);
    } catch (err) {
      throw mapError(err);
    }
  }

  async readHistory(runId: string, fromEventId: number, limit: number): Promise<HistoryEvent[]> {
    const cached = this.#rows.history(runId, fromEventId, limit);
    if (cached) return cached;
    return (await this.#query(PQ.readHistory, [runId, fromEventId, limit])).rows.map(toEvent);
  }

  commit(t: Transition): Promise<void> {
    return this.#committer.submit(t).then((seqs) => {
      this.#rows.remember(t, t.executions.map((w) => seqs.get(w.record.runId)));
      this.#schedules.remember(t);
      const inserted = t.executions.filter((w) => w.expectedVersion === undefined).length;
      if (inserted > 0) this.#statistics.inserted(inserted);
      this.#listeners.emit(notificationsOf(t));
    }, (err: unknown) => {
      this.#rows.forget(t);
      this.#schedules.forget(t);
      // A commit whose outcome is unknown (the connection was lost) may have committed its tasks
      // and timers; their NOTIFY comes back from this server's own origin, which the listener
      // skips, so waiters and the timer loop re-scan instead of missing them.
      if (!(err instanceof StoreConflictError || err instanceof NamespaceNotFoundError)) this.#listeners.emit([{ type: 'resync' }]);
      throw err;
    });
  }

  /** Commits one transition in a transaction of its own (what the batch statement cannot take). */
  #commitAlone(t: Transition): Promise<void> {
    return this.#transaction(async (client) => {
      await applyTransition(client, t);
      for (const p of batchPayloads(this.#origin, [t])) await client.query(PQ.notify, [this.#listener.channel, p]);
      if (faults.armed) await faults.hit('store.commit');
    });
  }

  /**
   * Runs `work` in one transaction on a pooled client; any failure rolls back and is mapped
   * (a lost connection becomes StoreUnavailableError).
   */
  async #transaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    // A client that lost its connection (an 'error' between our statements, a failed ROLLBACK) is
    // released with the error, so the pool drops it. The listener is attached in the connect
    // callback itself: a session terminated while it connects reports in the same turn, and an
    // 'error' event nobody listens to would crash the server.
    let broken: Error | undefined;
    const onLost = (e: Error) => {
      broken = e;
    };
    const client = await new Promise<pg.PoolClient>((resolve, reject) => {
      this.#pool.connect((err, c) => {
        if (err || !c) return reject(mapError(err));
        c.on('error', onLost);
        resolve(c);
      });
    });
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw mapError(err);
    } finally {
      client.off('error', onLost);
      client.release(broken);
    }
  }

  async claimTask(req: ClaimTaskRequest): Promise<TaskRecord | undefined> {
    const r = await this.#query(PQ.claimTask, [req.namespace, req.taskQueue, req.kind, req.now, req.now + req.leaseMs, req.owner]);
    return r.rows[0] ? toTask(r.rows[0]) : undefined;
  }

  async claimTasks(req: ClaimTaskRequest, limit: number): Promise<TaskRecord[]> {
    const r = await this.#query(PQ.claimTasks, [req.namespace, req.taskQueue, req.kind, req.now, req.now + req.leaseMs, req.owner, limit]);
    return r.rows.map(toTask).sort((a, b) => a.visibleAt - b.visibleAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async claimDueTimers(req: ClaimTimersRequest): Promise<TimerRecord[]> {
    const r = await this.#query(PQ.claimTimers, [req.now, req.now + req.leaseMs, req.owner, req.limit]);
    return r.rows.map(toTimer);
  }

  async sharedSecret(name: string, candidate: string): Promise<string> {
    await this.#query(PQ.insertSecret, [name, candidate]);
    return (await this.#query(PQ.readSecret, [name])).rows[0].value as string;
  }

  async nextWakeTime(now: number): Promise<number | undefined> {
    const t = (await this.#query(PQ.nextWakeTime, [now])).rows[0]?.t as unknown;
    return t === null || t === undefined ? undefined : Number(t);
  }

  async readyQueues(now: number): Promise<(QueueRef & { count: number })[]> {
    return (await this.#query(PQ.readyQueues, [now])).rows.map((row: Row) => toQueueRef(row));
  }

  subscribe(listener: (n: StoreNotification) => void): () => void {
    return this.#listeners.subscribe(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#committer.drained();
    await this.#listener.close();
    await Promise.all([this.#pool.end(), this.#batchPool.end()]);
  }
}

/** A pool of `max` connections whose lost connections never crash the process. */
function openPool(config: pg.PoolConfig, max: number): pg.Pool {
  const pool = new pg.Pool({ ...config, max });
  pool.on('error', () => {});
  // A connection cut while checked out (pg_terminate_backend between two statements of a
  // transaction) emits 'error' on its client, which the pool does not listen to then: without
  // this the process dies. The statement in progress fails on its own and the pool drops the client.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
