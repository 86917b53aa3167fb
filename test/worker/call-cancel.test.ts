import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallCancel } from '../../src/worker/call-cancel.ts';

test('CallCancel runs each listener once, in order, keeps the first reason, and drops unregistered listeners', () => {
  const cancel = new CallCancel();
  const seen: string[] = [];
  cancel.onAbort(() => seen.push('a'));
  const stop = cancel.onAbort(() => seen.push('gone'));
  cancel.onAbort(() => seen.push('b'));
  stop();
  assert.equal(cancel.aborted, false);
  cancel.abort('first');
  cancel.abort('second');
  assert.deepEqual(seen, ['a', 'b']);
  assert.equal(cancel.reason, 'first');
  // A listener that comes after the cancel runs at once.
  cancel.onAbort(() => seen.push('late'));
  assert.deepEqual(seen, ['a', 'b', 'late']);
});

test('CallCancel.signal aborts with the reason, whether it was made before or after the cancel', () => {
  const before = new CallCancel();
  const signal = before.signal;
  assert.equal(signal.aborted, false);
  assert.equal(before.signal, signal, 'one signal per call');
  const reason = new Error('stop');
  before.abort(reason);
  assert.equal(signal.aborted, true);
  assert.equal(signal.reason, reason);
  const after = new CallCancel();
  after.abort(reason);
  assert.equal(after.signal.aborted, true);
  assert.equal(after.signal.reason, reason);
});
