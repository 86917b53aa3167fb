import assert from 'node:assert/strict';
import { fixtureTest } from '../helpers/fixture.ts';
import { engineStores } from './stores.ts';
import { cmd } from './helpers.ts';

const stores = await engineStores('the TaskFailing attribute', 'sf_taskfail');

for (const s of stores) {
  fixtureTest(`${s.name}: TaskFailing = true selects the runs whose workflow task keeps failing, until a task completes`, { skip: s.skip }, async (f) => {
    const h = await f.engine(await s.open(f));
    await h.start('stuck');
    await h.start('fine');
    const ids = async (query: string) => (await h.engine.listWorkflowExecutions({ query })).executions.map((e) => e.workflowId).sort();
    const failing = () => h.engine.listWorkflowExecutions({ query: 'TaskFailing = true' });
    assert.deepEqual(await ids('TaskFailing = true'), []);

    for (let attempt = 1; attempt <= 2; attempt++) {
      const t = await h.pollWorkflow();
      if (t.workflowId === 'fine') {
        await h.complete(t, [cmd.timer('t', 60_000)]);
        continue;
      }
      await h.engine.respondWorkflowTaskFailed({
        taskToken: t.taskToken, cause: 'WorkflowError', identity: 'worker-1',
        failure: { kind: 'Application', type: 'TypeError', message: 'boom' },
      });
    }
    const page = await failing();
    assert.deepEqual(page.executions.map((e) => [e.workflowId, e.taskFailing]), [['stuck', true]]);
    assert.deepEqual(await ids('TaskFailing = false'), ['fine']);
    assert.deepEqual(await ids('TaskFailing = true AND WorkflowType = "order"'), ['stuck']);
    assert.equal((await h.engine.countWorkflowExecutions({ query: 'TaskFailing = true' })).count, 1);

    // Still failing on the next attempt; then a completed task clears it.
    await h.advance(10_000);
    const retry = await h.pollWorkflow();
    assert.equal(retry.workflowId, 'stuck');
    assert.ok(retry.attempt >= 2);
    assert.deepEqual(await ids('TaskFailing = true'), ['stuck']);
    await h.complete(retry, [cmd.complete('ok')]);
    assert.deepEqual(await ids('TaskFailing = true'), []);
    assert.equal((await h.engine.listWorkflowExecutions({ query: 'WorkflowId = "stuck"' })).executions[0]!.taskFailing, undefined);
  });
}
