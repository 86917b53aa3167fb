import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { HistoryEvent } from '../../src/history/index.ts';
import { Replayer, TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { backends } from '../composition/helpers.ts';
import { silentLogger } from '../helpers/logger.ts';
import { PG_URL, dropSchema, freshSchema, pgSkipReason } from '../store/pg-helpers.ts';
import { go, type TaskView } from '../fixtures/workflows/workflow-info.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/workflow-info.ts', import.meta.url));

/** Bytes of the events up to `length`, as JSON: what historySize measures. */
const bytesUpTo = (events: HistoryEvent[], length: number) =>
  events.filter((e) => e.eventId <= length).reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e), 'utf8'), 0);

for (const backend of backends('workflow_info')) {
  describe(`workflowInfo() as Temporal's on ${backend.name}`, async () => {
    const skip = await backend.skipReason();
    after(() => backend.cleanup());

    // startTime was an ISO string; runStartTime, executionTime, historyLength, historySize,
    // continueAsNewSuggested and unsafe.isReplaying did not exist.
    test('times are Dates, and each task sees its history length and size; a fresh worker sees the replayed task as replaying', { skip }, async () => {
      const env = await backend.env();
      try {
        const handle = await env.client.workflow.start('infoReport', {
          taskQueue: 'info', workflowId: 'info-1', workflowExecutionTimeout: '1 day', workflowTaskTimeout: '20s',
        });
        const first = await Worker.create({ address: env.address, taskQueue: 'info', workflowsPath, logger: silentLogger });
        await first.runUntil(async () => {
          for (let i = 0; i < 500 && (await handle.describe()).historyLength < 4; i++) await new Promise((r) => setTimeout(r, 10));
        });
        await handle.signal(go);
        // A new worker has no cache: it replays the first task, then runs the second.
        const second = await Worker.create({ address: env.address, taskQueue: 'info', workflowsPath, logger: silentLogger });
        const report = await second.runUntil(handle.result()) as Record<string, unknown> & { tasks: TaskView[] };
        const { events } = await handle.fetchHistory();
        const started = events[0]!;
        const firstTaskStarted = events.find((e) => e.eventType === 'WorkflowTaskStarted')!;
        assert.equal(report.datesAreDates, true);
        assert.equal(report.startTime, started.eventTime);
        assert.equal(report.executionTime, started.eventTime, 'no first-task backoff');
        assert.equal(report.runStartTime, firstTaskStarted.eventTime);
        assert.equal(report.executionExpirationTime, new Date(Date.parse(started.eventTime) + 86_400_000).toISOString());
        assert.equal(report.executionTimeoutMs, 86_400_000);
        assert.equal(report.runTimeoutMs, 86_400_000);
        assert.equal(report.taskTimeoutMs, 20_000);
        assert.equal(report.unsafeNowIsANumber, true);
        const [a, b] = report.tasks;
        assert.equal(a!.historyLength, firstTaskStarted.eventId);
        assert.equal(a!.historySize, bytesUpTo(events, a!.historyLength));
        assert.equal(a!.isReplaying, true, 'the second worker replayed the first task');
        const lastStarted = events.filter((e) => e.eventType === 'WorkflowTaskStarted').at(-1)!;
        assert.equal(b!.historyLength, lastStarted.eventId);
        assert.equal(b!.historySize, bytesUpTo(events, b!.historyLength));
        assert.equal(b!.isReplaying, false);
        assert.deepEqual([a!.continueAsNewSuggested, b!.continueAsNewSuggested], [false, false]);
      } finally {
        await env.teardown();
      }
    });
  });
}

describe('continueAsNewSuggested', async () => {
  const pgSkip = await pgSkipReason('continueAsNewSuggested on PostgreSQL');
  for (const store of ['sqlite', 'postgres'] as const) {
    // The engine records its suggestion on WorkflowTaskStarted, so a replay sees what the run saw.
    test(`turns true once a task starts past the history warning line, and a replay agrees (${store})`, { skip: store === 'postgres' && pgSkip }, async () => {
      const schema = store === 'postgres' ? freshSchema('info_suggest') : undefined;
      const env = await TestEnvironment.createTimeSkipping({
        limits: { historyWarnEvents: 20 }, ...(schema ? { database: `${PG_URL}?schema=${schema}` } : {}),
      });
      try {
        const worker = await Worker.create({ address: env.address, taskQueue: 'grow', workflowsPath, logger: silentLogger });
        const handle = await env.client.workflow.start('growUntilSuggested', { taskQueue: 'grow', workflowId: 'grow-1' });
        const seen = await worker.runUntil(handle.result()) as TaskView[];
        for (const v of seen) assert.equal(v.continueAsNewSuggested, v.historyLength - 1 >= 20, JSON.stringify(v));
        assert.equal(seen.at(-1)!.continueAsNewSuggested, true);
        const history = await handle.fetchHistory();
        const suggested = history.events.filter((e) => e.eventType === 'WorkflowTaskStarted' && e.attributes.suggestContinueAsNew);
        assert.equal(suggested.length, 1);
        await Replayer.replayHistory(history, { workflowsPath });
      } finally {
        await env.teardown();
        if (schema) await dropSchema(schema);
      }
    });
  }
});
