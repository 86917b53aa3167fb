import { ValidationError } from '../errors/index.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import {
  fromJsonPayload, isEnvelope, payloadToValue, PayloadCodecError, toJsonPayload, valueToPayload,
  type DataConverter, type Payload, type PayloadCodec, type PayloadEnvelope,
} from './payload-codec.ts';
import type { PayloadMap } from './payload-walk.ts';

/** A walk over a structure's payloads (see payload-walk.ts). */
type PayloadWalk<T> = (value: T, f: PayloadMap) => T;

/**
 * The payload codecs of a client, a worker or a codec server, applied in Temporal's order:
 * encode through the codecs first to last, decode last to first. Values travel as
 * {@link PayloadEnvelope}s once encoded.
 */
export class CodecChain {
  readonly codecs: readonly PayloadCodec[];

  constructor(codecs: readonly PayloadCodec[]) {
    this.codecs = codecs;
  }

  /** Payloads through every codec's encode, first to last. */
  async encodePayloads(payloads: Payload[]): Promise<Payload[]> {
    let out = payloads;
    for (const codec of this.codecs) out = checked(await codec.encode(out), out.length, 'encode');
    return out;
  }

  /** Payloads through every codec's decode, last to first. */
  async decodePayloads(payloads: Payload[]): Promise<Payload[]> {
    let out = payloads;
    for (let i = this.codecs.length - 1; i >= 0; i--) out = checked(await this.codecs[i]!.decode(out), out.length, 'decode');
    return out;
  }

  /** Values as envelopes of their encoded payloads. */
  async encodeValues(values: unknown[]): Promise<PayloadEnvelope[]> {
    const encoded = await this.encodePayloads(values.map(valueToPayload));
    return encoded.map((p) => ({ $payload: toJsonPayload(p) }));
  }

  /** Values with each envelope among them decoded; other values are returned as they are. */
  async decodeValues(values: unknown[]): Promise<unknown[]> {
    const at: number[] = [];
    const payloads: Payload[] = [];
    values.forEach((v, i) => {
      if (!isEnvelope(v)) return;
      at.push(i);
      payloads.push(fromJsonPayload(v.$payload, '$payload'));
    });
    if (payloads.length === 0) return values;
    const decoded = await this.decodePayloads(payloads);
    const out = values.slice();
    at.forEach((i, j) => { out[i] = payloadToValue(decoded[j]!); });
    return out;
  }

  /** `value` with every payload a walk finds encoded, in one call to each codec. */
  encode<T>(value: T, walk: PayloadWalk<T>): Promise<T> {
    return this.#through(value, walk, (found) => this.encodeValues(found));
  }

  /** `value` with every envelope a walk finds decoded; the value itself when it holds none. */
  decode<T>(value: T, walk: PayloadWalk<T>): Promise<T> {
    return this.#through(value, walk, (found) => this.decodeValues(found));
  }

  async #through<T>(value: T, walk: PayloadWalk<T>, convert: (found: unknown[]) => Promise<unknown[]>): Promise<T> {
    const found: unknown[] = [];
    walk(value, (v) => { found.push(v); return v; });
    if (found.length === 0) return value;
    const converted = await convert(found);
    if (converted === found) return value;
    let i = 0;
    return walk(value, () => converted[i++]);
  }
}

function checked(out: unknown, length: number, what: 'encode' | 'decode'): Payload[] {
  if (!Array.isArray(out) || out.length !== length) {
    throw new PayloadCodecError(`a payload codec's ${what} must resolve to an array of as many payloads as it was given (${length}), got ${
      Array.isArray(out) ? `${out.length}` : typeof out}`);
  }
  return out as Payload[];
}

const DATA_CONVERTER_KEYS = optionKeys<DataConverter>({ payloadCodecs: true });

/**
 * The codec chain of a `dataConverter` option, or undefined when it has no codecs (the path
 * that sends and stores plain JSON and costs nothing extra).
 * @throws ValidationError naming `dataConverter.payloadCodecs[i]` when one is not a codec.
 */
export function codecChainOf(dataConverter: DataConverter | undefined): CodecChain | undefined {
  if (dataConverter === undefined) return undefined;
  if (typeof dataConverter !== 'object' || dataConverter === null) throw new ValidationError('dataConverter', 'must be { payloadCodecs }', dataConverter);
  refuseUnknownKeys('dataConverter', dataConverter, DATA_CONVERTER_KEYS, { field: 'dataConverter', noun: 'option' });
  const codecs = dataConverter.payloadCodecs;
  if (codecs === undefined) return undefined;
  if (!Array.isArray(codecs)) throw new ValidationError('dataConverter.payloadCodecs', 'must be an array of PayloadCodec', codecs);
  codecs.forEach((c, i) => {
    if (typeof c !== 'object' || c === null || typeof c.encode !== 'function' || typeof c.decode !== 'function') {
      throw new ValidationError(`dataConverter.payloadCodecs[${i}]`, 'must be a PayloadCodec (with encode and decode methods)', c);
    }
  });
  return codecs.length > 0 ? new CodecChain(codecs) : undefined;
}
