import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as ErrorsModule from '../../src/retry/errors.ts';
import {
  ActivityFailure, ApplicationFailure, CancelledFailure, fromFailureInfo, isCancellation, SteadfastError,
  TimeoutFailure, toFailureInfo, ValidationError,
} from '../../src/common/index.ts';

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
  const copy = (await import(`../../src/retry/errors.ts?${'second-copy'}`)) as typeof ErrorsModule;
  assert.notEqual(copy.ValidationError, ValidationError);
  const made = new copy.ValidationError('a', 'must be b', 1);
  assert.ok(made instanceof ValidationError);
  assert.ok(made instanceof SteadfastError);
  assert.ok(!(new Error('plain') instanceof SteadfastError));
  assert.ok(!(new copy.SteadfastError('x') instanceof ValidationError));
  assert.equal(made.message, 'a must be b, got 1');
});
