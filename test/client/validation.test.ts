import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../src/client/index.ts';
import { toStartRequest } from '../../src/client/start-options.ts';
import { checkPayload, encodePayload } from '../../src/common/payload.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { Replayer, TestEnvironment } from '../../src/testing/index.ts';
import { Engine } from '../../src/engine/index.ts';
import { startHttpServer } from '../../src/server/index.ts';
import { MAX_DURATION_MS } from '../../src/common/max-duration.ts';
import { MAX_TIMEOUT_MS } from '../../src/engine/core/requests.ts';
import { MAX_QUERY_TIMEOUT_MS } from '../../src/engine/messages/queries.ts';
import { MAX_QUERY_TIMEOUT_MS as CLIENT_MAX_QUERY_TIMEOUT_MS } from '../../src/client/messages.ts';

/** Nothing listens on port 1: every call below must be refused before it is sent. */
const client = new Client({ address: 'http://127.0.0.1:1' });
const handle = client.workflow.getHandle('wf-1');

function circular(): object {
  const customer: Record<string, unknown> = { id: 'c-1' };
  customer.self = customer;
  return { customer };
}

/** Each kind of value JSON cannot carry, with the error it must give as args[1] of a start. */
const BAD_ARGS: [string, unknown, RegExp][] = [
  ['BigInt', 10n, /^args\[1\] is a BigInt, which JSON cannot carry; convert it to a string or a number$/],
  ['circular object', circular(), /^args\[1\]\.customer\.self is a circular reference to args\[1\]\.customer, which JSON cannot carry$/],
  ['function', function total() {}, /^args\[1\] is a function \(total\), which JSON cannot carry$/],
  ['symbol', Symbol('s'), /^args\[1\] is a Symbol, which JSON cannot carry$/],
  ['undefined', undefined, /^args\[1\] is undefined, which JSON cannot carry; use null$/],
  ['NaN', NaN, /^args\[1\] is NaN, which JSON cannot carry$/],
  ['Infinity', -Infinity, /^args\[1\] is -Infinity, which JSON cannot carry$/],
  ['Map', new Map([['a', 1]]), /^args\[1\] is a Map, which JSON cannot carry$/],
  ['Set', new Set([1]), /^args\[1\] is a Set, which JSON cannot carry$/],
  ['Uint8Array', new Uint8Array([1]), /^args\[1\] is a Uint8Array, which JSON cannot carry; convert it/],
  ['invalid Date', new Date(NaN), /^args\[1\] is an invalid Date, which JSON cannot carry$/],
  ['nested BigInt', { customer: { birthday: { year: 1990n } } }, /^args\[1\]\.customer\.birthday\.year is a BigInt/],
  ['nested undefined in an array', { items: ['a', undefined] }, /^args\[1\]\.items\[1\] is undefined/],
  ['odd key', { 'first name': 1n }, /^args\[1\]\["first name"\] is a BigInt/],
];

for (const [name, value, message] of BAD_ARGS) {
  test(`workflow.start refuses a ${name} in args, naming its path`, async () => {
    await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', args: ['ok', value] }),
      (err: unknown) => err instanceof ValidationError && message.test(err.message));
  });
}

test('every other payload the client sends is checked the same way, under its own name', async () => {
  const big = 1n;
  await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', memo: { total: big } }), /^ValidationError: memo\.total is a BigInt/);
  await assert.rejects(client.workflow.signalWithStart('wf', { taskQueue: 'q', signal: 's', signalArgs: [circular()] }),
    /signalArgs\[0\]\.customer\.self is a circular reference/);
  await assert.rejects(handle.signal('s', 'ok', big), /^ValidationError: args\[1\] is a BigInt/);
  await assert.rejects(handle.query('q', () => 1), /^ValidationError: args\[0\] is a function/);
  await assert.rejects(handle.executeUpdate('u', { args: [undefined] }), /^ValidationError: args\[0\] is undefined/);
  await assert.rejects(handle.startUpdate('u', { args: [Symbol('x')] }), /^ValidationError: args\[0\] is a Symbol/);
  await assert.rejects(handle.terminate('r', { at: big }), /^ValidationError: details\.at is a BigInt/);
});

