import type { WorkflowRun } from './workflow-run.ts';

/**
 * Running workflows kept between tasks (sticky cache), least recently used evicted first.
 * Map iteration order is insertion order, so re-inserting on use keeps the oldest first.
 */
export class WorkflowCache {
  readonly #runs = new Map<string, WorkflowRun>();
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#runs.size;
  }

  /** Takes a run out of the cache (a run being worked on is not shared). */
  take(key: string): WorkflowRun | undefined {
    const run = this.#runs.get(key);
    if (run) this.#runs.delete(key);
    return run;
  }

  /** Puts a run back as the most recently used, evicting the least recently used beyond capacity. */
  put(key: string, run: WorkflowRun): void {
    if (this.capacity === 0) return;
    this.#runs.delete(key);
    this.#runs.set(key, run);
    while (this.#runs.size > this.capacity) this.#runs.delete(this.#runs.keys().next().value!);
  }

  has(key: string): boolean {
    return this.#runs.has(key);
  }

  delete(key: string): void {
    this.#runs.delete(key);
  }
}
