import { Listeners } from '../listeners.ts';
import pg from 'pg';
import type { HistoryEvent } from '../../history/events.ts';
import { newUuid } from '../../common/ids.ts';
import { OPEN_RUN_INDEX, PG_ERROR_CODES, StoreConflictError } from '../errors.ts';
import { buildListQuery } from '../list-query.ts';
import { loadMigrations } from '../migrations.ts';
import { executionValues, toEvent, toExecution, toQueueRef, toTask, toTimer } from '../rows.ts';
import { checkEventIds, notificationsOf } from '../transition-checks.ts';
import type {
  ClaimTaskRequest, ClaimTimersRequest, ExecutionQuery, ExecutionRecord, QueueRef, Store, StoreNotification,
  TaskRecord, TimerRecord, Transition,
} from '../types.ts';
import { multiInsert, PQ, quoteIdent } from './queries.ts';

type Row = Record<string, unknown>;

/** Options of {@link PostgresStore.open}. */
export interface PostgresStoreOptions {
  /** Schema holding the tables (created if missing). @default "public" */
  schema?: string;
  /** Connections in the pool. @default 10 */
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
  readonly #config: pg.ClientConfig;
  #listener: pg.Client | undefined;
  readonly #channel: string;
  readonly #origin = newUuid();
  readonly #listeners = new Listeners();
  #closed = false;

  private constructor(pool: pg.Pool, config: pg.ClientConfig, channel: string) {
    this.#pool = pool;
    this.#config = config;
    this.#channel = channel;
  }

