/**
 * Payload codecs (`steadfast/codec`): the `PayloadCodec` interface of Temporal, the shipped
 * AES-256-GCM and compression codecs, and the chain clients, workers and the codec server apply.
 */
export * from './payload-codec.ts';
export { AesGcmCodec, UnknownEncryptionKeyError, PayloadDecryptionError, ENCRYPTED_ENCODING, KEY_ID_KEY, CIPHER_KEY, type AesGcmCodecOptions } from './aes-gcm-codec.ts';
export { CompressionCodec, COMPRESSED_ENCODING, COMPRESSION_KEY, COMPRESSION_ALGORITHMS, type CompressionCodecOptions } from './compression-codec.ts';
export { CodecChain, codecChainOf } from './codec-chain.ts';
export { withPayloadCodecs } from './codec-service.ts';
export { walkEvents, walkCommands } from './payload-walk.ts';
export { RemotePayloadCodec, type RemotePayloadCodecOptions } from './remote-codec.ts';
