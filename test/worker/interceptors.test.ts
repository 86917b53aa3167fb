import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../src/engine/index.ts';
import { PostgresStore, SqliteStore } from '../../src/store/index.ts';
import { Client, type WorkflowClientInterceptor, type Next, type WorkflowStartInput, type WorkflowSignalInput, type WorkflowQueryInput,
  type WorkflowStartUpdateInput, type WorkflowSignalWithStartInput } from '../../src/client/index.ts';
import { Context } from '../../src/activity/index.ts';
import { Worker, type ActivityInboundCallsInterceptor, type ActivityExecuteInput, DeterminismViolationError } from '../../src/worker/index.ts';
import { defaultPayloadConverter, headersFromWire } from '../../src/index.ts';
import type { Store } from '../../src/store/types.ts';
import { continuing, finish, greet, headerWorkflow, localHeaderWorkflow, parentWorkflow, receiver, seenQuery } from '../fixtures/workflows/headers.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

const workflowsPath = fileURLToPath(new URL('../fixtures/workflows/headers.ts', import.meta.url));
const workflowModules = [fileURLToPath(new URL('../fixtures/workflows/header-interceptors.ts', import.meta.url))];

/** A client interceptor that names the call in a `caller` header, as Temporal's samples add headers. */
class CallerHeader implements WorkflowClientInterceptor {
  async start(input: WorkflowStartInput, next: Next<WorkflowClientInterceptor, 'start'>): Promise<string> {
    return next({ ...input, headers: { ...input.headers, caller: defaultPayloadConverter.toPayload('client-start') } });
  }

  async signal(input: WorkflowSignalInput, next: Next<WorkflowClientInterceptor, 'signal'>): Promise<void> {
    return next({ ...input, headers: { ...input.headers, caller: defaultPayloadConverter.toPayload('client-signal') } });
  }

  async query(input: WorkflowQueryInput, next: Next<WorkflowClientInterceptor, 'query'>): Promise<unknown> {
    return next({ ...input, headers: { ...input.headers, caller: defaultPayloadConverter.toPayload('client-query') } });
  }

  async signalWithStart(input: WorkflowSignalWithStartInput, next: Next<WorkflowClientInterceptor, 'signalWithStart'>): Promise<string> {
    return next({ ...input, headers: { ...input.headers, caller: defaultPayloadConverter.toPayload('client-signal-with-start') } });
  }

  async startUpdate(input: WorkflowStartUpdateInput, next: Next<WorkflowClientInterceptor, 'startUpdate'>) {
    return next({ ...input, headers: { ...input.headers, caller: defaultPayloadConverter.toPayload('client-update') } });
  }
}

/** An activity interceptor that reads the `tenant` header the workflow's outbound interceptor set. */
class TenantReader implements ActivityInboundCallsInterceptor {
  constructor(private readonly seen: string[]) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const tenant = input.headers.tenant;
    this.seen.push(tenant ? defaultPayloadConverter.fromPayload<string>(tenant) : '(none)');
    return next(input);
  }
}

const pgSkip = await pgSkipReason('the PostgreSQL interceptor test');
const schema = freshSchema('sf_interceptors');
after(async () => {
  if (!pgSkip) await dropSchema(schema);
});

const stores: Array<{ name: string; skip: string | false; open: () => Promise<{ store: Store; close: () => Promise<void> }> }> = [
  {
    name: 'SQLite', skip: false, open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'steadfast-icpt-'));
      const store = SqliteStore.open(join(dir, 't.sqlite'));
      return { store, close: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); } };
    },
  },
  {
    name: 'PostgreSQL', skip: pgSkip, open: async () => {
      const store = await PostgresStore.open(PG_URL, { schema });
      return { store, close: () => store.close() };
    },
  },
];

