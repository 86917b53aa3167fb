import { readFileSync } from 'node:fs';
import { parseTaskTokenKeys, type TaskTokenKey } from '../engine/index.ts';
import { ApiKeys, Authenticator, readTlsFiles, resolveAllowedHosts, type TlsOptions } from '../server/index.ts';
import { UsageError } from './args.ts';

/** The security flags of `steadfast server`, as parsed. */
interface SecurityFlags {
  insecure?: boolean;
  'api-keys'?: string;
  'jwt-public-key'?: string;
  jwks?: string;
  'jwt-issuer'?: string;
  'jwt-audience'?: string;
  'tls-cert'?: string;
  'tls-key'?: string;
  'tls-client-ca'?: string;
  'token-key-file'?: string;
  'allowed-host'?: string[];
}

/** The parseArgs options of {@link SecurityFlags}. */
export const SECURITY_FLAG_OPTIONS = {
  insecure: { type: 'boolean' }, 'api-keys': { type: 'string' }, 'jwt-public-key': { type: 'string' }, jwks: { type: 'string' },
  'jwt-issuer': { type: 'string' }, 'jwt-audience': { type: 'string' }, 'tls-cert': { type: 'string' }, 'tls-key': { type: 'string' },
  'tls-client-ca': { type: 'string' }, 'token-key-file': { type: 'string' }, 'allowed-host': { type: 'string', multiple: true },
} as const;

/** Help lines of {@link SECURITY_FLAG_OPTIONS}. */
export const SECURITY_HELP = `Security (see docs/security.md):
  --api-keys <file>        API keys accepted: {"keys":[{"sha256","identity","permissions"}]}
                           (\`steadfast api-key create\` makes a key and its entry)
  --jwt-public-key <pem>   verify JWTs (Authorization: Bearer) with this public key
  --jwks <file>            ... or with this JSON Web Key Set
  --jwt-issuer <iss>       required JWT issuer;  --jwt-audience <aud>  required audience
  --insecure               run with no authentication (anyone who reaches the port may do anything)
  --allowed-host <name>    with --insecure: a host name the server answers to besides IP addresses
                           and localhost (repeatable); requests naming another in their Host header
                           are refused, so that a web page cannot reach it by a domain resolving here
  --tls-cert <pem>         serve HTTPS with this certificate chain ...
  --tls-key <pem>          ... and this private key
  --tls-client-ca <pem>    require client certificates signed by this CA (mutual TLS)
  --token-key-file <file>  task-token signing keys {"keys":[{"id","secret"}]}, newest first
                           (default $STEADFAST_TOKEN_KEY_FILE, else a key kept in the database)`;

const NO_AUTH = 'steadfast server: authentication is on by default and no credentials are configured: give --api-keys keys.json '
  + '(`steadfast api-key create --identity NAME --permission default:writer` makes a key) or --jwt-public-key / --jwks, '
  + 'or run open with --insecure';

/** What the security flags configure. */
interface ServerSecurity {
  auth?: Authenticator;
  tls?: TlsOptions;
  taskTokenKeys?: TaskTokenKey[];
  allowedHosts?: string[];
}

/**
 * Reads the files the security flags name.
 * @throws UsageError when no authentication is configured and --insecure was not given, or
 *   flags that belong together are split.
 */
export function resolveServerSecurity(f: SecurityFlags): ServerSecurity {
  const jwtKey = f['jwt-public-key'];
  const wantsAuth = f['api-keys'] !== undefined || jwtKey !== undefined || f.jwks !== undefined;
  if (f.insecure && wantsAuth) throw new UsageError('steadfast server: --insecure cannot be combined with --api-keys, --jwt-public-key or --jwks');
  if (!f.insecure && !wantsAuth) throw new UsageError(NO_AUTH);
  if (jwtKey !== undefined && f.jwks !== undefined) throw new UsageError('steadfast server: give one of --jwt-public-key and --jwks, not both');
  if ((f['tls-cert'] === undefined) !== (f['tls-key'] === undefined)) throw new UsageError('steadfast server: --tls-cert and --tls-key go together');
  if (f['tls-client-ca'] !== undefined && f['tls-cert'] === undefined) throw new UsageError('steadfast server: --tls-client-ca needs --tls-cert and --tls-key');
  if (f['allowed-host'] !== undefined && !f.insecure) {
    throw new UsageError('steadfast server: --allowed-host goes with --insecure (a server with authentication answers to any host name)');
  }
  const out: ServerSecurity = {};
  const allowedHosts = allowedHostFlags(f['allowed-host']);
  if (allowedHosts) out.allowedHosts = allowedHosts;
  if (wantsAuth) {
    out.auth = Authenticator.create({
      ...(f['api-keys'] !== undefined ? { apiKeys: ApiKeys.load(f['api-keys']) } : {}),
      ...(jwtKey !== undefined || f.jwks !== undefined ? {
        jwt: {
          ...(jwtKey !== undefined ? { publicKeyFile: jwtKey } : { jwksFile: f.jwks! }),
          ...(f['jwt-issuer'] ? { issuer: f['jwt-issuer'] } : {}),
          ...(f['jwt-audience'] ? { audience: f['jwt-audience'] } : {}),
        },
      } : {}),
    });
  }
  if (f['tls-cert'] !== undefined) {
    out.tls = readTlsFiles({ certFile: f['tls-cert'], keyFile: f['tls-key']!, ...(f['tls-client-ca'] ? { clientCaFile: f['tls-client-ca'] } : {}) });
  }
  const tokenFile = f['token-key-file'] ?? (process.env.STEADFAST_TOKEN_KEY_FILE || undefined);
  if (tokenFile !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(tokenFile, 'utf8'));
    } catch (err) {
      throw new UsageError(`--token-key-file must be a readable JSON file, got "${tokenFile}" (${(err as Error).message})`);
    }
    out.taskTokenKeys = parseTaskTokenKeys(json, tokenFile);
  }
  return out;
}

/**
 * The `--allowed-host` flags, checked.
 * @throws UsageError naming the flag for a value that is not a bare host name.
 */
export function allowedHostFlags(values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  try {
    resolveAllowedHosts(values);
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^allowedHosts\[\d+\]/, '--allowed-host'));
  }
  return values;
}
