/**
 * `log` from steadfast/workflow and steadfast/activity, as Temporal's docs use it: lines reach
 * the worker's logger (Runtime.install's, or the worker's `logger` option) with the run's or
 * the activity's ids as fields, and workflow lines are not written again when history replays.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { log as activityLog, Context } from '../../src/activity/index.ts';
import { DefaultLogger, Runtime, Worker, type LogEntry } from '../../src/worker/index.ts';
import { ValidationError } from '../../src/errors/index.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/logging.ts', import.meta.url));

test('Runtime.install({ logger: new DefaultLogger(...) }) receives workflow and activity log lines once each, with their ids', async () => {
  const entries: LogEntry[] = [];
  Runtime.install({ logger: new DefaultLogger('DEBUG', (entry) => entries.push(entry)) });
  const store = SqliteStore.open(':memory:');
  const engine = await Engine.create({ store });
  try {
    // No cache: every workflow task replays the run's history from its start.
    const worker = await Worker.create({
      connection: engine, taskQueue: 'logs', workflowsPath, maxCachedWorkflows: 0,
      activities: {
        async greet(name: string): Promise<string> {
          activityLog.info('greeting', { name });
          Context.current().log.debug('through the context');
          return `hello ${name}`;
        },
      },
    });
    const { runId } = await engine.startWorkflowExecution({ workflowId: 'log-1', workflowType: 'loggingWorkflow', taskQueue: 'logs', args: ['ada'] });
    await worker.runUntil(engine.getWorkflowExecutionHistory({ workflowId: 'log-1', waitForClose: true, waitTimeoutMs: 20_000 }));
    const wf = entries.filter((e) => e.meta?.sdkComponent === 'workflow');
    assert.deepEqual(wf.map((e) => [e.level, e.message]), [
      ['INFO', 'workflow started'], ['DEBUG', 'a debug line'], ['WARN', 'workflow about to finish'],
    ]);
    assert.deepEqual(wf[0]!.meta, {
      sdkComponent: 'workflow', namespace: 'default', taskQueue: 'logs', workflowId: 'log-1', runId, workflowType: 'loggingWorkflow', name: 'ada',
    });
    assert.equal(wf[2]!.meta?.greeting, 'hello ada');
    const act = entries.filter((e) => e.meta?.sdkComponent === 'activity');
    assert.deepEqual(act.map((e) => [e.level, e.message]), [['INFO', 'greeting'], ['DEBUG', 'through the context']]);
    assert.equal(act[0]!.meta?.activityType, 'greet');
    assert.equal(act[0]!.meta?.workflowId, 'log-1');
    assert.equal(act[0]!.meta?.workflowType, 'loggingWorkflow');
    assert.equal(act[0]!.meta?.attempt, 1);
    assert.equal(act[0]!.meta?.name, 'ada');
    assert.equal(typeof act[0]!.meta?.activityId, 'string');
    assert.ok(entries.every((e) => typeof e.timestampNanos === 'bigint'));
  } finally {
    await engine.shutdown();
    await store.close();
  }
});

test('DefaultLogger keeps its level and above; Runtime.install and DefaultLogger refuse bad input naming the field', () => {
  const seen: string[] = [];
  const logger = new DefaultLogger('WARN', (e) => seen.push(`${e.level} ${e.message}`));
  logger.info('dropped');
  logger.debug('dropped');
  logger.warn('kept');
  logger.error('kept too');
  logger.log('TRACE', 'dropped');
  assert.deepEqual(seen, ['WARN kept', 'ERROR kept too']);
  assert.throws(() => new DefaultLogger('LOUD' as never), (e: unknown) => e instanceof ValidationError && /level/.test(e.message));
  assert.throws(() => Runtime.install({ logger: { info: () => undefined } as never }),
    (e: unknown) => e instanceof ValidationError && /options\.logger\.debug/.test(e.message));
  assert.throws(() => Runtime.install({ loggr: logger } as never), (e: unknown) => e instanceof ValidationError && /options\.loggr/.test(e.message));
});
