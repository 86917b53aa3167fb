import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  retry, createRetry, Backoff, RetryPolicy, RetryError, AttemptTimeoutError, RetryTimeoutError, ManualClock, SteadfastError,
  ValidationError, CodedError, backoffDelays, systemClock, type RetryEvent, type RetryOptions,
} from '../../src/retry/index.ts';
import { flushMicrotasks, onTimeout } from '../../src/retry/clock.ts';
import { foldSeed } from '../../src/retry/random.ts';
import { ApplicationFailure } from '../../src/common/failure.ts';

/** Moves the clock from one pending sleep to the next until `promise` settles. */
async function drive(clock: ManualClock, promise: Promise<unknown>): Promise<void> {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  for (let step = 0; step < 10_000 && !done; step++) {
    await flushMicrotasks(50);
    if (done) break;
    const due = clock.nextDue();
    if (due === undefined) await new Promise((r) => setImmediate(r));
    else await clock.set(due);
  }
  assert.ok(done, 'the run settled');
}

async function failure(promise: Promise<unknown>): Promise<RetryError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof RetryError, `expected a RetryError, got ${String(err)}`);
    assert.ok(err instanceof SteadfastError);
    return err;
  }
  assert.fail('expected a rejection');
}

function failingTimes<T>(n: number, value: T, make: (attempt: number) => unknown = (a) => new Error(`boom ${a}`)) {
  const calls: number[] = [];
  const fn = async ({ attempt }: { attempt: number }) => {
    calls.push(attempt);
    if (attempt <= n) throw make(attempt);
    return value;
  };
  return { fn, calls };
}