for (const s of stores) {
  test(`${s.name}: headers from client and workflow interceptors reach the inbound interceptors, are stored in the events, and replay the same`,
    { skip: s.skip }, async () => {
      const { store, close } = await s.open();
      const engine = await Engine.create({ store });
      try {
        const client = new Client({ connection: engine, interceptors: { workflow: [new CallerHeader()] } });
        const tenants: string[] = [];
        const taskQueue = `icpt-${s.name}`;
        const worker = await Worker.create({
          connection: engine, taskQueue, workflowsPath, interceptors: { workflowModules, activity: [() => ({ inbound: new TenantReader(tenants) })] },
          activities: { withHeader: async () => 'with', withoutHeader: async () => 'without', afterSignal: async () => 'after' },
        });
        const handle = await client.workflow.start(headerWorkflow, { taskQueue, workflowId: `icpt-${s.name}` });
        const result = await worker.runUntil(async () => {
          await handle.signal(greet, 'hi');
          // The query's answer is wrapped by an async inbound interceptor that reads the query's own header.
          const q = await handle.query(seenQuery) as unknown as { answer: string[]; queryCaller: string };
          assert.equal(q.queryCaller, 'client-query');
          assert.ok(q.answer.includes('execute:client-start'), `seen: ${q.answer.join(', ')}`);
          assert.equal(await handle.executeUpdate(finish, { args: ['bye'] }), 'bye');
          return handle.result();
        });
        assert.deepEqual(result.activities, ['with', 'after']);
        assert.deepEqual(result.seen, ['execute:client-start', 'signal greet:client-signal', 'update finish:client-update']);
        assert.deepEqual(tenants, ['acme', 'acme']);

        const history = await handle.fetchHistory();
        const caller = (e: { attributes: unknown }) => {
          const h = headersFromWire((e.attributes as { header?: unknown }).header);
          return h.caller ? defaultPayloadConverter.fromPayload<string>(h.caller) : undefined;
        };
        const byType = (t: string) => history.events.filter((e) => e.eventType === t);
        assert.equal(caller(byType('WorkflowExecutionStarted')[0]!), 'client-start');
        assert.equal(caller(byType('WorkflowExecutionSignaled')[0]!), 'client-signal');
        assert.equal(caller(byType('WorkflowExecutionUpdateAccepted')[0]!), 'client-update');
        for (const e of byType('ActivityTaskScheduled')) {
          const h = headersFromWire((e.attributes as { header?: unknown }).header);
          assert.equal(defaultPayloadConverter.fromPayload(h.tenant!), 'acme');
        }

        // Replay sees the same headers and takes the same path; without the interceptors it cannot.
        await Worker.runReplayHistory({ workflowsPath, interceptors: { workflowModules } }, history);
        await assert.rejects(Worker.runReplayHistory({ workflowsPath }, history), DeterminismViolationError);
      } finally {
        await engine.shutdown();
        await close();
      }
    });
}

for (const s of stores) {
  test(`${s.name}: a workflow's outbound interceptors put headers on its children, its signals to other workflows and its continue-as-new`,
    { skip: s.skip }, async () => {
      const { store, close } = await s.open();
      const engine = await Engine.create({ store });
      try {
        const client = new Client({ connection: engine });
        const taskQueue = `icpt-out-${s.name}`;
        const worker = await Worker.create({ connection: engine, taskQueue, workflowsPath, interceptors: { workflowModules } });
        await worker.runUntil(async () => {
          const r = await client.workflow.start(receiver, { taskQueue, workflowId: `receiver-${s.name}` });
          const child = await client.workflow.execute(parentWorkflow, { taskQueue, workflowId: `parent-${s.name}`, args: [`receiver-${s.name}`] });
          assert.deepEqual(child, ['execute:parent-child']);
          assert.deepEqual(await r.result(), ['execute:(none)', 'signal greet:parent-signal']);
          // Signal-with-start's one header goes with both the start and the signal.
          const sws = await new Client({ connection: engine, interceptors: { workflow: [new CallerHeader()] } }).workflow.signalWithStart(receiver, {
            taskQueue, workflowId: `sws-${s.name}`, signal: greet, signalArgs: ['hi'],
          });
          assert.deepEqual(await sws.result(), ['execute:client-signal-with-start', 'signal greet:client-signal-with-start']);
          assert.deepEqual(await client.workflow.execute(continuing, { taskQueue, workflowId: `continuing-${s.name}`, args: [0] }),
            ['execute:continued']);
        });
        // The parent's own history records the headers it gave.
        const parent = await client.workflow.getHandle(`parent-${s.name}`).fetchHistory();
        const initiated = parent.events.find((e) => e.eventType === 'StartChildWorkflowExecutionInitiated')!;
        const header = headersFromWire((initiated.attributes as { header?: unknown }).header);
        assert.equal(defaultPayloadConverter.fromPayload(header.caller!), 'parent-child');
      } finally {
        await engine.shutdown();
        await close();
      }
    });
}

