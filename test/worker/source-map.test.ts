import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BundleStackMapper } from '../../src/worker/source-map.ts';

/** Base64 VLQ of one number, as source maps write it. */
function vlq(n: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += chars[digit];
  } while (v > 0);
  return out;
}

/**
 * A map of a 3-line bundle: line 1 is glue (no mapping), line 2 column 4 comes from
 * wf.ts line 27 column 10, line 3 column 0 from wf.ts line 40 column 2 (all 0-based).
 */
const payload = {
  version: 3, file: 'wf.ts.bundle.js', sources: ['wf.ts'], names: [],
  mappings: `;${vlq(4)}${vlq(0)}${vlq(26)}${vlq(10)};${vlq(0)}${vlq(0)}${vlq(13)}${vlq(-8)}`,
} as const;
const SCRIPT = '/app/wf.ts (workflow bundle)';
const mapper = () => new BundleStackMapper(payload as never, SCRIPT, 1, '/app');

test('frames in the bundle map to the source file and line, the wrapper line taken off', () => {
  const stack = [
    'Error: boom',
    `    at myWorkflow (${SCRIPT}:3:5)`,
    `    at ${SCRIPT}:4:1`,
  ].join('\n');
  assert.equal(mapper().mapStack(stack), [
    'Error: boom',
    '    at myWorkflow (/app/wf.ts:27:11)',
    '    at /app/wf.ts:40:3',
  ].join('\n'));
});

test("steadfast's own frames, Node's and unmapped glue are left out; message lines stay", () => {
  const stack = [
    'ApplicationFailure: no',
    'second line of the message',
    '    at new ApplicationFailure (steadfast workflow runtime:120:5)',
    `    at async run (${SCRIPT}:3:5)`,
    `    at glue (${SCRIPT}:2:1)`,
    '    at steadfast sandbox dispatch:1:1',
    '    at node:internal/x:1:1',
  ].join('\n');
  assert.equal(mapper().mapStack(stack), [
    'ApplicationFailure: no',
    'second line of the message',
    '    at async run (/app/wf.ts:27:11)',
  ].join('\n'));
});

test('a failure and its causes are mapped, other fields kept', () => {
  const failure = {
    kind: 'Application' as const, message: 'outer', stack: `E: outer\n    at a (${SCRIPT}:3:5)`,
    cause: { kind: 'Application' as const, message: 'inner', stack: `E: inner\n    at b (${SCRIPT}:4:1)\n    at x (steadfast workflow runtime:1:1)` },
  };
  const mapped = mapper().mapFailure(failure);
  assert.equal(mapped.message, 'outer');
  assert.equal(mapped.stack, 'E: outer\n    at a (/app/wf.ts:27:11)');
  assert.equal(mapped.cause!.stack, 'E: inner\n    at b (/app/wf.ts:40:3)');
  assert.equal(failure.stack.includes(SCRIPT), true, 'the input is not changed');
});
