import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Engine, parseTaskTokenKeys, TaskTokens, type TaskTokenKey } from '../../src/engine/index.ts';
import { PostgresStore } from '../../src/store/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import type { ActivityTask } from '../../src/protocol/index.ts';
import { cmd, setup, type Harness } from './helpers.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

const refused = (err: unknown) => err instanceof ValidationError && err.field === 'taskToken';

/** A workflow in `namespace` with one started activity attempt. */
async function startedActivity(h: Harness, workflowId: string, namespace = 'default'): Promise<ActivityTask> {
  await h.start(workflowId, { namespace });
  const wt = await h.engine.pollWorkflowTaskQueue({ namespace, taskQueue: 'q', identity: 'w', pollTimeoutMs: 3000 });
  assert.ok(wt);
  await h.complete(wt, [cmd.activity('a1')]);
  const at = await h.engine.pollActivityTaskQueue({ namespace, taskQueue: 'q', identity: 'w', pollTimeoutMs: 3000 });
  assert.ok(at);
  return at;
}

function rewritePayload(token: string, edit: (body: unknown[]) => void): string {
  const [kid, payload, mac] = token.split('.') as [string, string, string];
  const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
  edit(body);
  return `${kid}.${Buffer.from(JSON.stringify(body)).toString('base64url')}.${mac}`;
}

test('a task token forged from what describe shows is refused and the activity stays pending', async () => {
  const h = await setup();
  try {
    const task = await startedActivity(h, 'forged');
    const d = await h.engine.describeWorkflowExecution({ workflowId: 'forged' });
    const p = d.pendingActivities[0]!;
    const unsigned = Buffer.from(JSON.stringify(['a', 'default', d.execution.runId, p.scheduledEventId, p.attempt])).toString('base64url');
    const kid = task.taskToken.split('.')[0]!;
    for (const forged of [unsigned, `${kid}.${unsigned}.${randomBytes(32).toString('base64url')}`, `${kid}.${unsigned}.`]) {
      await assert.rejects(h.engine.respondActivityTaskCompleted({ taskToken: forged, result: 'mine', identity: 'attacker' }), refused);
    }
    const after = await h.engine.describeWorkflowExecution({ workflowId: 'forged' });
    assert.equal(after.pendingActivities.length, 1, 'the forged completions changed nothing');
    await h.engine.respondActivityTaskCompleted({ taskToken: task.taskToken, result: 'real', identity: 'w' });
    assert.ok((await h.types('forged')).includes('ActivityTaskCompleted'));
  } finally {
    await h.close();
  }
});

test('a task token with a rewritten namespace, attempt or kind is refused', async () => {
  const h = await setup();
  try {
    await h.registerNamespaces('team-a', 'team-b');
    const task = await startedActivity(h, 'altered', 'team-a');
    await h.start('other', { namespace: 'team-b' });
    const altered = [
      rewritePayload(task.taskToken, (b) => { b[1] = 'team-b'; }),
      rewritePayload(task.taskToken, (b) => { b[4] = 2; }),
      rewritePayload(task.taskToken, (b) => { b[0] = 'w'; }),
    ];
    for (const token of altered) {
      await assert.rejects(h.engine.respondActivityTaskCompleted({ taskToken: token, result: 1, identity: 'x' }), refused);
    }
    await assert.rejects(h.engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands: [], identity: 'x' }),
      /taskToken must be a token of a workflow task/);
  } finally {
    await h.close();
  }
});

test('token keys rotate without downtime: the newest signs, every listed key verifies, a dropped key is refused', async () => {
  const key = (id: string): TaskTokenKey => ({ id, secret: randomBytes(32) });
  const k1 = key('k1');
  const k2 = key('k2');
  const h = await setup();
  await h.engine.shutdown();
  const open = (keys: TaskTokenKey[]) => Engine.create({ store: h.store, clock: h.clock, taskTokenKeys: keys });
  let engine = await open([k1]);
  try {
    await engine.startWorkflowExecution({ workflowId: 'rotate', workflowType: 't', taskQueue: 'q' });
    const old = await engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 3000 });
    assert.ok(old && old.taskToken.startsWith('k1.'));
    const k1Signed = old.taskToken;
    await engine.shutdown();
    engine = await open([k2, k1]);
    await engine.respondWorkflowTaskCompleted({ taskToken: k1Signed, commands: [cmd.activity('a1')], identity: 'w' });
    const fresh = await engine.pollActivityTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 3000 });
    assert.ok(fresh && fresh.taskToken.startsWith('k2.'), 'the newest key signs');
    const k2Signed = fresh.taskToken;
    await engine.shutdown();
    engine = await open([k2]);
    await engine.recordActivityTaskHeartbeat({ taskToken: k2Signed });
    await assert.rejects(engine.respondWorkflowTaskFailed({
      taskToken: k1Signed, cause: 'WorkflowError', failure: { kind: 'Application', message: 'x' }, identity: 'w',
    }), refused);
  } finally {
    await engine.shutdown();
    await h.store.close();
  }
});

