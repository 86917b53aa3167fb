import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as ErrorsModule from '../../src/errors/index.ts';
import {
  ActivityFailure, ApplicationFailure, CancelledFailure, fromFailureInfo, isCancellation, SteadfastError,
  TimeoutFailure, toFailureInfo, ValidationError,
} from '../../src/common/index.ts';
import { CodedError, setGlobalExceptionMapper } from '../../src/retry/index.ts';

test('a failure survives the round trip through its stored form', () => {
  const original = new ActivityFailure('activity failed', 'charge', '1', 'MaximumAttemptsReached',
    ApplicationFailure.create({ message: 'declined', type: 'CardDeclined', nonRetryable: true, details: [{ code: 7 }], nextRetryDelay: '2s' }));
  const info = JSON.parse(JSON.stringify(toFailureInfo(original)));
  const back = fromFailureInfo(info);
  assert.ok(back instanceof ActivityFailure);
  const cause = back.cause as ApplicationFailure;
  assert.ok(cause instanceof ApplicationFailure);
  assert.equal(cause.type, 'CardDeclined');
  assert.equal(cause.nonRetryable, true);
  assert.deepEqual(cause.details, [{ code: 7 }]);
  assert.equal(cause.nextRetryDelay, 2000);
});

test('a plain Error becomes an application failure typed by its class name', () => {
  class RateLimited extends Error {
    override name = 'RateLimited';
  }
  const info = toFailureInfo(new RateLimited('slow down'));
  assert.equal(info.kind, 'Application');
  assert.equal(info.type, 'RateLimited');
  assert.equal(info.nonRetryable, false);
});

test('isCancellation sees through activity failures', () => {
  assert.ok(isCancellation(new CancelledFailure()));
  assert.ok(isCancellation(new ActivityFailure('x', 't', '1', 'CancelRequested', new CancelledFailure())));
  assert.ok(!isCancellation(new TimeoutFailure('x', 'StartToClose')));
});

test('instanceof holds for errors made by a second copy of the package', async () => {
  // A query string makes the loader evaluate the module again: a duplicate copy of the classes.
  const copy = (await import(`../../src/errors/index.ts?${'second-copy'}`)) as typeof ErrorsModule;
  assert.notEqual(copy.ValidationError, ValidationError);
  const made = new copy.ValidationError('a', 'must be b', 1);
  assert.ok(made instanceof ValidationError);
  assert.ok(made instanceof SteadfastError);
  assert.ok(!(new Error('plain') instanceof SteadfastError));
  assert.ok(!(new copy.SteadfastError('x') instanceof ValidationError));
  assert.equal(made.message, 'a must be b, got 1');
});

test('timeout failures carry their type, in the class and in the stored form', () => {
  const types = (['StartToClose', 'ScheduleToStart', 'ScheduleToClose', 'Heartbeat'] as const).map((t) => {
    const failure = new TimeoutFailure(`activity ${t} timeout`, t);
    const info = toFailureInfo(failure);
    assert.equal(info.type, failure.type);
    assert.equal((fromFailureInfo(info) as TimeoutFailure).type, failure.type);
    return failure.type;
  });
  assert.deepEqual(types, ['StartToCloseTimeout', 'ScheduleToStartTimeout', 'ScheduleToCloseTimeout', 'HeartbeatTimeout']);
});

test("an error's horsies code travels in its stored form: explicit, mapped, or left out for UNHANDLED_EXCEPTION", () => {
  class Deadlock extends Error {}
  assert.equal(toFailureInfo(new CodedError('RATE_LIMITED')).errorCode, 'RATE_LIMITED');
  const app = ApplicationFailure.create({ message: 'slow down', type: 'Throttled', errorCode: 'RATE_LIMITED' });
  const back = fromFailureInfo(JSON.parse(JSON.stringify(toFailureInfo(app)))) as ApplicationFailure;
  assert.equal(back.errorCode, 'RATE_LIMITED');
  assert.equal(back.type, 'Throttled');
  assert.equal('errorCode' in toFailureInfo(new Deadlock('x')), false);
  setGlobalExceptionMapper({ exceptionMapper: [[Deadlock, 'DEADLOCK']] });
  try {
    assert.equal(toFailureInfo(new Deadlock('x')).errorCode, 'DEADLOCK', "the process's exception mapper gives the code");
  } finally {
    setGlobalExceptionMapper(undefined);
  }
  assert.throws(() => ApplicationFailure.create({ errorCode: 'RateLimited' }), /errorCode must be an UPPER_SNAKE_CASE error code/);
});
