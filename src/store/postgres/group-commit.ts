import type pg from 'pg';
import { NamespaceNotFoundError } from '../../common/errors.ts';
import { StoreConflictError } from '../errors.ts';
import { checkEventIds } from '../transition-checks.ts';
import type { Transition } from '../types.ts';
import { hasSearchAttributes } from '../visibility-records.ts';
import { scheduleKey } from '../schedule-cache.ts';
import { batchParams, batchPayloads, batchStatement, type BatchConflict } from './batch-sql.ts';
import { faults } from '../../common/fault-points.ts';

/** How the group committer reaches the database; the store supplies these. */
export interface BatchTarget {
  /** Runs a statement on a pooled connection (errors as the database raised them). */
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  /** Commits one transition in a transaction of its own (errors mapped as the store maps them). */
  commitAlone(t: Transition): Promise<void>;
  /** The error to report when `err` means the connection was lost (the batch's outcome is unknown), else undefined. */
  connectionLost(err: unknown): Error | undefined;
  channel: string;
  origin: string;
}

interface Pending {
  t: Transition;
  keys: string[];
  resolve: (seqs: Map<string, number>) => void;
  reject: (err: unknown) => void;
}

/**
 * Batches in flight at once, each on its own connection: with one, the transitions arriving
 * while a batch waits for its commit's WAL flush wait for that flush too; with two, one batch's
 * flush overlaps the next one's statement. More would mostly add row-lock waits between
 * batches. Not tuned by measurement (docs/benchmarks.md, "PostgreSQL store").
 */
export const MAX_IN_FLIGHT = 2;

/** Most transitions in one statement (its arrays grow with it; a conflict re-sends the rest). */
const MAX_BATCH = 256;

/**
 * Group commit for PostgreSQL: transitions committed while earlier ones are still being written
 * wait and go together, in ONE statement ({@link batchStatement}) that is its own transaction. A
 * transition whose check fails (a version moved, a timer was consumed, an open run exists) is
 * rejected alone and the rest are written again without it. A transition that the statement
 * cannot take (a schedule's creation or deletion, custom search attributes) or a batch the database refuses (a unique
 * violation from another server's concurrent insert, a deadlock) goes one transaction per
 * transition, as before batching. Every promise settles after the COMMIT that wrote it.
 */
export class PgGroupCommitter {
  #queue: Pending[] = [];
  #inFlight = 0;
  #scheduled = false;
  /** Transitions in the last batch taken: 1 while the committer is idle, more under load. */
  #lastBatch = 1;
  /** Resolved when nothing is queued or in flight (see {@link drained}). */
  #onDrained: (() => void)[] = [];
  /** Statements sent and the largest batch, for tests and benchmarks. */
  readonly stats = { batches: 0, maxBatch: 0 };

  constructor(readonly target: BatchTarget) {}