test('token key files are checked: short secrets and bad ids are named', () => {
  const secret = randomBytes(32).toString('base64');
  assert.equal(parseTaskTokenKeys({ keys: [{ id: 'a', secret }] }, 'keys.json')[0]!.id, 'a');
  assert.throws(() => parseTaskTokenKeys({ keys: [] }, 'keys.json'), /keys\.json\.keys must be a non-empty list/);
  assert.throws(() => parseTaskTokenKeys({ keys: [{ id: 'a', secret: 'c2hvcnQ=' }] }, 'f'), /f\.keys\[0\]\.secret must hold at least 32 bytes/);
  assert.throws(() => parseTaskTokenKeys({ keys: [{ id: 'a b', secret }] }, 'f'), /f\.keys\[0\]\.id must be/);
});

test('servers on one PostgreSQL database share the generated token key', async (t) => {
  const skip = await pgSkipReason('shared token key');
  if (skip) return t.skip(skip); // PostgreSQL unreachable on a newcomer's machine; CI=true fails instead
  const schema = freshSchema('tokenkey');
  const [s1, s2] = [await PostgresStore.open(PG_URL, { schema }), await PostgresStore.open(PG_URL, { schema })];
  const [e1, e2] = [await Engine.create({ store: s1 }), await Engine.create({ store: s2 })];
  try {
    await e1.startWorkflowExecution({ workflowId: 'shared', workflowType: 't', taskQueue: 'q' });
    const task = await e1.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 3000 });
    assert.ok(task);
    await e2.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands: [], identity: 'w' });
    const events = await e2.getWorkflowExecutionHistory({ workflowId: 'shared' });
    assert.ok(events.events.some((e) => e.eventType === 'WorkflowTaskCompleted'), 'the other server verified the token');
  } finally {
    await e1.shutdown();
    await e2.shutdown();
    await s1.close();
    await s2.close();
    await dropSchema(schema);
  }
});

test('a query task token is signed too: an answer under a forged or rewritten one is refused', async () => {
  const h = await setup();
  try {
    await h.start('queried');
    await h.complete(await h.pollWorkflow(), []);
    const answer = h.engine.queryWorkflow({ workflowId: 'queried', queryType: 'state' });
    const q = await h.engine.pollQueryTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 3000 });
    assert.ok(q);
    const [, , queryId, deadline] = JSON.parse(Buffer.from(q.taskToken.split('.')[1]!, 'base64url').toString('utf8')) as unknown[];
    const unsigned = Buffer.from(JSON.stringify({ k: 'q', ns: 'default', q: queryId, d: deadline })).toString('base64url');
    for (const forged of [unsigned, rewritePayload(q.taskToken, (b) => { b[3] = Number(b[3]) + 1; })]) {
      await assert.rejects(h.engine.respondQueryTaskCompleted({ taskToken: forged, identity: 'x', result: 'lie' }), refused);
    }
    await assert.rejects(h.engine.respondQueryTaskCompleted({ taskToken: (await startedActivity(h, 'other')).taskToken, identity: 'x' }),
      /taskToken must be the token of a query task/);
    await h.engine.respondQueryTaskCompleted({ taskToken: q.taskToken, identity: 'w', result: 'truth' });
    assert.deepEqual(await answer, { result: 'truth' });
  } finally {
    await h.close();
  }
});

test('a token signed here verifies without its MAC while recent, by its MAC once older, and only as signed', () => {
  const key: TaskTokenKey = { id: 'k1', secret: randomBytes(32) };
  const tokens = new TaskTokens([key]);
  const first = tokens.encode({ kind: 'activity', namespace: 'default', runId: 'r1', scheduledEventId: 5, attempt: 1 });
  const seen = tokens.decode(first, 'activity');
  assert.deepEqual(seen, { kind: 'activity', namespace: 'default', runId: 'r1', scheduledEventId: 5, attempt: 1 });
  // What a caller does with a decoded body changes nothing for the next verification.
  tokens.verify(first)!.splice(0);
  assert.deepEqual(tokens.decode(first, 'activity'), seen);
  assert.throws(() => tokens.decode(first, 'workflow'), refused);
  const [kid, payload, mac] = first.split('.') as [string, string, string];
  const flipped = `${kid}.${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'AB' : 'AA'}`;
  assert.throws(() => tokens.decode(flipped, 'activity'), refused);
  assert.throws(() => tokens.decode(rewritePayload(first, (b) => { b[4] = 2; }), 'activity'), refused);
  // Long after it was signed (thousands of tokens later) the first token still verifies, by its MAC.
  for (let i = 0; i < 5000; i++) tokens.encode({ kind: 'workflow', namespace: 'default', runId: `r${i}`, seq: 1, attempt: 1 });
  assert.deepEqual(tokens.decode(first, 'activity'), seen);
  // Another service's keys refuse it, though it is recent here.
  const other = new TaskTokens([{ id: 'k1', secret: randomBytes(32) }]);
  assert.throws(() => other.decode(tokens.encode({ kind: 'workflow', namespace: 'default', runId: 'x', seq: 1, attempt: 1 }), 'workflow'), refused);
});
