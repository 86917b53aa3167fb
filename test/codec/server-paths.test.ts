import assert from 'node:assert/strict';
import { Client } from '../../src/client/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { silentLogger } from '../helpers/logger.ts';
import { CODEC_WORKFLOWS, codecK1, SECRET } from './helpers.ts';

fixtureTest('a schedule\'s encrypted action args start runs that the worker decodes; describe decodes the action for the client only', async (f) => {
  const env = await f.env();
  const dataConverter = { payloadCodecs: [codecK1()] };
  const client = new Client({ connection: env.connection, dataConverter });
  await f.worker({ connection: env.connection, taskQueue: 'sched', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger, dataConverter });
  const handle = await client.schedule.create({
    scheduleId: 'secret-schedule', spec: { intervals: [{ every: '1h' }] }, state: { paused: true },
    action: { type: 'startWorkflow', workflowType: 'echo', taskQueue: 'sched', workflowId: 'sched-run', args: [SECRET], memo: { owner: SECRET } },
  });
  const described = await handle.describe();
  assert.deepEqual(described.action.args, [SECRET]);
  assert.deepEqual(described.action.memo, { owner: SECRET });
  const raw = await new Client({ connection: env.connection }).schedule.getHandle('secret-schedule').describe();
  assert.ok(!JSON.stringify(raw).includes(SECRET), 'the server holds the action encrypted');
  await handle.trigger();
  let runId: string | undefined;
  for (let i = 0; i < 200 && !runId; i++) {
    const d = await handle.describe();
    runId = d.info.recentActions[0]?.workflowId;
    if (!runId) await new Promise((r) => setTimeout(r, 10));
  }
  assert.ok(runId, 'the trigger started a run');
  assert.equal(await client.workflow.getHandle(runId).result(), SECRET);
});

fixtureTest('a cron job hands its encrypted last completion result to the next run, which the worker decodes', async (f) => {
  const env = await f.env();
  const dataConverter = { payloadCodecs: [codecK1()] };
  const client = new Client({ connection: env.connection, dataConverter });
  await f.worker({ connection: env.connection, taskQueue: 'cron', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger, dataConverter });
  const handle = await client.workflow.start('cronSecret', { workflowId: 'cron-secret', taskQueue: 'cron', args: [SECRET], cronSchedule: '@every 1h' });
  // Time moves in steps while the worker runs each due run; the third run starts with run 2's result.
  let latest = await client.workflow.getHandle('cron-secret').describe();
  let last: unknown;
  for (let i = 0; i < 300 && last !== `${SECRET}+`; i++) {
    await env.sleep('10m');
    await new Promise((r) => setTimeout(r, 10));
    latest = await client.workflow.getHandle('cron-secret').describe();
    const { events } = await client.workflow.getHandle('cron-secret', latest.runId).fetchHistory();
    const started = events[0]!;
    if (started.eventType === 'WorkflowExecutionStarted') last = started.attributes.lastCompletionResult;
  }
  assert.notEqual(latest.runId, handle.firstExecutionRunId);
  assert.equal(last, `${SECRET}+`, 'run 2 read run 1\'s result decoded and returned it with a +');
  const raw = await new Client({ connection: env.connection }).workflow.getHandle('cron-secret', latest.runId).fetchHistory();
  assert.ok(!JSON.stringify(raw).includes(SECRET));
});
