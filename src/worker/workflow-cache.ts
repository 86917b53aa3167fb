import { BoundedMap } from '../common/bounded-map.ts';
import type { WorkflowRun } from './workflow-run.ts';

/**
 * Running workflows kept between tasks (sticky cache), least recently used evicted first: a
 * run put back after use becomes the newest.
 */
export class WorkflowCache {
  readonly #runs: BoundedMap<WorkflowRun>;
  constructor(readonly capacity: number) {
    this.#runs = new BoundedMap(capacity);
  }

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
    this.#runs.set(key, run);
  }

  has(key: string): boolean {
    return this.#runs.has(key);
  }

  delete(key: string): void {
    this.#runs.delete(key);
  }
}
