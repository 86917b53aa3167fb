import type { ScheduleToStartLatency } from '../../protocol/task-queues.ts';

/** How long a schedule-to-start sample counts, ms. */
const WINDOW_MS = 5 * 60_000;
/** Samples kept per queue (the latest). */
const MAX_SAMPLES = 1000;
/** Queues remembered; beyond it the one sampled longest ago is forgotten. */
const MAX_QUEUES = 10_000;

/**
 * Schedule-to-start latency per queue and kind: how long each task this server started had been
 * ready (visible) before a poll took it, over the last {@link WINDOW_MS}.
 */
export class LatencyBook {
  readonly #samples = new Map<string, { at: number; ms: number }[]>();

  record(key: string, now: number, ms: number): void {
    let list = this.#samples.get(key);
    if (!list) {
      if (this.#samples.size >= MAX_QUEUES) this.#samples.delete(this.#samples.keys().next().value!);
      list = [];
    } else {
      this.#samples.delete(key);
    }
    this.#samples.set(key, list);
    list.push({ at: now, ms: Math.max(0, ms) });
    if (list.length > MAX_SAMPLES) list.splice(0, list.length - MAX_SAMPLES);
  }

  /** p50 and p99 of the samples of the window, or undefined when there is none. */
  summary(key: string, now: number): ScheduleToStartLatency | undefined {
    const list = this.#samples.get(key);
    if (!list) return undefined;
    while (list.length > 0 && list[0]!.at < now - WINDOW_MS) list.shift();
    if (list.length === 0) return undefined;
    const sorted = list.map((s) => s.ms).sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
    return { p50: at(0.5), p99: at(0.99), samples: sorted.length };
  }
}
