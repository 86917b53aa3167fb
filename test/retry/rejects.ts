import assert from 'node:assert/strict';
import { ValidationError } from '../../src/retry/index.ts';

/** Asserts that `fn` throws a ValidationError with this message (exact, or matching) and field. */
export function rejects(fn: () => unknown, message: string | RegExp, field?: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ValidationError, String(err));
    if (typeof message === 'string') assert.equal(err.message, message);
    else assert.match(err.message, message);
    if (field) assert.equal(err.field, field);
    return true;
  });
}