describe('retry()', () => {
  test('success on the first attempt: no waits, stats say 1 attempt', async () => {
    const clock = new ManualClock(5);
    assert.equal(await retry(() => 42, { clock }), 42);
    assert.deepEqual(await retry.withStats(async () => 'ok', { clock }), { value: 'ok', attempts: 1, elapsedMs: 0 });
    assert.equal(clock.pendingSleeps(), 0);
  });

  test('Temporal defaults: waits 1 s then 2 s, onRetry sees attempt, delay and error', async () => {
    const clock = new ManualClock();
    const events: RetryEvent[] = [];
    const { fn, calls } = failingTimes(2, 'done');
    const run = retry.withStats(fn, { clock, onRetry: (e) => void events.push(e) });
    await drive(clock, run);
    assert.deepEqual(await run, { value: 'done', attempts: 3, elapsedMs: 3000 });
    assert.deepEqual(calls, [1, 2, 3]);
    assert.deepEqual(events.map((e) => [e.attempt, e.delayMs, (e.error as Error).message]), [[1, 1000, 'boom 1'], [2, 2000, 'boom 2']]);
  });

  test('maximum attempts: RetryError with attempts, reason and the last error', async () => {
    const clock = new ManualClock();
    const { fn } = failingTimes(10, 'never');
    const run = retry(fn, { clock, policy: { maximumAttempts: 3, initialInterval: '100ms' } });
    await drive(clock, run);
    const err = await failure(run);
    assert.equal(err.retryState, 'MaximumAttemptsReached');
    assert.equal(err.attempts, 3);
    assert.equal((err.lastError as Error).message, 'boom 3');
    assert.equal(err.cause, err.lastError);
    assert.equal(err.elapsedMs, 300);
    assert.match(err.message, /after 3 attempts: boom 3/);
  });

  test('Polly schedules: fastFirst retries at once, then the curve', async () => {
    const clock = new ManualClock();
    const delays: number[] = [];
    const { fn } = failingTimes(5, 'x');
    const run = retry(fn, { clock, policy: Backoff.constant(200, 5, { fastFirst: true }), onRetry: (e) => void delays.push(e.delayMs) });
    await drive(clock, run);
    assert.equal(await run, 'x');
    assert.deepEqual(delays, [0, 200, 200, 200, 200]);
    assert.equal(clock.now(), 800);
  });

  test('non-retryable: the error\'s flag, its type, its name', async () => {
    const cases: [RetryOptions, Error][] = [
      [{}, ApplicationFailure.nonRetryable('no', 'Whatever')],
      [{ policy: { nonRetryableErrorTypes: ['CardDeclined'] } }, ApplicationFailure.retryable('declined', 'CardDeclined')],
      [{ nonRetryableErrorTypes: ['TypeError'] }, new TypeError('bad')],
    ];
    for (const [options, error] of cases) {
      const { fn, calls } = failingTimes(5, 'x', () => error);
      const err = await failure(retry(fn, { ...options, clock: new ManualClock() }));
      assert.equal(err.retryState, 'NonRetryableFailure');
      assert.equal(err.attempts, 1);
      assert.equal(err.lastError, error);
      assert.deepEqual(calls, [1]);
    }
  });

  test('nextRetryDelay on the error replaces the computed interval for that attempt', async () => {
    const clock = new ManualClock();
    const delays: number[] = [];
    const { fn } = failingTimes(2, 'x', (a) => a === 1 ? ApplicationFailure.create({ message: 'slow down', nextRetryDelay: '5s' }) : new Error('plain'));
    const run = retry(fn, { clock, onRetry: (e) => void delays.push(e.delayMs) });
    await drive(clock, run);
    await run;
    assert.deepEqual(delays, [5000, 2000]);
  });

  test('classifier: fail stops, retryAfter sets the delay, retry uses the policy, anything else is an error', async () => {
    const clock = new ManualClock();
    const delays: number[] = [];
    const { fn } = failingTimes(3, 'x', (a) => new Error(a === 2 ? 'busy' : 'flaky'));
    const run = retry(fn, {
      clock, policy: { initialInterval: 100 }, onRetry: (e) => void delays.push(e.delayMs),
      classify: (err) => (err as Error).message === 'busy' ? { retryAfter: '3s' } : 'retry',
    });
    await drive(clock, run);
    assert.equal(await run, 'x');
    assert.deepEqual(delays, [100, 3000, 400]);

    const stop = await failure(retry(failingTimes(3, 'x').fn, { clock, classify: () => 'fail' }));
    assert.equal(stop.retryState, 'NonRetryableFailure');
    assert.equal(stop.attempts, 1);

    await assert.rejects(retry(failingTimes(3, 'x').fn, { clock, classify: () => 'maybe' as never }), ValidationError);
  });

  test('retryIf predicate decides what retries', async () => {
    const clock = new ManualClock();
    const { fn } = failingTimes(3, 'x', (a) => new Error(a < 2 ? 'transient' : 'fatal'));
    const run = retry(fn, { clock, retryIf: (err) => (err as Error).message === 'transient' });
    await drive(clock, run);
    const err = await failure(run);
    assert.equal(err.retryState, 'NonRetryableFailure');
    assert.equal(err.attempts, 2);
  });

  test('autoRetryFor with exception mappers: mapped codes retry, others stop', async () => {
    class TimeoutError extends Error {}
    class PermissionError extends Error {}
    const clock = new ManualClock();
    const errors = [new TimeoutError('t'), new CodedError('RATE_LIMITED'), new PermissionError('p')];
    const { fn, calls } = failingTimes(3, 'x', (a) => errors[a - 1]);
    const run = retry(fn, {
      clock, policy: RetryPolicy.fixed([10, 20, 30], { jitter: false }),
      autoRetryFor: ['TIMEOUT', 'RATE_LIMITED'], exceptionMapper: [[TimeoutError, 'TIMEOUT']],
    });
    await drive(clock, run);
    const err = await failure(run);
    assert.equal(err.retryState, 'NonRetryableFailure');
    assert.deepEqual(calls, [1, 2, 3]);
    assert.ok(err.lastError instanceof PermissionError);

    const withDefault = retry(failingTimes(1, 'ok', () => new PermissionError('p')).fn, {
      clock, autoRetryFor: ['PERMISSION'], defaultUnhandledErrorCode: 'PERMISSION',
    });
    await drive(clock, withDefault);
    assert.equal(await withDefault, 'ok');
    await assert.rejects(retry(fn, { autoRetryFor: ['TimeoutError'] }), /autoRetryFor\[0\] must be an UPPER_SNAKE_CASE error code/);
  });

  test('per-attempt timeout aborts the attempt\'s signal and counts as a retryable failure', async () => {
    const clock = new ManualClock();
    const reasons: unknown[] = [];
    const run = retry.withStats(({ attempt, signal }) => {
      if (attempt === 2) return 'second';
      return new Promise<string>((_, reject) => signal.addEventListener('abort', () => {
        reasons.push(signal.reason);
        reject(new Error('fn saw the abort'));
      }));
    }, { clock, attemptTimeout: '2s', policy: { initialInterval: '1s' } });
    await drive(clock, run);
    assert.deepEqual(await run, { value: 'second', attempts: 2, elapsedMs: 3000 });
    assert.ok(reasons[0] instanceof AttemptTimeoutError);
    assert.equal(clock.pendingSleeps(), 0);
  });

  test('per-attempt timeout also ends an attempt that ignores its signal', async () => {
    const clock = new ManualClock();
    const run = retry(() => new Promise(() => {}), { clock, attemptTimeout: 50, policy: { maximumAttempts: 2, initialInterval: 10 } });
    await drive(clock, run);
    const err = await failure(run);
    assert.equal(err.retryState, 'MaximumAttemptsReached');
    assert.ok(err.lastError instanceof AttemptTimeoutError);
    assert.equal(clock.now(), 110);
  });

  test('overall timeout (Polly\'s PolicyWrap): 1, 2, 4, 8, 16 s backoff, 5 s attempts, 45 s limit', async () => {
    const clock = new ManualClock();
    const starts: number[] = [];
    const run = retry(async ({ signal }) => {
      starts.push(clock.now());
      await clock.sleep(5000, signal);
      throw new Error('slow failure');
    }, { clock, policy: Backoff.exponential('1s', 5), timeout: '45s' });
    await drive(clock, run);
    const err = await failure(run);
    assert.equal(err.retryState, 'Timeout');
    assert.deepEqual(starts, [0, 6000, 13_000, 22_000, 35_000]);
    assert.equal(err.attempts, 5);
    assert.equal(clock.now(), 40_000, 'the next wait would end past the limit: stop at once');
    assert.equal(clock.pendingSleeps(), 0);
  });

  test('overall timeout cuts an attempt in flight and aborts its signal', async () => {
    const clock = new ManualClock();
    let seen: unknown;
    const run = retry(({ signal }) => new Promise(() => signal.addEventListener('abort', () => (seen = signal.reason))), {
      clock, timeout: 500,
    });
    await drive(clock, run);
    const err = await failure(run);
    assert.equal(err.retryState, 'Timeout');
    assert.equal(err.attempts, 1);
    assert.ok(seen instanceof RetryTimeoutError);
    assert.equal(clock.now(), 500);
    assert.equal(clock.pendingSleeps(), 0);
  });

  test('abort during a wait ends the wait at once', async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const run = retry(failingTimes(5, 'x').fn, { clock, signal: controller.signal, onRetry: () => queueMicrotask(() => controller.abort(new Error('user'))) });
    run.catch(() => {});
    await flushMicrotasks(50);
    const err = await failure(run);
    assert.equal(err.retryState, 'CancelRequested');
    assert.equal(err.attempts, 1);
    assert.equal((err.cause as Error).message, 'user');
    assert.equal((err.lastError as Error).message, 'boom 1');
    assert.equal(clock.now(), 0);
    assert.equal(clock.pendingSleeps(), 0);
  });

  test('an already aborted signal runs no attempt', async () => {
    let called = false;
    const err = await failure(retry(() => (called = true), { signal: AbortSignal.abort(), clock: new ManualClock() }));
    assert.equal(err.retryState, 'CancelRequested');
    assert.equal(err.attempts, 0);
    assert.equal(called, false);
  });

  test('expirationInterval (Cadence): no attempt starts after it', async () => {
    const clock = new ManualClock();
    const { fn, calls } = failingTimes(10, 'x');
    const run = retry(fn, { clock, policy: { expirationInterval: '2.5s' } });
    await drive(clock, run);
    const err = await failure(run);
    assert.equal(err.retryState, 'Timeout');
    assert.deepEqual(calls, [1, 2]);
    assert.equal(clock.now(), 1000);
  });

  test('seeded jitter: retry() waits exactly the schedule\'s delays for that seed', async () => {
    const clock = new ManualClock();
    const schedule = Backoff.decorrelatedJitterV2(100, 6, { seed: 1234 });
    const delays: number[] = [];
    const run = retry(failingTimes(6, 'x').fn, { clock, policy: schedule, onRetry: (e) => void delays.push(e.delayMs) });
    await drive(clock, run);
    await run;
    assert.deepEqual(delays, backoffDelays(schedule, foldSeed(1234)));
    const temporal: number[] = [];
    const again = retry(failingTimes(4, 'x').fn, { clock, seed: 1234, policy: { jitter: 0.5 }, onRetry: (e) => void temporal.push(e.delayMs) });
    await drive(clock, again);
    await again;
    const second: number[] = [];
    const third = retry(failingTimes(4, 'x').fn, { clock, seed: 1234, policy: { jitter: 0.5 }, onRetry: (e) => void second.push(e.delayMs) });
    await drive(clock, third);
    await third;
    assert.deepEqual(temporal, second);
  });

  test('zero delays need no clock time, also past the periodic yield', async () => {
    const clock = new ManualClock();
    const stats = await retry.withStats(failingTimes(100, 'x').fn, { clock, policy: Backoff.constant(0, 100) });
    assert.equal(stats.attempts, 101);
    assert.equal(clock.now(), 0);
  });

  test('bad options reject before the first attempt; onRetry errors end the run', async () => {
    let called = false;
    const fn = () => (called = true);
    await assert.rejects(retry(fn, { policy: { maximumAttempts: -1 } }), /policy\.maximumAttempts must be >= 0/);
    await assert.rejects(retry(fn, { timeout: 0 }), /timeout must be greater than 0, got 0/);
    await assert.rejects(retry(fn, { attemptTimeout: '1x' as never }), /attemptTimeout is not a valid duration: "1x"/);
    await assert.rejects(retry(fn, { policy: { curve: { kind: 'constant', delayMs: -1 }, maxRetries: 1, jitter: 0, capMs: Infinity, fastFirst: false, source: 'polly' } }), /policy\.curve\.delayMs must be/);
    await assert.rejects(retry('nope' as never), /fn must be a function/);
    assert.equal(called, false);
    const hook = new Error('hook');
    await assert.rejects(retry(failingTimes(1, 'x').fn, { clock: new ManualClock(), onRetry: () => { throw hook; } }), (err) => err === hook);
  });

  test('fn receives the attempt number and an AbortSignal', async () => {
    const seen: [number, boolean][] = [];
    await retry(({ attempt, signal }) => {
      seen.push([attempt, signal instanceof AbortSignal && !signal.aborted]);
      if (attempt < 2) throw new Error('again');
    }, { policy: Backoff.constant(0, 3), clock: new ManualClock() });
    assert.deepEqual(seen, [[1, true], [2, true]]);
  });

  test('createRetry validates once and runs many', async () => {
    const run = createRetry({ policy: Backoff.constant(0, 2), clock: new ManualClock() });
    assert.equal(await run(() => 1), 1);
    assert.equal(await run(failingTimes(2, 'b').fn), 'b');
    assert.throws(() => createRetry({ policy: { backoffCoefficient: 0 } }), /policy\.backoffCoefficient must be >= 1/);
  });
});

