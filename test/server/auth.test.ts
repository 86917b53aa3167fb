import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../src/client/index.ts';
import { NamespaceAlreadyExistsError, NamespaceNotFoundError, ServiceError } from '../../src/common/errors.ts';
import { WORKFLOW_SERVICE_METHODS } from '../../src/protocol/index.ts';
import { CROSS_NAMESPACE_ROLES, METHOD_ROLES, ROLES, type Role } from '../../src/server/index.ts';
import { authServer, KEYS, post } from './auth-helpers.ts';

let server: Awaited<ReturnType<typeof authServer>>;
before(async () => {
  server = await authServer();
});
after(async () => {
  await server.close();
});

/** A token that reads as naming `namespace` (the engine refuses it later: it is not signed). */
const fakeTaskToken = (namespace: string) =>
  `k.${Buffer.from(JSON.stringify(['a', namespace, 'run', 5, 1])).toString('base64url')}.${Buffer.alloc(32).toString('base64url')}`;
/** A request that passes authorization and then fails the engine's checks at once (no long poll waits). */
const probe = (namespace = 'default') => ({ namespace, taskToken: fakeTaskToken(namespace) });

test('every method is allowed to exactly the roles at or above the one it needs, and refused to the others by name', async () => {
  const rank = (r: Role) => ROLES.indexOf(r);
  const rows: string[] = [];
  const methods = Object.keys(METHOD_ROLES) as (keyof typeof METHOD_ROLES)[];
  assert.deepEqual([...methods, ...Object.keys(CROSS_NAMESPACE_ROLES)].sort(), [...WORKFLOW_SERVICE_METHODS].sort());
  for (const method of methods) {
    const needed = METHOD_ROLES[method];
    for (const role of ROLES) {
      const { status, json } = await post(server.http.address, method, probe(), KEYS[role]);
      if (rank(role) >= rank(needed)) {
        assert.ok(status !== 401 && status !== 403, `${role} may call ${method} (needs ${needed}), got ${status} ${JSON.stringify(json)}`);
      } else {
        assert.equal(status, 403, `${role} must not call ${method}`);
        assert.deepEqual(json.error, { code: 'PermissionDenied', message: `${method} needs the ${needed} role on namespace "default"` });
      }
      rows.push(`${method}:${role}:${status === 403 ? 'denied' : 'allowed'}`);
    }
    const system = await post(server.http.address, method, probe(), KEYS.systemAdmin);
    assert.ok(system.status !== 401 && system.status !== 403, `system:admin may call ${method} on any namespace`);
    const other = await post(server.http.address, method, probe(), KEYS.otherWriter);
    assert.equal(other.status, 403, `other:writer must not call ${method} on default`);
  }
  assert.equal(rows.length, methods.length * ROLES.length);
  assert.equal(METHOD_ROLES.resetWorkflowExecution, 'admin');
  assert.equal(METHOD_ROLES.pollActivityTaskQueue, 'worker');
});

test('a call without credentials is 401 Unauthenticated saying how to send them; an unknown key is 401 without detail', async () => {
  for (const method of WORKFLOW_SERVICE_METHODS) {
    const none = await post(server.http.address, method, probe());
    assert.equal(none.status, 401);
    assert.equal(none.json.error.code, 'Unauthenticated');
    assert.match(none.json.error.message, /Authorization: Bearer <API key or JWT>/);
  }
  const wrong = await post(server.http.address, 'listWorkflowExecutions', {}, 'sfk_not-a-key');
  assert.deepEqual(wrong.json.error, { code: 'Unauthenticated', message: 'the credentials were not accepted (unknown, expired or badly signed)' });
  const health = await fetch(`${server.http.address}/health`);
  assert.equal(health.status, 200, 'the health check needs no credentials');
});

test('a refusal never tells whether the workflow or namespace exists', async () => {
  const client = new Client({ address: server.http.address, apiKey: KEYS.writer });
  await client.workflow.start('t', { taskQueue: 'q', workflowId: 'exists' });
  client.close();
  const a = await post(server.http.address, 'describeWorkflowExecution', { namespace: 'default', workflowId: 'exists' }, KEYS.otherWriter);
  const b = await post(server.http.address, 'describeWorkflowExecution', { namespace: 'default', workflowId: 'absent' }, KEYS.otherWriter);
  assert.deepEqual(a, b);
  const c = await post(server.http.address, 'describeWorkflowExecution', { namespace: 'nowhere', workflowId: 'x' }, KEYS.otherWriter);
  assert.equal(c.json.error.message, 'describeWorkflowExecution needs the reader role on namespace "nowhere"');
});

test('a task token from another namespace is authorized against its own namespace, not the request\'s', async () => {
  const { status, json } = await post(server.http.address, 'respondActivityTaskCompleted',
    { namespace: 'other', taskToken: fakeTaskToken('default'), result: 1, identity: 'x' }, KEYS.otherWriter);
  assert.equal(status, 403);
  assert.equal(json.error.message, 'respondActivityTaskCompleted needs the worker role on namespace "default"');
  const start = await post(server.http.address, 'startWorkflowExecution',
    { namespace: 'default', taskToken: fakeTaskToken('other'), workflowId: 'w', workflowType: 't', taskQueue: 'q' }, KEYS.otherWriter);
  assert.equal(start.status, 403, 'a stray taskToken does not move a start to the token\'s namespace');
});