  /** Opens the LISTEN connection; a lost one is re-opened (see #listenerLost). */
  async #listen(): Promise<void> {
    const client = new pg.Client({ ...this.#config, application_name: 'steadfast-listener' });
    client.on('notification', (msg) => {
      if (msg.channel !== this.#channel || !msg.payload) return;
      const body = JSON.parse(msg.payload) as { o: string; n: StoreNotification[] };
      if (body.o !== this.#origin) this.#listeners.emit(body.n);
    });
    client.on('error', () => this.#listenerLost(client));
    client.on('end', () => this.#listenerLost(client));
    await client.connect();
    await client.query(`LISTEN ${quoteIdent(this.#channel)}`);
    this.#listener = client;
  }

  /**
   * The LISTEN connection dropped (server restart, network): reconnect with backoff, then tell
   * subscribers to re-scan (a timer notification due at 0), since notifications sent meanwhile
   * were lost. Long polls and timers keep working on their own wake times until then.
   */
  #listenerLost(client: pg.Client, attempt = 0): void {
    if (this.#closed || (this.#listener !== client && attempt === 0)) return;
    this.#listener = undefined;
    client.end().catch(() => {});
    const delay = Math.min(100 * 2 ** attempt, 5000);
    setTimeout(() => {
      if (this.#closed) return;
      this.#listen().then(
        () => this.#listeners.emit([{ type: 'timer', dueAt: 0 }]),
        () => this.#listenerLost(client, attempt + 1),
      );
    }, delay).unref();
  }

  /** Connects, creates the schema and applies pending migrations under an advisory lock. */
  static async open(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const schema = options.schema ?? 'public';
    const config = { connectionString, options: `-c search_path=${quoteIdent(schema)}` };
    const pool = new pg.Pool({ ...config, max: options.poolSize ?? 10 });
    pool.on('error', () => {});
    try {
      await migrate(pool, schema);
      const channel = `steadfast_${schema}`.replace(/[^a-zA-Z0-9_]/g, '_').slice(0, 63);
      const store = new PostgresStore(pool, config, channel);
      await store.#listen();
      return store;
    } catch (err) {
      await pool.end();
      throw err;
    }
  }

  async getExecution(runId: string): Promise<ExecutionRecord | undefined> {
    const r = await this.#pool.query(PQ.getExecution, [runId]);
    return r.rows[0] ? toExecution(r.rows[0]) : undefined;
  }

  async getLatestExecution(namespace: string, workflowId: string): Promise<ExecutionRecord | undefined> {
    const r = await this.#pool.query(PQ.getLatestExecution, [namespace, workflowId]);
    return r.rows[0] ? toExecution(r.rows[0]) : undefined;
  }

  async findExecutionByRequestId(namespace: string, workflowId: string, requestId: string): Promise<ExecutionRecord | undefined> {
    const r = await this.#pool.query(PQ.findByRequestId, [namespace, workflowId, requestId]);
    return r.rows[0] ? toExecution(r.rows[0]) : undefined;
  }

  async listExecutions(query: ExecutionQuery): Promise<ExecutionRecord[]> {
    const { sql, params } = buildListQuery(query, (i) => `$${i}`);
    return (await this.#pool.query(sql, params)).rows.map(toExecution);
  }

  async readHistory(runId: string, fromEventId: number, limit: number): Promise<HistoryEvent[]> {
    return (await this.#pool.query(PQ.readHistory, [runId, fromEventId, limit])).rows.map(toEvent);
  }

  async commit(t: Transition): Promise<void> {
    for (const w of t.executions) checkEventIds(w);
    const notes = notificationsOf(t);
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await this.#apply(client, t);
      if (notes.length) await client.query(PQ.notify, [this.#channel, JSON.stringify({ o: this.#origin, n: notes })]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw mapError(err);
    } finally {
      client.release();
    }
    this.#listeners.emit(notes);
  }

  async #apply(c: pg.PoolClient, t: Transition): Promise<void> {
    for (const w of t.executions) {
      const r = w.record;
      if (w.expectedVersion === undefined) {
        await c.query(PQ.insertExecution, executionValues(r));
      } else {
        const res = await c.query(PQ.updateExecution, [
          r.runId, r.status, r.workflowType, r.taskQueue, r.executionTime, r.closeTime ?? null, r.nextEventId,
          r.memo === undefined ? null : JSON.stringify(r.memo), JSON.stringify(r.state), r.version, w.expectedVersion,
        ]);
        if (res.rowCount !== 1) throw new StoreConflictError('version', `run ${r.runId} changed since version ${w.expectedVersion}`);
      }
      if (w.events.length) {
        await c.query(multiInsert('history_events', ['run_id', 'event_id', 'event_type', 'event_time', 'attributes'], w.events.length),
          w.events.flatMap((e) => [r.runId, e.eventId, e.eventType, e.eventTime, JSON.stringify(e.attributes)]));
      }
    }
    if (t.consumeTimerId !== undefined && (await c.query(PQ.consumeTimer, [t.consumeTimerId])).rowCount !== 1) {
      throw new StoreConflictError('timerGone', `timer ${t.consumeTimerId} was already fired`);
    }
    if (t.purgeRunIds?.length) {
      await c.query(PQ.purgeRunTasks, [t.purgeRunIds]);
      await c.query(PQ.purgeRunTimers, [t.purgeRunIds]);
    }
    if (t.deleteTaskIds?.length) await c.query(PQ.deleteTasks, [t.deleteTaskIds]);
    if (t.deleteTimerIds?.length) await c.query(PQ.deleteTimers, [t.deleteTimerIds]);
    const tasks = t.createTasks ?? [];
    if (tasks.length) {
      await c.query(multiInsert('tasks', ['id', 'namespace', 'task_queue', 'kind', 'run_id', 'visible_at', 'data'], tasks.length),
        tasks.flatMap((k) => [k.id, k.namespace, k.taskQueue, k.kind, k.runId, k.visibleAt, JSON.stringify(k.data)]));
    }
    const timers = t.createTimers ?? [];
    if (timers.length) {
      await c.query(multiInsert('timers', ['id', 'namespace', 'run_id', 'kind', 'due_at', 'data'], timers.length),
        timers.flatMap((k) => [k.id, k.namespace, k.runId, k.kind, k.dueAt, JSON.stringify(k.data)]));
    }
  }

  async claimTask(req: ClaimTaskRequest): Promise<TaskRecord | undefined> {
    const r = await this.#pool.query(PQ.claimTask, [req.namespace, req.taskQueue, req.kind, req.now, req.now + req.leaseMs, req.owner]);
    return r.rows[0] ? toTask(r.rows[0]) : undefined;
  }

  async claimTasks(req: ClaimTaskRequest, limit: number): Promise<TaskRecord[]> {
    const r = await this.#pool.query(PQ.claimTasks, [req.namespace, req.taskQueue, req.kind, req.now, req.now + req.leaseMs, req.owner, limit]);
    return r.rows.map(toTask).sort((a, b) => a.visibleAt - b.visibleAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async claimDueTimers(req: ClaimTimersRequest): Promise<TimerRecord[]> {
    const r = await this.#pool.query(PQ.claimTimers, [req.now, req.now + req.leaseMs, req.owner, req.limit]);
    return r.rows.map(toTimer);
  }

  async nextWakeTime(now: number): Promise<number | undefined> {
    const t = (await this.#pool.query(PQ.nextWakeTime, [now])).rows[0]?.t as unknown;
    return t === null || t === undefined ? undefined : Number(t);
  }

  async readyQueues(now: number): Promise<(QueueRef & { count: number })[]> {
    return (await this.#pool.query(PQ.readyQueues, [now])).rows.map((row: Row) => toQueueRef(row));
  }

  subscribe(listener: (n: StoreNotification) => void): () => void {
    return this.#listeners.subscribe(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#listener?.end().catch(() => {});
    await this.#pool.end();
  }
}

function mapError(err: unknown): unknown {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e.code === PG_ERROR_CODES.uniqueViolation) {
    if (e.constraint === OPEN_RUN_INDEX) return new StoreConflictError('alreadyOpen', 'the workflow id has an open run');
    if (e.constraint === 'executions_pkey') return new StoreConflictError('duplicateRun', 'the run id exists');
  }
  if (e.code === PG_ERROR_CODES.serializationFailure || e.code === PG_ERROR_CODES.deadlockDetected) {
    return new StoreConflictError('version', `concurrent transition: ${e.message}`);
  }
  return err;
}

/** Creates the schema and applies pending migrations, one server at a time (advisory lock). */
async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query(PQ.migrationLock, [schema]);
    await c.query(PQ.createSchema(schema));
    await c.query(PQ.migrationsTable);
    const applied = new Set((await c.query(PQ.appliedMigrations)).rows.map((r: Row) => Number(r.version)));
    for (const m of loadMigrations('postgres')) {
      if (applied.has(m.version)) continue;
      await c.query(m.sql);
      await c.query(PQ.recordMigration, [m.version, m.name]);
    }
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}
