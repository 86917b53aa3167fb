/**
 * Type-level tests of proxyActivities: `tsc --noEmit` (npm run typecheck) fails if any
 * `@ts-expect-error` line below stops being an error, i.e. if a wrong argument or result type
 * of a proxied activity would compile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityCancellationType, ParentClosePolicy, WorkflowIdReusePolicy, proxyActivities } from '../../src/workflow/index.ts';
import { resolveChildOptions } from '../../src/workflow/child.ts';
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
  assert.throws(() => proxyActivities({ startToCloseTimeout: '1x' as never }), /startToCloseTimeout is not a valid duration: "1x"/);
  assert.throws(() => proxyActivities({ startToCloseTimeout: '1s', retry: { backoffCoefficient: 0.5 } }),
    /retry\.backoffCoefficient must be >= 1, got 0\.5/);
  assert.throws(() => proxyActivities({ startToCloseTimeout: '1s', retries: 3 } as never), /retries is not an activity option/);
  assert.throws(() => proxyActivities({ startToCloseTimeout: '1s', cancellationType: 'TRY' as never }),
    /^ValidationError: cancellationType must be one of TRY_CANCEL, WAIT_CANCELLATION_COMPLETED, ABANDON, got "TRY"$/);
  assert.throws(() => proxyActivities({ startToCloseTimeout: '1s', activityId: '' }), /activityId must be a non-empty string, got ""/);
  assert.doesNotThrow(() => proxyActivities({
    startToCloseTimeout: '1s', activityId: 'pay-1', cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  }));
});

test('child workflow options take Temporal\'s id reuse policy spellings and name a bad one', () => {
  const attrs = (policy: unknown) => resolveChildOptions('kid', { workflowIdReusePolicy: policy as never }, () => 'id');
  assert.equal(attrs(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_TERMINATE_IF_RUNNING).workflowIdReusePolicy, 'TerminateIfRunning');
  assert.equal(attrs('ALLOW_DUPLICATE_FAILED_ONLY').workflowIdReusePolicy, 'AllowDuplicateFailedOnly');
  assert.equal(attrs('RejectDuplicate').workflowIdReusePolicy, 'RejectDuplicate');
  assert.throws(() => attrs(3), /^ValidationError: workflowIdReusePolicy must be one of AllowDuplicate, AllowDuplicateFailedOnly, RejectDuplicate, TerminateIfRunning \(or Temporal's ALLOW_DUPLICATE, ALLOW_DUPLICATE_FAILED_ONLY, REJECT_DUPLICATE, TERMINATE_IF_RUNNING, also as WORKFLOW_ID_REUSE_POLICY_…\), got 3$/);
});

// ParentClosePolicy was a type only: Temporal's `ParentClosePolicy.ABANDON` did not exist as a
// value, and 'ABANDON' / 'PARENT_CLOSE_POLICY_ABANDON' were refused.
test('child workflow options take Temporal\'s parent close policy spellings and name a bad one', () => {
  const attrs = (policy: unknown) => resolveChildOptions('kid', { parentClosePolicy: policy as never }, () => 'id');
  assert.equal(attrs(ParentClosePolicy.ABANDON).parentClosePolicy, 'Abandon');
  assert.equal(attrs('ABANDON').parentClosePolicy, 'Abandon');
  assert.equal(attrs('PARENT_CLOSE_POLICY_ABANDON').parentClosePolicy, 'Abandon');
  assert.equal(attrs(ParentClosePolicy.PARENT_CLOSE_POLICY_REQUEST_CANCEL).parentClosePolicy, 'RequestCancel');
  assert.equal(attrs('Terminate').parentClosePolicy, 'Terminate');
  assert.throws(() => attrs('ABANDONED'), /^ValidationError: parentClosePolicy must be one of Terminate, RequestCancel, Abandon \(or Temporal's TERMINATE, ABANDON, REQUEST_CANCEL, also as PARENT_CLOSE_POLICY_…\), got "ABANDONED"$/);
  assert.throws(() => attrs('constructor'), /parentClosePolicy must be one of/, 'a name of Object.prototype is no spelling');
});
