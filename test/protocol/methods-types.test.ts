/**
 * Type-level tests of the METHODS table: `tsc --noEmit` (npm run typecheck) fails if any
 * `@ts-expect-error` line below stops being an error, i.e. if a service method could be added
 * without its row of facts, or a row could leave a fact out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { METHODS, type MethodTable, type WorkflowService } from '../../src/protocol/index.ts';

/** The contract with one more method, as when someone adds a call to WorkflowService. */
interface GrownService extends WorkflowService {
  pauseWorkflowExecution(req: { workflowId: string }): Promise<void>;
}

export const complete: MethodTable = METHODS;

// @ts-expect-error pauseWorkflowExecution has no row
export const grown: MethodTable<GrownService> = METHODS;

const { pollActivityTaskQueue: _dropped, ...withoutPoll } = METHODS;
// @ts-expect-error a table without pollActivityTaskQueue's row
export const missing: MethodTable = withoutPoll;

export const incomplete: MethodTable = {
  ...METHODS,
  // @ts-expect-error a row must state every fact (here: rateBuckets)
  queryWorkflow: { role: 'reader', longPoll: false, retriedByClient: true, tokenScoped: false, audited: false },
};

export const stray: MethodTable = {
  ...METHODS,
  // @ts-expect-error a row for a method the contract does not have
  pauseWorkflowExecution: METHODS.queryWorkflow,
};

test('the type-level checks of METHODS compile (see the @ts-expect-error lines)', () => {
  assert.equal(Object.keys(complete).length, Object.keys(METHODS).length);
});
