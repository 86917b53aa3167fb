import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, gunzip, gzip } from 'node:zlib';
import { ValidationError } from '../errors/index.ts';
import {
  deserializePayload, ENCODING_KEY, metaBytes, metaText, PayloadCodecError, serializePayload, type Payload, type PayloadCodec,
} from './payload-codec.ts';

/** The encoding of a payload {@link CompressionCodec} compressed. */
export const COMPRESSED_ENCODING = 'binary/compressed';
/** Metadata key naming the compression algorithm. */
export const COMPRESSION_KEY = 'compression';

/** Algorithms of {@link CompressionCodec}. */
export const COMPRESSION_ALGORITHMS = ['gzip', 'brotli'] as const;

const ZIP = {
  gzip: { compress: promisify(gzip), decompress: promisify(gunzip) },
  brotli: { compress: promisify(brotliCompress), decompress: promisify(brotliDecompress) },
};

/** Options of {@link CompressionCodec}. */
export interface CompressionCodecOptions {
  /** @default "gzip" */
  algorithm?: (typeof COMPRESSION_ALGORITHMS)[number];
  /** Payloads of fewer bytes (their data) are sent as they are. @default 1024 */
  threshold?: number;
}

/**
 * Compresses payloads whose data is at least `threshold` bytes (node:zlib), marking them with
 * `encoding: binary/compressed` and the algorithm; smaller ones, and any that compression would
 * not make smaller, pass unchanged. Put it before an encryption codec: ciphertext does not compress.
 * @example payloadCodecs: [new CompressionCodec({ threshold: 4096 }), new AesGcmCodec({ … })]
 */
export class CompressionCodec implements PayloadCodec {
  readonly algorithm: (typeof COMPRESSION_ALGORITHMS)[number];
  readonly threshold: number;

  constructor(options: CompressionCodecOptions = {}) {
    if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be { algorithm?, threshold? }', options);
    const algorithm = options.algorithm ?? 'gzip';
    if (!(COMPRESSION_ALGORITHMS as readonly string[]).includes(algorithm)) {
      throw new ValidationError('algorithm', `must be one of ${COMPRESSION_ALGORITHMS.join(', ')}`, algorithm);
    }
    const threshold = options.threshold ?? 1024;
    if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 0) {
      throw new ValidationError('threshold', 'must be an integer >= 0 (bytes)', threshold);
    }
    this.algorithm = algorithm;
    this.threshold = threshold;
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(payloads.map(async (p) => {
      if (p.data.byteLength < this.threshold) return p;
      const plain = serializePayload(p);
      const packed = await ZIP[this.algorithm].compress(plain);
      if (packed.byteLength >= plain.byteLength) return p;
      return {
        metadata: { [ENCODING_KEY]: metaBytes(COMPRESSED_ENCODING), [COMPRESSION_KEY]: metaBytes(this.algorithm) },
        data: new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength),
      };
    }));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(payloads.map(async (p) => {
      if (metaText(p, ENCODING_KEY) !== COMPRESSED_ENCODING) return p;
      const algorithm = metaText(p, COMPRESSION_KEY) ?? '(none)';
      const zip = (ZIP as Record<string, (typeof ZIP)['gzip'] | undefined>)[algorithm];
      if (!zip) throw new PayloadCodecError(`a payload is compressed with ${algorithm}, which CompressionCodec does not know (known: ${COMPRESSION_ALGORITHMS.join(', ')})`);
      let plain: Buffer;
      try {
        plain = await zip.decompress(p.data);
      } catch (err) {
        throw new PayloadCodecError(`a payload compressed with ${algorithm} cannot be decompressed: ${(err as Error).message}`);
      }
      return deserializePayload(plain, `the payload decompressed with ${algorithm}`);
    }));
  }
}