describe('retry() leaves no timer behind (real clock)', () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  test('after an abort during a long wait', async () => {
    const before = timers();
    const controller = new AbortController();
    const run = retry(async () => { throw new Error('x'); }, {
      clock: systemClock, signal: controller.signal, timeout: '3h', attemptTimeout: '1h', policy: { initialInterval: '1h' },
      onRetry: () => void setImmediate(() => controller.abort()),
    });
    const err = await failure(run);
    assert.equal(err.retryState, 'CancelRequested');
    assert.equal(timers(), before);
  });

  test('after success and after giving up, with every timeout configured', async () => {
    const before = timers();
    assert.equal(await retry(() => 'ok', { timeout: '1h', attemptTimeout: '1h', signal: new AbortController().signal }), 'ok');
    assert.equal(timers(), before);
    const err = await failure(retry(async () => { throw new Error('x'); }, { timeout: '1h', attemptTimeout: '1h', policy: Backoff.constant(1, 2) }));
    assert.equal(err.retryState, 'MaximumAttemptsReached');
    assert.equal(timers(), before);
  });
});

describe('systemClock', () => {
  test('a sleep longer than Node\'s timer limit does not fire early, and aborts cleanly', async () => {
    const controller = new AbortController();
    let settled = false;
    const sleep = systemClock.sleep(3_000_000_000, controller.signal).then(() => (settled = true), (err) => err);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(settled, false);
    controller.abort(new Error('stop'));
    assert.equal(((await sleep) as Error).message, 'stop');
    assert.equal(settled, false);
  });
});

