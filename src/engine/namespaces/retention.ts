import type { Clock } from '../../retry/clock.ts';
import type { Store } from '../../store/types.ts';
import type { Logger } from '../core/logger.ts';
import { purgeDeletedNamespace } from './namespaces.ts';

/**
 * Closed runs deleted per store transaction: bounds a sweep's lock time and transaction size
 * whatever the backlog (a namespace whose retention was just shortened may hold millions).
 */
export const RETENTION_BATCH = 500;

/** How often a server sweeps for closed runs past their namespace's retention, ms. @default 1 minute */
export const DEFAULT_RETENTION_SWEEP_INTERVAL_MS = 60_000;

const NAMESPACE_PAGE = 1000;

/**
 * Deletes closed runs older than their namespace's retention (docs/operations.md), on every
 * server: a sweep reads each namespace's retention from the store, then deletes its expired runs
 * in batches of {@link RETENTION_BATCH}, one transaction each, until a batch comes back short.
 * Whether a run expired is judged by `clock` (the engine's, which tests move); how long the loop
 * waits between sweeps is `waitClock` time. Servers sweeping at once take different runs (the
 * store's guarantee), and a failed sweep is logged and tried again at the next interval.
 * A sweep also removes what is left of deleted namespaces (a server that stopped mid-way leaves
 * the rest to the next sweep of any server); a deletion made here starts removing at once
 * ({@link purge}).
 */
export class RetentionSweeper {
  #stop = new AbortController();
  #done: Promise<void> | undefined;
  #sweeping: Promise<number> | undefined;
  readonly #purges = new Set<Promise<unknown>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly waitClock: Clock,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  /** Sweeps every `intervalMs` until stop(); the first sweep is one interval after the start. */
  start(): void {
    if (this.intervalMs <= 0) return;
    this.#done ??= this.#loop();
  }

  async stop(): Promise<void> {
    this.#stop.abort('stop');
    await this.#done;
    await this.#sweeping?.catch(() => undefined);
    await Promise.all(this.#purges);
  }

  /** Starts removing a deleted namespace's data in the background; a failure is logged and left to the next sweep. */
  purge(name: string): void {
    const running: Promise<unknown> = purgeDeletedNamespace(this.store, name, this.#stop.signal)
      .catch((err: unknown) => this.logger.error(`removing deleted namespace ${name} failed; the next sweep goes on with it`, { namespace: name, err: String(err) }))
      .finally(() => this.#purges.delete(running));
    this.#purges.add(running);
  }

  /**
   * One sweep over every namespace, now; concurrent calls share one sweep.
   * @returns how many runs it deleted.
   */
  sweep(): Promise<number> {
    this.#sweeping ??= this.#sweepAll().finally(() => {
      this.#sweeping = undefined;
    });
    return this.#sweeping;
  }

  async #loop(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      try {
        await this.waitClock.sleep(this.intervalMs, this.#stop.signal);
      } catch {
        return;
      }
      try {
        await this.sweep();
      } catch (err) {
        if (this.#stop.signal.aborted) return;
        this.logger.error(`retention sweep failed; trying again in ${this.intervalMs} ms`, { err: String(err) });
      }
    }
  }

  async #sweepAll(): Promise<number> {
    let deleted = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.store.listNamespaces(after, NAMESPACE_PAGE);
      for (const ns of page) {
        if (ns.state === 'Deleted') {
          deleted += await purgeDeletedNamespace(this.store, ns.name, this.#stop.signal);
          continue;
        }
        for (;;) {
          if (this.#stop.signal.aborted) return deleted;
          // The cutoff is read per batch: time moves during a long sweep.
          const runIds = await this.store.deleteClosedRuns(ns.name, this.clock.now() - ns.retentionMs, RETENTION_BATCH);
          deleted += runIds.length;
          if (runIds.length < RETENTION_BATCH) break;
        }
      }
      if (page.length < NAMESPACE_PAGE) return deleted;
      after = page[page.length - 1]!.name;
    }
  }
}
