import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../../src/client/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { Engine, openStore } from '../../src/server/index.ts';
import { Worker } from '../../src/worker/index.ts';
import * as localActivities from '../fixtures/local-activities.ts';
import { spawnNode, type Child } from '../helpers/processes.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { waitFor } from '../composition/helpers.ts';

const EAGER_WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/eager.ts', import.meta.url));

/** A database of each store: a SQLite file in a fresh folder, or a fresh PostgreSQL schema. */
const stores = [
  {
    name: 'sqlite', skip: async () => false as const,
    make: () => {
      const dir = mkdtempSync(join(tmpdir(), 'steadfast-open-'));
      return { url: `sqlite:${join(dir, 'app.sqlite')}`, dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres', skip: () => pgSkipReason('Engine.open tests on PostgreSQL'),
    make: () => {
      const schema = freshSchema('sf_open');
      const dir = mkdtempSync(join(tmpdir(), 'steadfast-open-'));
      return {
        url: `${PG_URL}?schema=${schema}`, dir,
        drop: async () => {
          rmSync(dir, { recursive: true, force: true });
          await dropSchema(schema);
        },
      };
    },
  },
];

for (const store of stores) {
  describe(`Engine.open on ${store.name}`, async () => {
    const skip = await store.skip();

    test('an application runs the engine, a worker and a client in one process; an eager start runs there', { skip, timeout: 60_000 }, async () => {
      const db = store.make();
      const engine = await Engine.open(db.url);
      try {
        const worker = await Worker.create({ connection: engine, taskQueue: 'app', workflowsPath: EAGER_WORKFLOWS, activities: localActivities });
        const client = new Client({ connection: engine });
        const result = await worker.runUntil(async () => {
          const handle = await client.workflow.start('helloLocal', { taskQueue: 'app', workflowId: 'embedded-1', args: ['world'], requestEagerStart: true });
          assert.equal(handle.eagerlyStarted, true, 'the worker of this process took the first workflow task from the start');
          return handle.result();
        });
        assert.equal(result, 'hello world (local: true)');
      } finally {
        await engine.shutdown();
      }
      // shutdown() closed the database the engine opened: it opens again in this process.
      const again = await Engine.open(db.url);
      try {
        const { events } = await new Client({ connection: again }).workflow.getHandle('embedded-1').fetchHistory();
        assert.equal(events.at(-1)!.eventType, 'WorkflowExecutionCompleted');
      } finally {
        await again.shutdown();
        await db.drop();
      }
    });

    /**
     * Runs `crash` (the first process of test/fixtures/crash/embedded-app.ts, killed somewhere),
     * then a second process that waits for `workflowId`'s result; answers what the second
     * printed and the local activity's log lines, one per call.
     */
    async function crashThenFinish(workflowId: string, crash: (app: (extra: Record<string, string>) => Child, log: string) => Promise<void>) {
      const db = store.make();
      const log = join(db.dir, 'activities.log');
      const app = (extra: Record<string, string>) => spawnNode(['--import', 'tsx', 'test/fixtures/crash/embedded-app.ts'], { DATABASE: db.url, ACTIVITY_LOG: log, ...extra });
      let second: Child | undefined;
      try {
        await crash(app, log);
        second = app({ WAIT: workflowId });
        const [, result] = await second.waitFor(/result (\S+)/, 120_000);
        const [, markers] = await second.waitFor(/markers (\d+)/);
        assert.equal(await second.exited, 0, second.output());
        return { result, markers, lines: readFileSync(log, 'utf8').trim().split('\n') };
      } finally {
        await second?.kill('SIGKILL');
        await db.drop();
      }
    }

    test('kill -9 of the application once its eager start is written and before it is answered: the local activity waited, and the next process finishes the run', { skip, timeout: 180_000 }, async () => {
      const { result, markers, lines } = await crashThenFinish('embedded-crash-2', async (app, log) => {
        // The first commit the engine makes is the start's: the process dies as soon as it is written.
        const first = app({ START: 'embedded-crash-2', STEADFAST_FAULTS: 'engine.commit.after=crash@1' });
        assert.equal(await first.exited, 'SIGKILL', first.output());
        assert.doesNotMatch(first.output(), /started eagerly/);
        assert.equal(existsSync(log), false, 'no local activity ran before the start was answered');
      });
      assert.equal(result, '8');
      assert.equal(markers, '1');
      assert.equal(lines.length, 1, 'run once, by the next process');
    });

    test('kill -9 of the application during a local activity: the next process to open the database finishes the run', { skip, timeout: 180_000 }, async () => {
      const { result, markers, lines } = await crashThenFinish('embedded-crash-1', async (app, log) => {
        const first = app({ START: 'embedded-crash-1', SLOW_MS: '120000' });
        await first.waitFor(/started eagerly=true/, 60_000);
        await waitFor('the local activity to start', async () => existsSync(log) && readFileSync(log, 'utf8').includes('logged'), 60_000);
        await first.kill('SIGKILL');
      });
      assert.equal(result, '8');
      assert.equal(markers, '1', 'one marker: the rerun attempt\'s, none from the killed process');
      assert.equal(lines.length, 2, 'run by the killed process, then again by the next one');
      assert.notEqual(lines[0]!.split(' pid ')[1], lines[1]!.split(' pid ')[1]);
    });
  });
}

describe('Engine.open refuses bad options, naming them', () => {
  test('the database URL, an unknown option, the store options and the options it owns', async () => {
    await assert.rejects(Engine.open('mysql://x'), (e: unknown) => e instanceof ValidationError && /database/.test(e.message));
    await assert.rejects(Engine.open('sqlite:/tmp/x.sqlite', { taskQeue: 'x' } as never),
      (e: unknown) => e instanceof ValidationError && /taskQeue is not an Engine\.open option \(known: .*poolSize/.test(e.message));
    await assert.rejects(Engine.open('sqlite:/tmp/x.sqlite', { ownsStore: true } as never), (e: unknown) => e instanceof ValidationError && /ownsStore/.test(e.message));
    await assert.rejects(Engine.open(`${PG_URL}`, { poolSize: 0 }), (e: unknown) => e instanceof ValidationError && /poolSize must be a whole number from 1 to 1000, got 0/.test(e.message));
    await assert.rejects(Engine.open(`${PG_URL}`, { schema: 'a;drop' }), (e: unknown) => e instanceof ValidationError && /schema must be an identifier/.test(e.message));
    await assert.rejects(openStore(`${PG_URL}`, { poolSize: 2.5 }), (e: unknown) => e instanceof ValidationError && /poolSize/.test(e.message));
  });

  test('an engine option it refuses leaves the database closed, so it opens again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-open-'));
    const url = `sqlite:${join(dir, 'app.sqlite')}`;
    try {
      await assert.rejects(Engine.open(url, { retentionSweepIntervalMs: -1 }),
        (e: unknown) => e instanceof ValidationError && /retentionSweepIntervalMs must be a whole number of milliseconds >= 0, got -1/.test(e.message));
      const engine = await Engine.open(url);
      await engine.shutdown();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
