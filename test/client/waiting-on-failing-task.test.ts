import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, WorkflowUpdateRPCTimeoutOrCancelledError } from '../../src/client/index.ts';
import { WorkflowFailedError } from '../../src/common/index.ts';
import type { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { breakIt, breaksOnUpdate, throwsString } from '../fixtures/workflows/task-failures.ts';
import { backends, fixture, waitFor } from '../composition/helpers.ts';
import { silentLogger } from '../helpers/logger.ts';

const workflowsPath = fixture('task-failures.ts');
const FAILING = /the run's workflow task is failing: attempt \d+, WorkflowError( \([^)]*\))?: .*; see describe \(`steadfast workflow describe /;

for (const backend of backends('failing_task_waits')) {
  describe(`calls waiting on a run whose workflow task keeps failing, on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    let env: TestEnvironment;
    let q = 0;
    const queue = (name: string) => `${backend.name}-${name}-${++q}`;
    before(async () => {
      if (!skip) env = await backend.env();
    });
    after(async () => {
      await env?.teardown();
      await backend.cleanup();
    });

    /** A client whose "still waiting" lines are kept. */
    function client(): { client: Client; said: string[] } {
      const said: string[] = [];
      return { client: new Client({ connection: env.connection, logger: { warn: (m) => said.push(m) } }), said };
    }

    test('an update says why it waits, and ends at the client\'s deadline with WorkflowUpdateRPCTimeoutOrCancelledError naming the failure', { skip }, async () => {
      const tq = queue('update');
      const w = await Worker.create({ address: env.address, taskQueue: tq, workflowsPath, logger: silentLogger });
      const { client: c, said } = client();
      const h = c.workflow.getHandle((await c.workflow.start(breaksOnUpdate, { taskQueue: tq, workflowId: `wf-${tq}` })).workflowId);
      await w.runUntil(async () => {
        const err = await c.withDeadline(Date.now() + 4000, () => h.executeUpdate(breakIt, { updateId: 'u1' })).then(() => undefined, (e: unknown) => e);
        assert.ok(err instanceof WorkflowUpdateRPCTimeoutOrCancelledError, String(err));
        assert.equal(err.updateId, 'u1');
        assert.match(err.message, /^update "breakIt" \(u1\) of workflow .* was accepted but did not complete before the call's deadline: /);
        assert.match(err.message, FAILING);
        assert.match(err.message, /the update handler broke/);
        assert.ok(said.some((m) => /^update "breakIt" \(u1\) of workflow .* is still waiting: /.test(m) && FAILING.test(m)), said.join('\n'));
        // The same with an abort signal; the update is the one accepted before (its id repeated).
        const abort = new AbortController();
        const waiting = c.withAbortSignal(abort.signal, () => h.executeUpdate(breakIt, { updateId: 'u1' }));
        await waitFor('the second wait to say why', async () => said.length >= 2);
        abort.abort();
        await assert.rejects(waiting, (e: unknown) => e instanceof WorkflowUpdateRPCTimeoutOrCancelledError && /before the call's abort signal: /.test(e.message));
        await h.terminate('done');
      });
      c.close();
    });

    test('result() says why it waits, once per failure, and keeps waiting until the run closes', { skip }, async () => {
      const tq = queue('result');
      const w = await Worker.create({ address: env.address, taskQueue: tq, workflowsPath, logger: silentLogger });
      const { client: c, said } = client();
      const h = await c.workflow.start(throwsString, { taskQueue: tq, workflowId: `wf-${tq}` });
      await w.runUntil(async () => {
        const result = h.result().then(() => undefined, (e: unknown) => e);
        await waitFor('the client to say why it waits', async () => said.length > 0);
        assert.match(said[0]!, /^result\(\) of workflow wf-.* is still waiting: /);
        assert.match(said[0]!, FAILING);
        assert.match(said[0]!, /a plain string, not an Error/);
        await h.terminate('enough');
        const err = await result;
        assert.ok(err instanceof WorkflowFailedError && err.status === 'Terminated', String(err));
        assert.equal(said.length, 1, 'the same failure is said once');
      });
      c.close();
    });
  });
}
