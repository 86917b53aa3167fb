import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toWireError } from '../../src/protocol/wire-error.ts';
import { connectionLoss } from '../../src/store/errors.ts';

test('a lost database connection is answered 503 Unavailable, so clients and workers try again', () => {
  const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  for (const err of [terminated, Object.assign(new Error('connection failure'), { code: '08006' }), new Error('Connection terminated unexpectedly')]) {
    const lost = connectionLoss(err);
    assert.ok(lost, err.message);
    const { status, error } = toWireError(lost);
    assert.equal(status, 503, err.message);
    assert.equal(error.code, 'Unavailable');
    assert.match(error.message, /the database is unavailable/);
  }
  assert.equal(connectionLoss(Object.assign(new Error('syntax error'), { code: '42601' })), undefined);
});
