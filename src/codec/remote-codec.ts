import { ValidationError } from '../errors/index.ts';
import { fromJsonPayload, PayloadCodecError, toJsonPayload, type Payload, type PayloadCodec } from './payload-codec.ts';

/** Options of {@link RemotePayloadCodec}. */
export interface RemotePayloadCodecOptions {
  /** The codec server's address, e.g. `http://127.0.0.1:8089`; `/codec/encode` and `/codec/decode` are added. */
  endpoint: string;
  /** Sent as `X-Namespace`: the codec server checks the caller's role on it. @default "default" */
  namespace?: string;
  /** Sent as `Authorization: Bearer <apiKey>` (an API key or a JWT). @default no credential */
  apiKey?: string | undefined;
}

/**
 * A codec that asks a codec server (`steadfast codec-server`, `createCodecServer`) to encode and
 * decode, as Temporal's CLI and UI do with `--codec-endpoint`: the key stays with the codec server.
 */
export class RemotePayloadCodec implements PayloadCodec {
  readonly endpoint: string;
  readonly #headers: Record<string, string>;

  constructor(options: RemotePayloadCodecOptions) {
    if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be { endpoint, namespace?, apiKey? }', options);
    let url: URL;
    try {
      url = new URL(options.endpoint);
    } catch {
      throw new ValidationError('codecEndpoint', 'must be an http:// or https:// URL', options.endpoint);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('codecEndpoint', 'must be an http:// or https:// URL', options.endpoint);
    this.endpoint = url.href.replace(/\/+$/, '');
    this.#headers = {
      'content-type': 'application/json', 'x-namespace': options.namespace ?? 'default',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    };
  }

  encode(payloads: Payload[]): Promise<Payload[]> {
    return this.#call('encode', payloads);
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return this.#call('decode', payloads);
  }

  async #call(what: 'encode' | 'decode', payloads: Payload[]): Promise<Payload[]> {
    if (payloads.length === 0) return payloads;
    const url = `${this.endpoint}/codec/${what}`;
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers: this.#headers, body: JSON.stringify({ payloads: payloads.map(toJsonPayload) }) });
    } catch (err) {
      throw new PayloadCodecError(`the codec endpoint ${url} cannot be reached: ${(err as Error).cause ?? (err as Error).message}`);
    }
    const body = await res.json().catch(() => undefined) as { payloads?: unknown[]; error?: { message?: string } } | undefined;
    if (!res.ok || !Array.isArray(body?.payloads)) {
      throw new PayloadCodecError(`the codec endpoint ${url} answered ${res.status}: ${body?.error?.message ?? 'not { payloads }'}`);
    }
    return body.payloads.map((p, i) => fromJsonPayload(p, `payloads[${i}]`));
  }
}
