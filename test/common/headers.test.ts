import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultPayloadConverter, headersFromWire, headersToWire, type Headers } from '../../src/index.ts';
import { composeInterceptors } from '../../src/index.ts';

test('headers travel as base64 payloads and come back byte for byte (UTF-8 beyond ASCII, every padding length)', () => {
  const values = ['', 'a', 'ab', 'abc', 'héllo wörld', '日本語', '🙂 emoji', { nested: [1, 'zwei', null] }];
  for (const v of values) {
    const headers: Headers = { h: defaultPayloadConverter.toPayload(v) };
    const wire = headersToWire(headers)!;
    // The wire form is what Node's own base64 and UTF-8 make of the same bytes.
    assert.equal(Buffer.from(wire.h!.data, 'base64').toString('utf8'), JSON.stringify(v));
    assert.equal(Buffer.from(wire.h!.metadata.encoding!, 'base64').toString('utf8'), 'json/plain');
    const back = headersFromWire(JSON.parse(JSON.stringify(wire)));
    assert.deepEqual(defaultPayloadConverter.fromPayload(back.h!), v);
    assert.deepEqual([...back.h!.data], [...Buffer.from(JSON.stringify(v), 'utf8')]);
  }
});

test('empty headers send nothing; entries that are not payloads are refused naming the entry; old plain entries are left out on read', () => {
  assert.equal(headersToWire({}), undefined);
  assert.equal(headersToWire(undefined), undefined);
  assert.throws(() => headersToWire({ bad: 'text' as never }), /headers\.bad must be a Payload/);
  assert.throws(() => headersToWire({ bad: { metadata: { encoding: 'x' as never }, data: new Uint8Array() } }), /headers\.bad\.metadata\.encoding must be a Uint8Array/);
  assert.deepEqual(headersFromWire({ traceparent: '00-abc' }), {});
  assert.throws(() => defaultPayloadConverter.fromPayload({ metadata: {}, data: new Uint8Array() }), /payload\.metadata\.encoding must be "json\/plain"/);
});

test('composeInterceptors runs the first interceptor first and skips those without the method', async () => {
  interface I { call?: (input: string[], next: (input: string[]) => Promise<string[]>) => Promise<string[]> }
  const order: string[] = [];
  const list: I[] = [
    { call: (input, next) => (order.push('a'), next([...input, 'a'])) },
    {},
    { call: (input, next) => (order.push('b'), next([...input, 'b'])) },
  ];
  const out = await composeInterceptors(list, 'call', async (input) => [...input, 'end'])([]);
  assert.deepEqual(out, ['a', 'b', 'end']);
  assert.deepEqual(order, ['a', 'b']);
});

test('the service refuses a request whose header is not payloads, naming the field', async () => {
  const { Engine } = await import('../../src/engine/index.ts');
  const { SqliteStore } = await import('../../src/store/index.ts');
  const engine = await Engine.create({ store: SqliteStore.open(':memory:') });
  try {
    await assert.rejects(engine.startWorkflowExecution({ workflowId: 'w', workflowType: 't', taskQueue: 'q', header: { traceparent: 'plain' as never } }),
      /header\.traceparent must be a payload \{ metadata, data \} of base64 strings/);
    await assert.rejects(engine.signalWorkflowExecution({ workflowId: 'w', signalName: 's', header: { x: { metadata: {}, data: '%%' } } }),
      /header\.x\.data must be a base64 string/);
  } finally {
    await engine.shutdown();
  }
});

test("an activity interceptor factory's outbound getLogAttributes shapes the attempt's log attributes", async () => {
  const { executeActivity, activityLogAttributes } = await import('../../src/worker/interceptors.ts');
  const { ActivityContext } = await import('../../src/activity/context.ts');
  const ctx = new ActivityContext({} as never, new AbortController().signal, () => undefined);
  const result = await executeActivity([() => ({ outbound: { getLogAttributes: (input, next) => next({ ...input, tenant: 'acme' }) } })],
    ctx, undefined, [2], (n) => (n as number) * 21);
  assert.equal(result, 42);
  assert.deepEqual(activityLogAttributes(ctx, { activityId: '1' }), { activityId: '1', tenant: 'acme' });
});
