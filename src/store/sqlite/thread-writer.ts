import { Worker } from 'node:worker_threads';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { settle, type Outcome, type PendingOp } from './group-commit.ts';
import { fromWireWriteError, type WireWriteError, type WriteOp, type WriteResult } from './writes.ts';

/** What the store posts to its writer thread. */
export type WriterRequest = { type: 'write'; ops: string } | { type: 'close' };

/** What the writer thread answers to one batch. */
export type WriterReply =
  | { type: 'done'; results: ({ ok: true; value: WriteResult } | { ok: false; error: WireWriteError })[]; commits: number; maxBatch: number }
  | { type: 'failed'; error: WireWriteError }
  | { type: 'closed' };

// src/*.ts in a checkout (run through tsx), dist/*.js once built.
const EXT = extname(fileURLToPath(import.meta.url));
const THREAD = new URL(`./writer-thread${EXT}`, import.meta.url);

interface Pending extends PendingOp<WriteResult> {
  op: WriteOp;
}

/**
 * Group commit through a writer thread: writes submitted while no batch is being written go out
 * together at the end of the turn; writes submitted while one is being written form the next
 * batch, posted as soon as the thread answers. So the thread is never idle under load, the
 * batches grow with the load, and the server's event loop never waits on a COMMIT.
 */
export class ThreadWriter {
  readonly #worker: Worker;
  #queue: Pending[] = [];
  #inFlight: Pending[] | undefined;
  #scheduled = false;
  #failed: Error | undefined;
  #closed: Promise<void> | undefined;
  #drained: (() => void) | undefined;
  #onClosed: (() => void) | undefined;
  /** COMMITs issued and the largest batch, as the thread reported them last. */
  commits = 0;
  maxBatch = 0;

  constructor(path: string) {
    // From source, the thread first registers tsx (as bin/steadfast.mjs does for the CLI).
    this.#worker = EXT === '.ts'
      ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
          .then((tsx) => { tsx.register(); return import(${JSON.stringify(THREAD.href)}); })`, { eval: true, workerData: { path } })
      : new Worker(THREAD, { workerData: { path } });
    this.#worker.unref();
    this.#worker.on('message', (reply: WriterReply) => this.#answered(reply));
    this.#worker.on('error', (err) => this.#fail(new Error(`the SQLite writer thread failed: ${err.message}`, { cause: err })));
    this.#worker.on('exit', (code) => {
      if (!this.#closed) this.#fail(new Error(`the SQLite writer thread stopped (exit code ${code})`));
    });
  }

  /** Queues a write; resolves with its result once its batch is committed. `committed` runs first, synchronously. */
  submit(op: WriteOp, committed?: (value: WriteResult) => void): Promise<WriteResult> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#closed) return Promise.reject(new Error('the SQLite store is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ op, run: () => undefined as never, resolve, reject, committed });
      if (this.#inFlight || this.#scheduled) return;
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.#post();
      });
    });
  }

  /** Waits for every queued write, then stops the thread. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      if (this.#inFlight || this.#queue.length > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
      if (this.#failed) return;
      // The thread closes its connection (checkpointing the WAL) and says so; then it is stopped.
      this.#worker.ref();
      const closed = new Promise<void>((resolve) => (this.#onClosed = resolve));
      this.#worker.postMessage({ type: 'close' } satisfies WriterRequest);
      await closed;
      await this.#worker.terminate();
    })();
    return this.#closed;
  }

  #post(): void {
    if (this.#inFlight || this.#queue.length === 0 || this.#failed) return;
    const batch = this.#queue;
    this.#queue = [];
    this.#inFlight = batch;
    this.#worker.ref();
    this.#worker.postMessage({ type: 'write', ops: JSON.stringify(batch.map((p) => p.op)) } satisfies WriterRequest);
  }

  #answered(reply: WriterReply): void {
    if (reply.type === 'closed') {
      this.#onClosed?.();
      return;
    }
    const batch = this.#inFlight ?? [];
    this.#inFlight = undefined;
    if (reply.type === 'failed') {
      const err = fromWireWriteError(reply.error);
      for (const p of batch) p.reject(err);
    } else {
      this.commits = reply.commits;
      this.maxBatch = reply.maxBatch;
      const outcomes = reply.results.map((r): Outcome => (r.ok ? { ok: true, value: r.value } : { ok: false, err: fromWireWriteError(r.error) }));
      settle(batch, outcomes);
    }
    if (this.#queue.length > 0) {
      this.#post();
      return;
    }
    this.#worker.unref();
    this.#drained?.();
    this.#drained = undefined;
  }

  #fail(err: Error): void {
    if (this.#failed) return;
    this.#failed = err;
    const pending = [...(this.#inFlight ?? []), ...this.#queue];
    this.#inFlight = undefined;
    this.#queue = [];
    for (const p of pending) p.reject(err);
    this.#drained?.();
  }
}
