import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../composition/helpers.ts';

for (const backend of backends('count')) {
  describe(`client.workflow.count on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    after(() => backend.cleanup());

    // count() took only { query }: Temporal's count("WorkflowType = 'x'") was refused.
    test("count takes Temporal's query string and answers Temporal's CountWorkflowExecution shape", { skip }, async () => {
      const env = await backend.env();
      try {
        for (const [type, id] of [['x', 'x-1'], ['x', 'x-2'], ['x', 'x-3'], ['y', 'y-1']]) {
          await env.client.workflow.start(type!, { taskQueue: 'nobody', workflowId: id! });
        }
        await env.client.workflow.getHandle('x-3').terminate('done');
        assert.deepEqual(await env.client.workflow.count("WorkflowType = 'x'"), { count: 3, groups: [] });
        assert.deepEqual(await env.client.workflow.count({ query: "WorkflowType = 'y'" }), { count: 1, groups: [] });
        assert.deepEqual(await env.client.workflow.count(), { count: 4, groups: [] });
        assert.deepEqual(await env.client.workflow.count('GROUP BY ExecutionStatus'), {
          count: 4,
          groups: [
            { count: 3, groupValues: ['Running'], value: 'Running' },
            { count: 1, groupValues: ['Terminated'], value: 'Terminated' },
          ],
        });
        await assert.rejects(env.client.workflow.count(5 as never), /^ValidationError: query must be a visibility query string or \{ query \}, got 5$/);
        await assert.rejects(env.client.workflow.count({ qery: 'x' } as never), /qery is not a count option/);
        await assert.rejects(env.client.workflow.count("WorkflowType == 'x'"), { name: 'QuerySyntaxError' });
      } finally {
        await env.teardown();
      }
    });
  });
}
