import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveActivityOptions } from '../../src/workflow/proxy-activities.ts';
import { resolveChildOptions } from '../../src/workflow/child.ts';
import { makeContinueAsNewFunc } from '../../src/workflow/continue-as-new.ts';
import { MAX_DURATION_MS } from '../../src/common/index.ts';

const RULE = `must be at most 100 years (${MAX_DURATION_MS} ms)`;
const OVER = `${100 * 365 + 1}d`;

test('every duration workflow code can ask for is refused in the workflow past 100 years, naming the option', () => {
  const cases: [() => unknown, string][] = [
    [() => resolveActivityOptions({ startToCloseTimeout: OVER }), `startToCloseTimeout ${RULE}, got "${OVER}"`],
    [() => resolveActivityOptions({ startToCloseTimeout: '1s', scheduleToCloseTimeout: 1e20 }), `scheduleToCloseTimeout ${RULE}, got 100000000000000000000`],
    [() => resolveActivityOptions({ startToCloseTimeout: '1s', scheduleToStartTimeout: OVER }), `scheduleToStartTimeout ${RULE}, got "${OVER}"`],
    [() => resolveActivityOptions({ startToCloseTimeout: '1s', heartbeatTimeout: OVER }), `heartbeatTimeout ${RULE}, got "${OVER}"`],
    [() => resolveActivityOptions({ startToCloseTimeout: '1s', retry: { initialInterval: OVER } }), `retry.initialInterval ${RULE}, got ${MAX_DURATION_MS + 86_400_000}`],
    [() => resolveActivityOptions({ startToCloseTimeout: '1s', retry: { initialInterval: '1000d' } }),
      `retry.maximumInterval ${RULE} (when not given it is 100 × initialInterval), got ${100 * 1000 * 86_400_000}`],
    [() => resolveChildOptions('child', { workflowRunTimeout: OVER }, () => 'c-1'), `workflowRunTimeout ${RULE}, got "${OVER}"`],
    [() => resolveChildOptions('child', { workflowExecutionTimeout: 1e20 }, () => 'c-1'), `workflowExecutionTimeout ${RULE}, got 100000000000000000000`],
    [() => resolveChildOptions('child', { retry: { maximumInterval: OVER } }, () => 'c-1'), `retry.maximumInterval ${RULE} (when not given it is 100 × initialInterval), got ${MAX_DURATION_MS + 86_400_000}`],
    [() => makeContinueAsNewFunc({ workflowTaskTimeout: OVER }), `continueAsNew.workflowTaskTimeout ${RULE}, got "${OVER}"`],
  ];
  for (const [fn, message] of cases) assert.throws(fn, (err: Error) => err.name === 'ValidationError' && err.message === message, message);
  assert.equal(resolveActivityOptions({ startToCloseTimeout: `${100 * 365}d` }).startToCloseTimeoutMs, MAX_DURATION_MS, 'the maximum itself is allowed');
});