test('the client sends its apiKey (or $STEADFAST_API_KEY); batched calls are refused one by one', async () => {
  const reader = new Client({ address: server.http.address, apiKey: KEYS.reader });
  const writer = new Client({ address: server.http.address, apiKey: KEYS.writer });
  try {
    await assert.rejects(reader.workflow.start('t', { taskQueue: 'q', workflowId: 'by-reader' }),
      (err) => err instanceof ServiceError && err.code === 'PermissionDenied' && /needs the writer role on namespace "default"/.test(err.message));
    const [started, listed] = await Promise.allSettled([
      reader.workflow.start('t', { taskQueue: 'q', workflowId: 'batched' }),
      reader.workflow.getHandle('exists').describe(),
    ]);
    assert.equal(started.status, 'rejected');
    assert.equal(listed.status, 'fulfilled', 'the allowed call of the same batch went through');
    await writer.workflow.start('t', { taskQueue: 'q', workflowId: 'by-writer' });
    process.env.STEADFAST_API_KEY = KEYS.reader;
    const fromEnv = new Client({ address: server.http.address, retry: false });
    try {
      assert.ok((await fromEnv.workflow.getHandle('by-writer').describe()).status);
    } finally {
      delete process.env.STEADFAST_API_KEY;
      fromEnv.close();
    }
  } finally {
    reader.close();
    writer.close();
  }
});

test('GET /metrics needs system:reader when authentication is on: 401 without credentials, 403 for a namespace role', async () => {
  const scrape = (credential?: string) => fetch(`${server.http.address}/metrics`, credential ? { headers: { authorization: `Bearer ${credential}` } } : {});
  const none = await scrape();
  assert.equal(none.status, 401);
  assert.equal(none.headers.get('www-authenticate'), 'Bearer');
  const reader = await scrape(KEYS.reader);
  assert.equal(reader.status, 403);
  assert.deepEqual(((await reader.json()) as { error: unknown }).error, {
    code: 'PermissionDenied', message: 'GET /metrics needs the reader role on the system scope ("system:reader")',
  });
  const system = await scrape(KEYS.systemAdmin);
  assert.equal(system.status, 200);
  assert.match(await system.text(), /steadfast_requests_total/);
});

test('namespace calls: create and update need system:admin, describe the reader role, list answers what the caller may read', async () => {
  const create = { namespace: 'team-x', workflowExecutionRetentionPeriodMs: 86_400_000 };
  for (const key of [KEYS.admin, KEYS.writer, KEYS.reader, KEYS.otherWriter]) {
    const refused = await post(server.http.address, 'registerNamespace', create, key);
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.json.error, { code: 'PermissionDenied', message: 'registerNamespace needs the admin role on the system scope ("system:admin")' });
    const update = await post(server.http.address, 'updateNamespace', { namespace: 'default', description: 'x' }, key);
    assert.deepEqual(update.json.error, { code: 'PermissionDenied', message: 'updateNamespace needs the admin role on the system scope ("system:admin")' });
    const remove = await post(server.http.address, 'deleteNamespace', { namespace: 'default' }, key);
    assert.deepEqual(remove.json.error, { code: 'PermissionDenied', message: 'deleteNamespace needs the admin role on the system scope ("system:admin")' });
  }
  assert.equal((await post(server.http.address, 'registerNamespace', create, KEYS.systemAdmin)).status, 200);
  const taken = await post(server.http.address, 'registerNamespace', create, KEYS.systemAdmin);
  assert.deepEqual([taken.status, taken.json.error], [409, { code: 'AlreadyExists', message: 'namespace "team-x" is registered already', namespace: 'team-x' }]);
  assert.equal((await post(server.http.address, 'registerNamespace', { namespace: 'other' }, KEYS.systemAdmin)).status, 200);
  assert.equal((await post(server.http.address, 'updateNamespace', { namespace: 'team-x', description: 'x' }, KEYS.systemAdmin)).json.description, 'x');

  assert.equal((await post(server.http.address, 'describeNamespace', { namespace: 'default' }, KEYS.reader)).json.name, 'default');
  const hidden = await post(server.http.address, 'describeNamespace', { namespace: 'team-x' }, KEYS.reader);
  assert.deepEqual(hidden.json.error, { code: 'PermissionDenied', message: 'describeNamespace needs the reader role on namespace "team-x"' });
  const names = async (key: string) => ((await post(server.http.address, 'listNamespaces', {}, key)).json.namespaces as { name: string }[]).map((n) => n.name);
  assert.deepEqual(await names(KEYS.reader), ['default']);
  assert.deepEqual(await names(KEYS.otherWriter), ['other']);
  assert.deepEqual(await names(KEYS.systemAdmin), ['default', 'other', 'team-x']);
  const client = new Client({ address: server.http.address, apiKey: KEYS.systemAdmin });
  try {
    await assert.rejects(client.namespace.create({ name: 'team-x' }), NamespaceAlreadyExistsError);
    await client.namespace.create({ name: 'short-lived' });
    await client.namespace.delete('short-lived');
    await assert.rejects(client.namespace.delete('default'), /name must not be "default": the default namespace cannot be deleted/);
    const refusedDefault = await post(server.http.address, 'deleteNamespace', { namespace: 'default' }, KEYS.systemAdmin);
    assert.deepEqual([refusedDefault.status, refusedDefault.json.error.code], [400, 'InvalidArgument']);
    await assert.rejects(client.namespace.describe('nowhere'), (e) => e instanceof NamespaceNotFoundError && e.namespace === 'nowhere');
    const elsewhere = new Client({ address: server.http.address, apiKey: KEYS.systemAdmin, namespace: 'nowhere' });
    await assert.rejects(elsewhere.workflow.start('t', { taskQueue: 'q', workflowId: 'w' }).finally(() => elsewhere.close()),
      (e) => e instanceof NamespaceNotFoundError && e.message === 'namespace "nowhere" is not registered; create it with steadfast namespace create --name nowhere');
  } finally {
    client.close();
  }
});
