import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { TestEnvironment } from '../../src/testing/index.ts';
import { Worker } from '../../src/worker/index.ts';
import type { WorkflowExecutionDescription } from '../../src/client/index.ts';
import { MAX_DURATION_MS } from '../../src/common/index.ts';
import { BIN, spawnNode } from '../helpers/processes.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

/**
 * A workflow whose task keeps failing stays Running (as in Temporal), and describe says why:
 * the task's attempt and its last failure. Regression: the reason was only in the history
 * (first failure only) and the worker's log.
 */

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/task-failures.ts', import.meta.url));

interface Expect {
  type: string;
  cause: string;
  message: RegExp;
  /** A frame the stack must show, when the failure has a stack. */
  frame?: RegExp;
}

const CASES: Record<string, Expect> = {
  throwsString: { type: 'throwsString', cause: 'WorkflowError', message: /a plain string, not an Error/ },
  badActivityOptions: {
    type: 'badActivityOptions', cause: 'WorkflowError', message: /^retry\.maximumAttempts must be >= 0/, frame: /badActivityOptions/,
  },
  hugeResult: { type: 'hugeResult', cause: 'BadCommand', message: /^commands\[0\]\.attributes\.result .*over/ },
  sleepsTooLong: {
    type: 'sleepsTooLong', cause: 'WorkflowError',
    message: new RegExp(`^sleep duration must be at most 100 years \\(${MAX_DURATION_MS} ms\\), got 100000000000000000000$`), frame: /sleepsTooLong/,
  },
  waitsTooLong: {
    type: 'waitsTooLong', cause: 'WorkflowError',
    message: new RegExp(`^condition timeout must be at most 100 years \\(${MAX_DURATION_MS} ms\\), got "73000d"$`),
  },
};

const pgSkip = await pgSkipReason('the PostgreSQL workflow-task-failure tests');
const stores = [
  { name: 'SQLite', database: undefined as string | undefined, schema: undefined as string | undefined },
  ...(pgSkip ? [] : [(() => {
    const schema = freshSchema('task_failures');
    return { name: 'PostgreSQL', database: `${PG_URL}?schema=${schema}`, schema };
  })()]),
];

for (const store of stores) {
  describe(`failing workflow tasks on ${store.name}`, () => {
    let env: TestEnvironment;
    let worker: Worker;
    let running: Promise<void>;
    const warnings: { message: string; meta?: Record<string, unknown> }[] = [];

    before(async () => {
      env = await TestEnvironment.createTimeSkipping(store.database ? { database: store.database } : {});
      worker = await Worker.create({
        connection: env.connection, taskQueue: 'failing', workflowsPath,
        logger: { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (message, meta) => warnings.push({ message, ...(meta ? { meta } : {}) }) },
      });
      running = worker.run();
      for (const type of Object.keys(CASES)) await env.client.workflow.start(type, { taskQueue: 'failing', workflowId: `${type}-1` });
    });
    after(async () => {
      await worker.shutdown();
      await running;
      await env.teardown();
      if (store.schema) await dropSchema(store.schema);
    });

    /** Describes the run until its workflow task has failed `failures` times, moving time over the retry backoffs. */
    async function failedTimes(workflowId: string, failures: number): Promise<WorkflowExecutionDescription> {
      const handle = env.client.workflow.getHandle(workflowId);
      for (let i = 0; i < 400; i++) {
        const d = await handle.describe();
        if ((d.pendingWorkflowTask?.lastFailure?.attempt ?? 0) >= failures) return d;
        await env.sleep('1s');
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`the workflow task of ${workflowId} did not fail ${failures} times`);
    }

    for (const [type, expect] of Object.entries(CASES)) {
      test(`${type}: the run stays Running and describe shows the task's attempt and last failure`, async () => {
        const d = await failedTimes(`${type}-1`, 3);
        assert.equal(d.status, 'Running');
        const wt = d.pendingWorkflowTask!;
        assert.ok(wt.attempt >= 4, `attempt ${wt.attempt}`);
        const f = wt.lastFailure!;
        assert.equal(f.cause, expect.cause);
        assert.match(f.message, expect.message);
        assert.ok(f.attempt >= 3);
        assert.ok(Date.parse(f.failedTime) > 0);
        assert.ok(f.identity.length > 0);
        if (expect.frame) {
          assert.ok(f.stack, 'a stack');
          assert.match(f.stack, expect.frame);
          assert.ok(f.stack.split('\n').length <= 6, 'only the first frames');
        }
        // The worker logs once the service took the failure report, which may be just after describe shows it.
        const thirdWarning = () => warnings.find((w) => w.meta?.workflowId === `${type}-1` && w.meta?.attempt === 3);
        for (let i = 0; i < 200 && !thirdWarning(); i++) await new Promise((r) => setTimeout(r, 10));
        const third = thirdWarning();
        assert.ok(third, 'the worker warned at the third failure in a row');
        assert.match(third.message, /failed 3 times in a row/);
        const second = warnings.filter((w) => w.meta?.workflowId === `${type}-1` && w.meta?.attempt === 2 && w.message.startsWith('workflow task failed'));
        assert.equal(second.length, 0, 'no warning at the second');
      });
    }

    // The CLI reads the same describe answer on either store; one run of it is enough.
    if (store.name === 'SQLite') test('steadfast workflow describe prints the attempt and the last failure', async () => {
      await failedTimes('sleepsTooLong-1', 3);
      const cli = spawnNode([BIN, 'workflow', 'describe', 'sleepsTooLong-1', '--address', env.address]);
      assert.equal(await cli.exited, 0, cli.output());
      const out = cli.output();
      assert.match(out, /Workflow task: attempt \d+, (Scheduled|Started), failing/);
      assert.match(out, /cause +WorkflowError \(ValidationError\)/);
      assert.match(out, /message +sleep duration must be at most 100 years/);
      assert.match(out, /\n {2}stack\n(?: {4}at .*\n)* {4}at sleepsTooLong /);
    });
  });
}