  /** Queues a transition; resolves with the seq of each run it inserted once committed. */
  submit(t: Transition): Promise<Map<string, number>> {
    return new Promise((resolve, reject) => {
      for (const w of t.executions) checkEventIds(w);
      this.#queue.push({ t, keys: keysOf(t), resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every submitted transition is settled (the store waits for it before closing its pool). */
  drained(): Promise<void> {
    if (this.#inFlight === 0 && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#onDrained.push(resolve));
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= MAX_IN_FLIGHT || this.#queue.length === 0) return;
    this.#scheduled = true;
    // Idle (nothing out, and the last batch was one transition), a transition goes at once, after
    // this turn's microtasks, which may add more. Otherwise the rest of this turn's I/O callbacks
    // may add theirs: under load that makes fewer, larger batches, and less work for the database.
    (this.#inFlight === 0 && this.#lastBatch <= 1 ? queueMicrotask : setImmediate)(() => {
      this.#scheduled = false;
      if (this.#inFlight >= MAX_IN_FLIGHT) return;
      const batch = this.#take();
      if (batch.length === 0) return;
      this.#lastBatch = batch.length;
      this.#inFlight++;
      void this.#write(batch).finally(() => {
        this.#inFlight--;
        this.#schedule();
        if (this.#inFlight === 0 && this.#queue.length === 0) for (const f of this.#onDrained.splice(0)) f();
      });
      this.#schedule();
    });
  }

  /** The oldest queued transitions that share no run, workflow id, task or timer (the rest wait, in order). */
  #take(): Pending[] {
    const taken: Pending[] = [];
    const rest: Pending[] = [];
    const used = new Set<string>();
    for (const p of this.#queue) {
      if (taken.length >= MAX_BATCH || p.keys.some((k) => used.has(k))) {
        rest.push(p);
        // A later transition must not overtake an earlier one it collides with.
        for (const k of p.keys) used.add(k);
        continue;
      }
      for (const k of p.keys) used.add(k);
      taken.push(p);
    }
    this.#queue = rest;
    return taken;
  }

  async #write(batch: Pending[]): Promise<void> {
    const alone = batch.filter((p) => !batchable(p.t));
    let group = batch.filter((p) => batchable(p.t));
    await Promise.all(alone.map((p) => this.#writeAlone(p)));
    while (group.length > 0) {
      this.stats.batches++;
      this.stats.maxBatch = Math.max(this.stats.maxBatch, group.length);
      const ts = group.map((p) => p.t);
      let row: { bad: BatchConflict[] | null; seqs: [string, string][] | null };
      try {
        const statement = batchStatement(batchParams(this.target.channel, ts, batchPayloads(this.target.origin, ts)));
        if (faults.armed) await faults.hit('store.commit');
        row = (await this.target.query(statement)).rows[0];
      } catch (err) {
        const lost = this.target.connectionLost(err);
        if (lost) {
          for (const p of group) p.reject(lost);
        } else {
          await Promise.all(group.map((p) => this.#writeAlone(p)));
        }
        return;
      }
      if (!row.bad) {
        const seqs = new Map((row.seqs ?? []).map(([runId, seq]) => [runId, Number(seq)]));
        for (const p of group) p.resolve(seqs);
        return;
      }
      // One reason per transition, the one a transaction of its own would have hit first: its
      // executions' checks come before its consumed timer's (the engine retries only 'version').
      const failed = new Map<number, BatchConflict>();
      for (const c of row.bad) if (!failed.has(c[0]) || failed.get(c[0])![1] === 'timerGone') failed.set(c[0], c);
      for (const [op, c] of failed) group[op]!.reject(conflict(c, group[op]!.t));
      group = group.filter((_, i) => !failed.has(i));
    }
  }

  async #writeAlone(p: Pending): Promise<void> {
    try {
      await this.target.commitAlone(p.t);
      p.resolve(new Map());
    } catch (err) {
      p.reject(err);
    }
  }
}

/** True when the batch statement can write the transition. */
function batchable(t: Transition): boolean {
  // A schedule's creation and deletion (unique and absent rows) go alone; its updates are version-checked in the batch.
  return !t.schedules?.some((w) => w.expectedVersion === undefined || w.delete) && !t.executions.some((w) => hasSearchAttributes(w.record));
}

/** What a transition touches: two transitions sharing a key never go in one statement. */
function keysOf(t: Transition): string[] {
  const keys: string[] = [];
  for (const w of t.executions) keys.push(`r:${w.record.runId}`, `w:${w.record.namespace}\u0000${w.record.workflowId}`);
  for (const id of t.purgeRunIds ?? []) keys.push(`r:${id}`);
  for (const k of t.createTasks ?? []) keys.push(`t:${k.id}`, `r:${k.runId}`);
  for (const id of t.deleteTaskIds ?? []) keys.push(`t:${id}`);
  for (const k of t.createTimers ?? []) keys.push(`m:${k.id}`, `r:${k.runId}`);
  for (const id of t.deleteTimerIds ?? []) keys.push(`m:${id}`);
  if (t.consumeTimerId !== undefined) keys.push(`m:${t.consumeTimerId}`);
  for (const w of t.schedules ?? []) keys.push(`s:${scheduleKey(w.record.namespace, w.record.scheduleId)}`);
  return keys;
}

/** The error a transition gets when its check failed in the batch statement (the same as alone). */
function conflict([, reason, detail]: BatchConflict, t: Transition): Error {
  switch (reason) {
    case 'namespaceGone': return new NamespaceNotFoundError(detail);
    case 'timerGone': return new StoreConflictError('timerGone', `timer ${detail} was already fired`);
    case 'workflowIdUsed': return new StoreConflictError('workflowIdUsed', `workflow ${detail} has a run already`);
    case 'alreadyOpen': return new StoreConflictError('alreadyOpen', `workflow ${detail} has an open run`);
    case 'duplicateRun': return new StoreConflictError('duplicateRun', `run ${detail} exists`);
    case 'scheduleVersion': {
      const w = t.schedules?.find((s) => s.record.scheduleId === detail);
      return new StoreConflictError('scheduleVersion', `schedule ${detail} changed since version ${w?.expectedVersion}`);
    }
    default: {
      const expected = t.executions.find((w) => w.record.runId === detail)?.expectedVersion;
      return new StoreConflictError('version', `run ${detail} changed since version ${expected}`);
    }
  }
}
