import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { NamespaceAlreadyExistsError, NamespaceNotFoundError } from '../../src/common/errors.ts';
import { NAMESPACE_SERVICE_METHODS, WORKFLOW_SERVICE_METHODS, type WorkflowServiceMethod } from '../../src/protocol/index.ts';
import type { Store } from '../../src/store/types.ts';
import { setup, T0 } from './helpers.ts';

const DAY = 86_400_000;
const NOT_REGISTERED = 'namespace "nowhere" is not registered; create it with steadfast namespace create --name nowhere';

/** Calls that act through a task token: the token names a namespace its poll already checked. */
const TOKEN_CALLS: WorkflowServiceMethod[] = [
  'respondWorkflowTaskCompleted', 'respondWorkflowTaskFailed', 'recordActivityTaskHeartbeat', 'respondActivityTaskCompleted',
  'respondActivityTaskFailed', 'respondActivityTaskCanceled', 'respondQueryTaskCompleted',
];

test('an unregistered namespace is refused by name on every call that takes a namespace, before anything else is read', async () => {
  const h = await setup();
  try {
    const calls = WORKFLOW_SERVICE_METHODS.filter((m) => !TOKEN_CALLS.includes(m) && !(NAMESPACE_SERVICE_METHODS as readonly string[]).includes(m));
    assert.ok(calls.includes('startWorkflowExecution') && calls.includes('pollActivityTaskQueue') && calls.includes('createSchedule'));
    for (const method of calls) {
      const call = h.engine[method] as (req: unknown) => Promise<unknown>;
      await assert.rejects(call.call(h.engine, { namespace: 'nowhere', workflowId: 'w', taskQueue: 'q', scheduleId: 's' }), (err) => {
        assert.ok(err instanceof NamespaceNotFoundError, `${method}: ${String(err)}`);
        assert.equal(err.code, 'NotFound');
        assert.equal(err.namespace, 'nowhere');
        assert.equal(err.message, NOT_REGISTERED);
        return true;
      });
    }
    await assert.rejects(h.engine.listWorkflowExecutions({ namespace: 'bad\u0000' } as never), /namespace must not contain NUL/);
    await h.registerNamespaces('nowhere');
    await h.start('w1', { namespace: 'nowhere' });
    assert.equal((await h.engine.describeWorkflowExecution({ namespace: 'nowhere', workflowId: 'w1' })).execution.status, 'Running');
  } finally {
    await h.close();
  }
});

test('namespaces: register, describe, list by page, update; a taken name is AlreadyExists, an unknown one NotFound', async () => {
  const h = await setup();
  try {
    const orders = await h.engine.registerNamespace({
      namespace: 'orders', description: 'order workflows', ownerEmail: 'ops@example.com', workflowExecutionRetentionPeriodMs: 30 * DAY,
    });
    const at = new Date(T0).toISOString();
    assert.deepEqual(orders, {
      name: 'orders', state: 'Registered', description: 'order workflows', ownerEmail: 'ops@example.com',
      workflowExecutionRetentionPeriodMs: 30 * DAY, createTime: at, updateTime: at,
    });
    assert.deepEqual(await h.engine.describeNamespace({ namespace: 'orders' }), orders);
    const def = await h.engine.describeNamespace({ namespace: 'default' });
    assert.equal(def.workflowExecutionRetentionPeriodMs, 3 * DAY);
    await assert.rejects(h.engine.registerNamespace({ namespace: 'orders' }),
      (e) => e instanceof NamespaceAlreadyExistsError && e.code === 'AlreadyExists' && e.message === 'namespace "orders" is registered already');
    await assert.rejects(h.engine.describeNamespace({ namespace: 'nowhere' }), (e) => e instanceof NamespaceNotFoundError && e.message === NOT_REGISTERED);
    await assert.rejects(h.engine.updateNamespace({ namespace: 'nowhere', description: 'x' }), NamespaceNotFoundError);

    await h.engine.registerNamespace({ namespace: 'billing' });
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await h.engine.listNamespaces({ pageSize: 1, ...(token ? { nextPageToken: token } : {}) });
      names.push(...page.namespaces.map((n) => n.name));
      token = page.nextPageToken;
    } while (token);
    assert.deepEqual(names, ['billing', 'default', 'orders']);

    await h.clock.advance(5000);
    const updated = await h.engine.updateNamespace({ namespace: 'orders', workflowExecutionRetentionPeriodMs: 7 * DAY });
    assert.deepEqual(updated, { ...orders, workflowExecutionRetentionPeriodMs: 7 * DAY, updateTime: new Date(T0 + 5000).toISOString() });
  } finally {
    await h.close();
  }
});

