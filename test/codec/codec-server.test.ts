import assert from 'node:assert/strict';
import { CodecChain, RemotePayloadCodec, toJsonPayload, valueToPayload } from '../../src/codec/index.ts';
import { Authenticator, createCodecServer } from '../../src/server/index.ts';
import { fixtureTest } from '../helpers/fixture.ts';
import { KEYS, testApiKeys } from '../server/auth-helpers.ts';
import { codecK1, SECRET } from './helpers.ts';

async function call(address: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${address}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() as any };
}

fixtureTest('the codec endpoint decodes only for a caller with the reader role on the X-Namespace namespace, and names the role it needs', async (f) => {
  const server = await createCodecServer({ codecs: [codecK1()], port: 0, auth: Authenticator.create({ apiKeys: testApiKeys() }) });
  f.defer('codec server', () => server.close());
  const [encrypted] = await new CodecChain([codecK1()]).encodePayloads([valueToPayload({ card: SECRET })]);
  const body = { payloads: [toJsonPayload(encrypted!)] };

  const anonymous = await call(server.address, '/codec/decode', body);
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.json.error.code, 'Unauthenticated');
  assert.ok(!JSON.stringify(anonymous.json).includes(SECRET));

  const bad = await call(server.address, '/codec/decode', body, { authorization: 'Bearer sfk_not-a-key-000000000000000000000000000' });
  assert.equal(bad.status, 401);

  const otherNamespace = await call(server.address, '/codec/decode', body, { authorization: `Bearer ${KEYS.otherWriter}` });
  assert.equal(otherNamespace.status, 403);
  assert.equal(otherNamespace.json.error.message, '/codec/decode needs the reader role on namespace "default" (the X-Namespace header)');

  const reader = await call(server.address, '/codec/decode', body, { authorization: `Bearer ${KEYS.reader}`, 'x-namespace': 'default' });
  assert.equal(reader.status, 200);
  const [plain] = reader.json.payloads;
  assert.equal(Buffer.from(plain.metadata.encoding, 'base64').toString(), 'json/plain');
  assert.deepEqual(JSON.parse(Buffer.from(plain.data, 'base64').toString()), { card: SECRET });

  const otherOk = await call(server.address, '/codec/decode', body, { authorization: `Bearer ${KEYS.otherWriter}`, 'x-namespace': 'other' });
  assert.equal(otherOk.status, 200, 'a writer also reads, on its own namespace');

  const encodeAsReader = await call(server.address, '/codec/encode', body, { authorization: `Bearer ${KEYS.reader}` });
  assert.equal(encodeAsReader.status, 403);
  assert.match(encodeAsReader.json.error.message, /needs the writer role on namespace "default"/);

  const notPayloads = await call(server.address, '/codec/decode', { nope: 1 }, { authorization: `Bearer ${KEYS.reader}` });
  assert.equal(notPayloads.status, 400);
  assert.match(notPayloads.json.error.message, /payloads must be an array/);
});

fixtureTest('RemotePayloadCodec round-trips through the codec server, and an unknown key id comes back as a 400 naming it', async (f) => {
  const server = await createCodecServer({ codecs: [codecK1()], port: 0, auth: Authenticator.create({ apiKeys: testApiKeys() }) });
  f.defer('codec server', () => server.close());
  const remote = new CodecChain([new RemotePayloadCodec({ endpoint: server.address, apiKey: KEYS.writer })]);
  const [env] = await remote.encodeValues([SECRET]);
  assert.ok(!JSON.stringify(env).includes(SECRET));
  assert.deepEqual(await new CodecChain([codecK1()]).decodeValues([env]), [SECRET], 'the codec server encrypted with k1');
  assert.deepEqual(await remote.decodeValues([env, 'plain']), [SECRET, 'plain']);
  const { AesGcmCodec } = await import('../../src/codec/index.ts');
  const [foreign] = await new CodecChain([new AesGcmCodec({ keys: { k9: Buffer.alloc(32, 9) }, currentKeyId: 'k9' })]).encodeValues([1]);
  await assert.rejects(remote.decodeValues([foreign]), /answered 400: a payload is encrypted with key id "k9", which this AesGcmCodec does not hold/);
  const unauthorized = new CodecChain([new RemotePayloadCodec({ endpoint: server.address })]);
  await assert.rejects(unauthorized.decodeValues([env]), /answered 401/);
});
