import type { CallOptions } from '../protocol/service.ts';
import type { Clock } from '../retry/clock.ts';

/**
 * WorkerOptions.maxActivitiesPerSecond: a worker's activity polls taken one at a time, each for
 * one task, and each sent at least `1000 / perSecond` ms (on the worker's clock) after the last
 * poll that brought a task: the worker receives, and so starts, at most `perSecond` activities a
 * second. A poll that comes back empty leaves the next free to go at once.
 */
export function rateLimitedPoll<T>(
  perSecond: number, clock: Clock, poll: (opts: CallOptions, maxTasks: number) => Promise<T | null>,
): (opts: CallOptions, maxTasks: number) => Promise<T | null> {
  const gapMs = 1000 / perSecond;
  let lastTaskAt = Number.NEGATIVE_INFINITY;
  let queue: Promise<unknown> = Promise.resolve();
  return (opts) => {
    const turn = queue.then(async () => {
      const wait = lastTaskAt + gapMs - clock.now();
      if (wait > 0) await clock.sleep(wait, opts.signal);
      const task = await poll(opts, 1);
      if (task) lastTaskAt = clock.now();
      return task;
    });
    queue = turn.catch(() => undefined);
    return turn;
  };
}
