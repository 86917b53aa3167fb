/**
 * Type-level tests of proxyActivities: `tsc --noEmit` (npm run typecheck) fails if any
 * `@ts-expect-error` line below stops being an error, i.e. if a wrong argument or result type
 * of a proxied activity would compile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proxyActivities } from '../../src/workflow/index.ts';
import type * as activities from '../fixtures/workflows/runtime-activities.ts';

const { greet, charge } = proxyActivities<typeof activities>({ startToCloseTimeout: '1s' });

export function typeChecks(): void {
  const ok: Promise<string> = greet('ada');
  const amount: Promise<number> = charge(5);
  void ok;
  void amount;
  // @ts-expect-error greet takes a string
  void greet(1);
  // @ts-expect-error greet takes exactly one argument
  void greet();
  // @ts-expect-error charge resolves to a number, not a string
  const wrong: Promise<string> = charge(1);
  void wrong;
  // @ts-expect-error the module has no activity named refund
  void proxyActivities<typeof activities>({ startToCloseTimeout: '1s' }).refund;
  // @ts-expect-error timeouts are durations
  proxyActivities<typeof activities>({ startToCloseTimeout: true });
  // @ts-expect-error retry.maximumAttempts is a number
  proxyActivities<typeof activities>({ startToCloseTimeout: '1s', retry: { maximumAttempts: '3' } });
}

test('outside a workflow sandbox a proxied activity refuses to run', () => {
  assert.throws(() => greet('ada'), /steadfast\/workflow functions can only be called from workflow code/);
});

test('proxyActivities validates its options when the module loads, naming the option', () => {
  assert.throws(() => proxyActivities({}), /activity options need startToCloseTimeout or scheduleToCloseTimeout/);
  assert.throws(() => proxyActivities({ startToCloseTimeout: '1x' }), /startToCloseTimeout is not a valid duration: "1x"/);
  assert.throws(() => proxyActivities({ startToCloseTimeout: '1s', retry: { backoffCoefficient: 0.5 } }),
    /retry\.backoffCoefficient must be >= 1, got 0\.5/);
  assert.throws(() => proxyActivities({ startToCloseTimeout: '1s', retries: 3 } as never), /retries is not an activity option/);
});
