import { AesGcmCodec } from '../codec/aes-gcm-codec.ts';
import { CompressionCodec } from '../codec/compression-codec.ts';
import type { PayloadCodec } from '../codec/payload-codec.ts';
import { ValidationError } from '../errors/index.ts';
import { createCodecServer } from '../server/index.ts';
import { parseFlags, parseIntFlag, UsageError } from './args.ts';
import type { CommandSpec } from './command-spec.ts';
import { resolveServerSecurity } from './server-security.ts';

const FLAGS = {
  'key-file': { type: 'string' }, compress: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' },
  'cors-origin': { type: 'string', multiple: true }, insecure: { type: 'boolean' }, 'api-keys': { type: 'string' },
  'jwt-public-key': { type: 'string' }, jwks: { type: 'string' }, 'jwt-issuer': { type: 'string' }, 'jwt-audience': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = `Usage: steadfast codec-server --key-file keys.json [options]

Serves POST /codec/encode and POST /codec/decode (Temporal's codec server) with an AES-256-GCM
codec, so the CLI (--codec-endpoint) and the web UI show decoded payloads while the steadfast
server never holds the key. Callers authenticate as with the server: decode needs the reader
role and encode the writer role on the namespace of the X-Namespace header.

Options:
  --key-file <file>        {"currentKeyId":"k2","keys":{"k1":"<base64>","k2":"<base64>"}}, 32-byte keys
  --compress <gzip|brotli> also decode (and encode, before encryption) a CompressionCodec
  --port <n>               default 8089
  --host <addr>            default 127.0.0.1
  --cors-origin <origin>   an origin whose pages may call it (the web UI's, e.g. http://127.0.0.1:7233); repeatable
  --api-keys <file>        API keys accepted (the server's key file)
  --jwt-public-key <pem>   verify JWTs with this public key;  --jwks <file>  ... or this key set
  --jwt-issuer <iss>       required JWT issuer;  --jwt-audience <aud>  required audience
  --insecure               answer every caller (only where no one else can reach the port)
  -h, --help               show this help

Example:
  steadfast codec-server --key-file keys.json --api-keys api-keys.json --cors-origin http://127.0.0.1:7233`;

/** `steadfast codec-server`. */
export const codecServerCommand = {
  name: 'codec-server',
  summary: 'Serve /codec/encode and /codec/decode with your encryption key, for the CLI and web UI (Temporal\'s codec server)',
  async run(argv) {
    const { values } = parseFlags('codec-server', argv, FLAGS, false);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (!values['key-file']) throw new UsageError('steadfast codec-server: --key-file is required (run `steadfast codec-server --help`)');
    const codecs: PayloadCodec[] = [];
    try {
      if (values.compress !== undefined && values.compress !== 'gzip' && values.compress !== 'brotli') {
        throw new UsageError(`--compress must be gzip or brotli, got "${values.compress}"`);
      }
      if (values.compress !== undefined) codecs.push(new CompressionCodec({ algorithm: values.compress as 'gzip' }));
      codecs.push(AesGcmCodec.fromKeyFile(values['key-file']));
    } catch (err) {
      if (err instanceof ValidationError) throw new UsageError(`steadfast codec-server: ${err.message}`);
      throw err;
    }
    const { auth } = resolveServerSecurity(values);
    const port = parseIntFlag('port', values.port, 0) ?? 8089;
    if (port > 65535) throw new UsageError(`--port must be <= 65535, got ${port}`);
    const server = await createCodecServer({
      codecs, port, host: values.host ?? '127.0.0.1', ...(auth ? { auth } : {}), corsOrigins: values['cors-origin'] ?? [],
    });
    console.log(`steadfast codec-server listening on ${server.address}${auth ? '' : ' (no authentication: --insecure)'}`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    return 0;
  },
} satisfies CommandSpec;