fixtureTest('a Date becomes its ISO string, and an undefined property is left out, as JSON (and Temporal) do', async (f) => {
  const birthday = new Date('1990-05-01T00:00:00.000Z');
  assert.doesNotThrow(() => checkPayload('args', [{ birthday, nickname: undefined }]));
  assert.equal(encodePayload('args', [{ birthday, nickname: undefined }]), '[{"birthday":"1990-05-01T00:00:00.000Z"}]');
  assert.equal(encodePayload('result', undefined), 'null');
  // Shared (not circular) references are fine: JSON repeats them.
  const shared = { id: 1 };
  assert.equal(encodePayload('args', [shared, shared]), '[{"id":1},{"id":1}]');

  const h = await f.engine();
  const local = new Client({ connection: h.engine });
  const started = await local.workflow.start('wf', { taskQueue: 'q', workflowId: 'dates', args: [{ birthday, nickname: undefined }] });
  const { events } = await started.fetchHistory();
  assert.deepEqual((events[0]!.attributes as { args?: unknown }).args, [{ birthday: '1990-05-01T00:00:00.000Z' }]);
});

fixtureTest('the engine names a bad payload too, for callers in the same process', async (f) => {
  const h = await f.engine();
  await assert.rejects(h.engine.startWorkflowExecution({ workflowId: 'w', workflowType: 't', taskQueue: 'q', args: [1n] } as never),
    /^ValidationError: args\[0\] is a BigInt/);
});

test('unknown option keys are refused everywhere, listing the valid ones', async () => {
  await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', taskQeue: 'x' } as never),
    /^ValidationError: taskQeue is not a workflow start option \(known: taskQueue, workflowId, args, retry, /);
  await assert.rejects(client.workflow.signalWithStart('wf', { taskQueue: 'q', signal: 's', signalArg: [] } as never),
    /signalArg is not a signalWithStart option \(known: .*signal, signalArgs\)/);
  assert.throws(() => new Client({ address: 'http://127.0.0.1:1', namespce: 'x' } as never),
    /namespce is not a client option \(known: address, connection, namespace, identity/);
  assert.throws(() => client.workflow.listPage({ satus: 'Running' } as never), /satus is not a list option \(known: workflowType, status, /);
  await assert.rejects(handle.queryWithOptions('q', { timout: '1s' } as never), /timout is not a query option \(known: timeout, queryRejectCondition\)/);
  await assert.rejects(handle.executeUpdate('u', { arg: [] } as never), /arg is not an? update option \(known: args, updateId\)/);
  await assert.rejects(handle.reset({ eventId: 3, reaplySignals: true } as never), /reaplySignals is not a reset option \(known: eventId, type, reason, reapplySignals, resetReapplyExcludeTypes\)/);
});

fixtureTest('a bad cronSchedule is refused at start with its column, on the client and at the server (400)', async (f) => {
  const bad = /^CronSyntaxError: cronSchedule "0 25 \* \* \*" is not a valid cron spec: at column 3 expected an hour 0-23, got "25"$/;
  await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', cronSchedule: '0 25 * * *' }), bad);
  await assert.rejects(client.workflow.signalWithStart('wf', { taskQueue: 'q', signal: 's', cronSchedule: '0 25 * * *' }), bad);
  await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', cronSchedule: '@every 90' }),
    /^CronSyntaxError: cronSchedule "@every 90" is not a valid cron spec: at column 8 expected a duration in Go's grammar such as 90s/);
  const env = await TestEnvironment.createLocal();
  f.defer('test environment', () => env.teardown());
  const res = await fetch(`${env.address}/api/v1/startWorkflowExecution`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflowId: 'cron-bad', workflowType: 'wf', taskQueue: 'q', cronSchedule: 'CRON_TZ=Mars/Olympus 0 8 * * *' }),
  });
  assert.equal(res.status, 400);
  const body = await res.json() as { error: { message: string } };
  assert.match(body.error.message, /^cronSchedule /);
  assert.match(body.error.message, /Mars\/Olympus/);
  const res2 = await fetch(`${env.address}/api/v1/startWorkflowExecution`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflowId: 'cron-bad', workflowType: 'wf', taskQueue: 'q', cronSchedule: '0 0 13 * 8' }),
  });
  assert.equal(res2.status, 400);
  assert.equal((await res2.json() as { error: { message: string } }).error.message,
    'cronSchedule "0 0 13 * 8" is not a valid cron spec: at column 10 expected a day of the week 0-6 or a name (Sun-Sat), got "8"');
});

