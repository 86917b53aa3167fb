import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { AesGcmCodec, CompressionCodec } from '../../src/codec/index.ts';
import { Client, type WorkflowHandle } from '../../src/client/index.ts';
import { Worker } from '../../src/worker/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { silentLogger } from '../helpers/logger.ts';
import { CODEC_WORKFLOWS, codecK1, keeperActivities, KEY_1, KEY_2, SECRET } from './helpers.ts';
import { Replayer } from '../../src/testing/index.ts';

/** The last failure of the run's workflow task, once one was reported (bounded wait of real time). */
async function lastTaskFailure(handle: WorkflowHandle) {
  for (let i = 0; i < 200; i++) {
    const d = await handle.describe();
    if (d.pendingWorkflowTask?.lastFailure) return { status: d.status, failure: d.pendingWorkflowTask.lastFailure };
    await delay(25);
  }
  throw new Error('no workflow task failure was reported');
}

for (const [what, dataConverter, type, message] of [
  ['no payloadCodecs', undefined, 'PayloadNotDecodedError',
    /a payload is encoded \(encoding binary\/encrypted, key id "k1"\) and this worker has no dataConverter\.payloadCodecs to decode it/],
  ['an AesGcmCodec without the key', { payloadCodecs: [new AesGcmCodec({ keys: { k2: KEY_2 }, currentKeyId: 'k2' })] }, 'UnknownEncryptionKeyError',
    /key id "k1", which this AesGcmCodec does not hold \(known key ids: k2\)/],
] as const) {
  fixtureTest(`a worker with ${what} fails the workflow task with ${type}; the run stays open and completes once a worker has the key`, async (f) => {
    const env = await f.env();
    const client = new Client({ connection: env.connection, dataConverter: { payloadCodecs: [codecK1()] } });
    const handle = await client.workflow.start('echo', { workflowId: `no-key-${type}`, taskQueue: 'no-key', args: [SECRET] });
    const without = await Worker.create({ connection: env.connection, taskQueue: 'no-key', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger,
      ...(dataConverter ? { dataConverter } : {}) });
    const running = without.run();
    const { status, failure } = await lastTaskFailure(handle);
    assert.equal(status, 'Running');
    assert.equal(failure.type, type);
    assert.match(failure.message, message);
    await without.shutdown();
    await running;
    await f.worker({ connection: env.connection, taskQueue: 'no-key', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger,
      dataConverter: { payloadCodecs: [codecK1()] } });
    // The task's retries back off (1 s, 2 s, …): moving time makes the next attempt due.
    await env.sleep('10m');
    assert.equal(await handle.result(), SECRET);
  });
}

fixtureTest('an activity worker without codecs fails the attempt naming the encoding, instead of running on an envelope', async (f) => {
  const env = await f.env();
  const dataConverter = { payloadCodecs: [codecK1()] };
  const client = new Client({ connection: env.connection, dataConverter });
  await f.worker({ connection: env.connection, taskQueue: 'act', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger, dataConverter });
  const seen: unknown[] = [];
  await f.worker({ connection: env.connection, taskQueue: 'act', logger: silentLogger, activities: {
    async remember(s: unknown) { seen.push(s); return 'ran'; },
    async refuse() { /* unused */ },
  } });
  const handle = await client.workflow.start('keeper', { workflowId: 'act-no-codec', taskQueue: 'act', args: [SECRET] });
  await assert.rejects(handle.result(), (err: Error & { cause?: Error & { cause?: Error } }) => {
    assert.match(err.cause?.cause?.message ?? '', /encoding binary\/encrypted, key id "k1"\) and this worker has no dataConverter\.payloadCodecs/);
    return true;
  });
  assert.deepEqual(seen, []);
});

fixtureTest('key rotation end to end: a run started under k1 is finished by workers that encrypt with k2, and the client reads both', async (f) => {
  const env = await f.env();
  const old = new Client({ connection: env.connection, dataConverter: { payloadCodecs: [codecK1()] } });
  const rotated = { payloadCodecs: [new AesGcmCodec({ keys: { k1: KEY_1, k2: KEY_2 }, currentKeyId: 'k2' })] };
  await old.workflow.start('echo', { workflowId: 'rotate', taskQueue: 'rotate', args: [SECRET] });
  await f.worker({ connection: env.connection, taskQueue: 'rotate', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger, dataConverter: rotated });
  const client = new Client({ connection: env.connection, dataConverter: rotated });
  assert.equal(await client.workflow.getHandle('rotate').result(), SECRET);
  const raw = await new Client({ connection: env.connection }).workflow.getHandle('rotate').fetchHistory();
  const keyIds = raw.events.flatMap((e) => {
    const a = e.attributes as { args?: unknown[]; result?: unknown };
    return [...(a.args ?? []), ...('result' in a ? [a.result] : [])]
      .map((v) => Buffer.from((v as { $payload: { metadata: Record<string, string> } }).$payload.metadata['encryption-key-id']!, 'base64').toString());
  });
  assert.deepEqual(keyIds, ['k1', 'k2'], 'args under the old key, the result under the new');
  await assert.rejects(old.workflow.getHandle('rotate').result(), /key id "k2", which this AesGcmCodec does not hold/);
});

fixtureTest('compression round trip through a worker: a large result is stored compressed and returned whole', async (f) => {
  const env = await f.env();
  const dataConverter = { payloadCodecs: [new CompressionCodec({ algorithm: 'brotli', threshold: 1024 })] };
  const client = new Client({ connection: env.connection, dataConverter });
  await f.worker({ connection: env.connection, taskQueue: 'zip', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger, dataConverter });
  const big = { rows: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: 'same name each time' })) };
  assert.deepEqual(await client.workflow.execute('echo', { workflowId: 'zip', taskQueue: 'zip', args: [big] }), big);
  const raw = await new Client({ connection: env.connection }).workflow.getHandle('zip').fetchHistory();
  const done = raw.events.at(-1)!;
  assert.ok(done.eventType === 'WorkflowExecutionCompleted');
  const stored = JSON.stringify(done.attributes.result);
  assert.ok(stored.length < JSON.stringify(big).length / 10, `stored ${stored.length} bytes for ${JSON.stringify(big).length}`);
  assert.match(stored, /"compression":"YnJvdGxp"/, 'metadata marks brotli');
});

fixtureTest('Replayer replays a history recorded with codecs when given the same dataConverter, and names the key id a wrong key lacks', async (f) => {
  const env = await f.env();
  const dataConverter = { payloadCodecs: [codecK1()] };
  const client = new Client({ connection: env.connection, dataConverter });
  await f.worker({ connection: env.connection, taskQueue: 'replay', workflowsPath: CODEC_WORKFLOWS, logger: silentLogger, dataConverter,
    activities: keeperActivities });
  await client.workflow.execute('echo', { workflowId: 'replay-codec', taskQueue: 'replay', args: [SECRET] });
  const recorded = await new Client({ connection: env.connection }).workflow.getHandle('replay-codec').fetchHistory();
  await Replayer.replayHistory(recorded, { workflowsPath: CODEC_WORKFLOWS, dataConverter });
  await assert.rejects(Replayer.replayHistory(recorded, { workflowsPath: CODEC_WORKFLOWS, dataConverter: { payloadCodecs: [
    new AesGcmCodec({ keys: { k2: KEY_2 }, currentKeyId: 'k2' })] } }), /key id "k1", which this AesGcmCodec does not hold/);
});
