import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AesGcmCodec, CodecChain, CompressionCodec, PayloadDecryptionError, UnknownEncryptionKeyError, codecChainOf, metaText, valueToPayload,
} from '../../src/codec/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { KEY_1, KEY_2, SECRET } from './helpers.ts';

const envelopeKeyId = (e: { $payload: { metadata: Record<string, string> } }) =>
  Buffer.from(e.$payload.metadata['encryption-key-id']!, 'base64').toString();

test('key rotation: the new key encrypts, the old key still decrypts, a codec without the old key names the key id it lacks', async () => {
  const before = new CodecChain([new AesGcmCodec({ keys: { k1: KEY_1 }, currentKeyId: 'k1' })]);
  const rotated = new CodecChain([new AesGcmCodec({ keys: { k1: KEY_1, k2: KEY_2 }, currentKeyId: 'k2' })]);
  const onlyNew = new CodecChain([new AesGcmCodec({ keys: { k2: KEY_2 }, currentKeyId: 'k2' })]);
  const [old] = await before.encodeValues([{ card: SECRET }]);
  assert.equal(envelopeKeyId(old!), 'k1');
  assert.deepEqual(await rotated.decodeValues([old]), [{ card: SECRET }]);
  const [fresh] = await rotated.encodeValues([{ card: SECRET }]);
  assert.equal(envelopeKeyId(fresh!), 'k2');
  assert.deepEqual(await onlyNew.decodeValues([fresh]), [{ card: SECRET }]);
  await assert.rejects(onlyNew.decodeValues([old]), (err: unknown) => {
    assert.ok(err instanceof UnknownEncryptionKeyError);
    assert.equal(err.keyId, 'k1');
    assert.match(err.message, /key id "k1", which this AesGcmCodec does not hold \(known key ids: k2\)/);
    return true;
  });
});

test('AES-GCM: a fresh IV per payload, the same value never encrypts alike, and altered ciphertext is refused', async () => {
  const chain = new CodecChain([new AesGcmCodec({ keys: { k1: KEY_1 }, currentKeyId: 'k1' })]);
  const [a, b] = await chain.encodeValues([SECRET, SECRET]);
  assert.notEqual(a!.$payload.data, b!.$payload.data);
  assert.ok(!Buffer.from(a!.$payload.data, 'base64').toString('latin1').includes(SECRET));
  const bytes = Buffer.from(a!.$payload.data, 'base64');
  bytes[20]! ^= 1;
  const altered = { $payload: { ...a!.$payload, data: bytes.toString('base64') } };
  await assert.rejects(chain.decodeValues([altered]), PayloadDecryptionError);
  const otherKey = new CodecChain([new AesGcmCodec({ keys: { k1: KEY_2 }, currentKeyId: 'k1' })]);
  await assert.rejects(otherKey.decodeValues([a]), /authentication tag does not match/);
});

test('compression: payloads from the threshold on are compressed and marked, smaller ones pass as they are; both round-trip', async () => {
  for (const algorithm of ['gzip', 'brotli'] as const) {
    const codec = new CompressionCodec({ algorithm, threshold: 100 });
    const big = 'x'.repeat(10_000);
    const [packed, small] = await codec.encode([valueToPayload(big), valueToPayload('tiny')]);
    assert.equal(metaText(packed!, 'encoding'), 'binary/compressed');
    assert.equal(metaText(packed!, 'compression'), algorithm);
    assert.ok(packed!.data.byteLength < 500, `${algorithm}: ${packed!.data.byteLength} bytes`);
    assert.equal(metaText(small!, 'encoding'), 'json/plain');
    const chain = new CodecChain([codec]);
    const values = [big, 'tiny', { nested: [1, big] }];
    assert.deepEqual(await chain.decodeValues(await chain.encodeValues(values)), values);
  }
});

test('compression then encryption, in array order; decoded in reverse', async () => {
  const chain = new CodecChain([new CompressionCodec({ threshold: 0 }), new AesGcmCodec({ keys: { k1: KEY_1 }, currentKeyId: 'k1' })]);
  const value = { text: SECRET.repeat(200) };
  const [env] = await chain.encodeValues([value]);
  assert.ok(Buffer.from(env!.$payload.data, 'base64').byteLength < 600, 'compressed before it was encrypted');
  assert.deepEqual(await chain.decodeValues([env, 'plain', null]), [value, 'plain', null]);
});

test('codec options are validated with named errors', () => {
  assert.throws(() => new AesGcmCodec({ keys: { k1: Buffer.alloc(16) }, currentKeyId: 'k1' }),
    (err: unknown) => err instanceof ValidationError && err.message === 'keys.k1 must be 32 bytes (AES-256), got 16 bytes');
  assert.throws(() => new AesGcmCodec({ keys: { k1: 'not bytes' as never }, currentKeyId: 'k1' }), /keys\.k1 must be a Uint8Array/);
  assert.throws(() => new AesGcmCodec({ keys: {}, currentKeyId: 'k1' }), /keys must be an object of at least one key id/);
  assert.throws(() => new AesGcmCodec({ keys: { k1: KEY_1 }, currentKeyId: 'k9' }), /currentKeyId must be one of the key ids of keys \(k1\), got "k9"/);
  assert.throws(() => new CompressionCodec({ algorithm: 'zip' as never }), /algorithm must be one of gzip, brotli, got "zip"/);
  assert.throws(() => new CompressionCodec({ threshold: -1 }), /threshold must be an integer >= 0 \(bytes\), got -1/);
  assert.throws(() => codecChainOf({ payloadCodecs: [{}] as never }), /dataConverter\.payloadCodecs\[0\] must be a PayloadCodec/);
  assert.throws(() => codecChainOf({ payloadCodec: [] } as never), /dataConverter\.payloadCodec is not an option/);
  assert.equal(codecChainOf({ payloadCodecs: [] }), undefined, 'no codecs: the plain path');
});

test('a codec that answers the wrong number of payloads is refused by name', async () => {
  const chain = new CodecChain([{ encode: async () => [], decode: async (p) => p }]);
  await assert.rejects(chain.encodeValues([1]), /must resolve to an array of as many payloads as it was given \(1\), got 0/);
});