test('interceptor options are checked, naming the entry', async () => {
  const engine = await Engine.create({ store: SqliteStore.open(':memory:') });
  try {
    assert.throws(() => new Client({ connection: engine, interceptors: { workflow: [{ start: 'no' }] } as never }),
      /interceptors\.workflow\[0\]\.start must be a function/);
    assert.throws(() => new Client({ connection: engine, interceptors: { calls: [] } as never }), /interceptors\.calls is not an interceptor kind/);
    await assert.rejects(Worker.create({ connection: engine, taskQueue: 'x', workflowsPath, interceptors: { workflowModules: ['/no/such/file.ts'] } }),
      /interceptors\.workflowModules\[0\] must name an existing file/);
    await assert.rejects(Worker.create({ connection: engine, taskQueue: 'x', workflowsPath, interceptors: { activity: [42] } as never }),
      /interceptors\.activity\[0\] must be a function/);
  } finally {
    await engine.shutdown();
  }
});

for (const s of stores) {
  test(`${s.name}: a local activity goes through scheduleLocalActivity, and its header reaches the activity's inbound interceptor`,
    { skip: s.skip }, async () => {
      const { store, close } = await s.open();
      const engine = await Engine.create({ store });
      try {
        const client = new Client({ connection: engine });
        const tenants: string[] = [];
        const lines: { message: string; meta?: Record<string, unknown> }[] = [];
        const keep = (message: string, meta?: Record<string, unknown>) => {
          lines.push({ message, ...(meta ? { meta } : {}) });
        };
        const taskQueue = `icpt-local-${s.name}`;
        const worker = await Worker.create({
          connection: engine, taskQueue, workflowsPath, logger: { debug: keep, info: keep, warn: keep, error: keep },
          interceptors: {
            workflowModules,
            activity: [() => ({
              inbound: new TenantReader(tenants),
              outbound: { getLogAttributes: (input, next) => next({ ...input, shapedBy: 'activity interceptor' }) },
            })],
          },
          activities: {
            withHeader: async () => {
              Context.current().log.info('in the local activity');
              return 'with';
            },
          },
        });
        const result = await worker.runUntil(client.workflow.execute(localHeaderWorkflow, { taskQueue, workflowId: `icpt-local-${s.name}` }));
        assert.equal(result, 'with');
        assert.deepEqual(tenants, ['acme-local']);
        // getLogAttributes shapes the workflow's and the activity's log lines.
        const wf = lines.find((l) => l.message === 'calling the local activity');
        assert.equal(wf?.meta?.tenant, 'acme', JSON.stringify(wf));
        assert.equal(wf?.meta?.step, 1);
        const act = lines.find((l) => l.message === 'in the local activity');
        assert.equal(act?.meta?.shapedBy, 'activity interceptor', JSON.stringify(act));
        assert.equal(act?.meta?.activityType, 'withHeader');
      } finally {
        await engine.shutdown();
        await close();
      }
    });
}