test('namespace names and retentions are checked, each error naming the field, the rule and the value', async () => {
  const h = await setup();
  try {
    const cases: [unknown, RegExp][] = [
      [{ namespace: '' }, /^namespace must be a non-empty string, got ""$/],
      [{ namespace: 'a b' }, /^namespace must start with a letter or digit and hold only letters, digits, "\.", "_" and "-", got "a b"$/],
      [{ namespace: '-x' }, /^namespace must start with a letter or digit/],
      [{ namespace: 'x'.repeat(201) }, /^namespace must be at most 200 characters/],
      [{ namespace: 'system' }, /^namespace must not be "system" \(permissions use it to mean every namespace\), got "system"$/],
      [{ namespace: 'ok', workflowExecutionRetentionPeriodMs: 3_600_000 }, /^workflowExecutionRetentionPeriodMs must be at least 1 day, got 3600000$/],
      [{ namespace: 'ok', workflowExecutionRetentionPeriodMs: 1.5 * DAY + 0.5 }, /^workflowExecutionRetentionPeriodMs must be a whole number of milliseconds/],
      [{ namespace: 'ok', ownerEmail: 'nobody' }, /^ownerEmail must be an email address such as ops@example.com, got "nobody"$/],
      [{ namespace: 'ok', description: 'x'.repeat(1001) }, /^description must be at most 1000 characters/],
    ];
    for (const [req, message] of cases) {
      await assert.rejects(h.engine.registerNamespace(req as never), (e) => e instanceof ValidationError && message.test(e.message));
    }
    await assert.rejects(h.engine.updateNamespace({ namespace: 'default', workflowExecutionRetentionPeriodMs: 0 }), /at least 1 day, got 0/);
  } finally {
    await h.close();
  }
});

/** A store that counts getNamespace reads. */
function counting(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'getNamespace') return (name: string) => (reads++, target.getNamespace(name));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { store: proxy, reads: () => reads };
}

test('a namespace another engine registered is found on its first use, and known names cost no store read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-ns-'));
  const shared = SqliteStore.open(join(dir, 'ns.db'));
  const clock = new ManualClock(T0);
  const a = await Engine.create({ store: shared, clock });
  const { store, reads } = counting(shared);
  const b = await Engine.create({ store, clock });
  try {
    await a.registerNamespace({ namespace: 'late' });
    await b.startWorkflowExecution({ namespace: 'late', workflowId: 'w0', workflowType: 't', taskQueue: 'q' });
    assert.equal(reads(), 1, 'the first use read the store once');
    await Promise.all(Array.from({ length: 50 }, (_, i) => b.startWorkflowExecution({ namespace: 'late', workflowId: `w${i + 1}`, workflowType: 't', taskQueue: 'q' })));
    await b.listWorkflowExecutions({ namespace: 'late' });
    await b.listWorkflowExecutions({});
    assert.equal(reads(), 1, 'later calls read no namespace from the store');
    await Promise.all([1, 2, 3].map(() => assert.rejects(b.listWorkflowExecutions({ namespace: 'nowhere' }), NamespaceNotFoundError)));
    assert.equal(reads(), 2, 'concurrent misses of one name share one read');
  } finally {
    await b.shutdown();
    await a.shutdown();
    await shared.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