describe('onTimeout', () => {
  test('fires once its time passes, on the system clock and on a manual one; stopped first, it never fires', async () => {
    const fired: string[] = [];
    await new Promise<void>((resolve) => onTimeout(systemClock, 5, () => { fired.push('system'); resolve(); }));
    const stopSystem = onTimeout(systemClock, 5, () => fired.push('stopped system'));
    stopSystem();
    const clock = new ManualClock();
    onTimeout(clock, 100, () => fired.push('manual'));
    const stopManual = onTimeout(clock, 100, () => fired.push('stopped manual'));
    stopManual();
    await clock.advance(99);
    assert.deepEqual(fired, ['system']);
    await clock.advance(1);
    await flushMicrotasks();
    // Node runs timers in due order: once a later one fires, the stopped one would have.
    await new Promise<void>((resolve) => onTimeout(systemClock, 10, resolve));
    assert.deepEqual(fired, ['system', 'manual']);
  });

  test('a timeout longer than Node\'s timer limit goes through the clock\'s sleep and does not fire early', async () => {
    let fired = false;
    const stop = onTimeout(systemClock, 3_000_000_000, () => (fired = true));
    await new Promise<void>((resolve) => onTimeout(systemClock, 20, resolve));
    stop();
    assert.equal(fired, false);
  });
});