test('a fractional duration in ms is accepted, as in Temporal\'s SDK, and rounded up to whole ms under the user\'s option name', () => {
  const req = toStartRequest('wf', { taskQueue: 'q', workflowExecutionTimeout: 1.5, workflowRunTimeout: '1.0004s', workflowTaskTimeout: 0.2 }, 'default', 'me');
  assert.equal(req.workflowExecutionTimeoutMs, 2);
  assert.equal(req.workflowRunTimeoutMs, 1001);
  assert.equal(req.workflowTaskTimeoutMs, 1);
  assert.throws(() => toStartRequest('wf', { taskQueue: 'q', workflowExecutionTimeout: -1.5 }, 'default', 'me'),
    /^ValidationError: workflowExecutionTimeout must be a finite number of milliseconds >= 0, got -1.5$/);
  assert.throws(() => toStartRequest('wf', { taskQueue: 'q', workflowRunTimeout: 0 }, 'default', 'me'),
    /^ValidationError: workflowRunTimeout must be greater than 0, got 0$/);
});

fixtureTest('a fractional workflowExecutionTimeout reaches the server as whole ms and is accepted there', async (f) => {
  const h = await f.engine();
  const local = new Client({ connection: h.engine });
  const started = await local.workflow.start('wf', { taskQueue: 'q', workflowId: 'frac', workflowExecutionTimeout: 1.5 });
  const { events } = await started.fetchHistory();
  assert.equal((events[0]!.attributes as { workflowExecutionTimeoutMs?: number }).workflowExecutionTimeoutMs, 2);
});

test('bounds the server enforces on durations are checked in the client, under the user\'s option names', async () => {
  assert.equal(MAX_DURATION_MS, MAX_TIMEOUT_MS);
  assert.equal(CLIENT_MAX_QUERY_TIMEOUT_MS, MAX_QUERY_TIMEOUT_MS);
  assert.throws(() => toStartRequest('wf', { taskQueue: 'q', workflowExecutionTimeout: '40000d' }, 'default', 'me'),
    /^ValidationError: workflowExecutionTimeout must be at most 100 years \(3153600000000 ms\), got "40000d"$/);
  await assert.rejects(handle.queryWithOptions('q', { timeout: '1h' }), /^ValidationError: timeout must be at most 10 minutes, got "1h"$/);
});

test('the testing entry points refuse unknown option keys too', async () => {
  await assert.rejects(TestEnvironment.createTimeSkipping({ databse: 'sqlite:x' } as never),
    /^ValidationError: databse is not a TestEnvironment option \(known: database, namespace, limits\)/);
  await assert.rejects(Replayer.replayHistory({ events: [] }, { workflowsPath: 'w.ts', runID: 'r' } as never),
    /^ValidationError: runID is not a replay option \(known: workflowsPath, workflowId, runId, namespace, dataConverter, interceptors\)/);
});

fixtureTest('the server entry points refuse unknown option keys too, and a missing service by name', async (f) => {
  const h = await f.engine();
  await assert.rejects(Engine.create({ store: h.store, clok: 1 } as never),
    /^ValidationError: clok is not an Engine option \(known: store, clock, waitClock, identity, logger, ownsStore, limits, messageLimits, taskTokenKeys, retentionSweepIntervalMs\)/);
  await assert.rejects(startHttpServer({ service: h.engine, prot: 7233 } as never),
    /^ValidationError: prot is not a startHttpServer option \(known: service, port, host, maxBodyBytes, fallback, logger, metrics, auth, tls, limits, allowedHosts\)/);
  await assert.rejects(startHttpServer({ port: 7233 } as never), /^ValidationError: service is required/);
});
