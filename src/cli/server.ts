import { parseByteSizeFlag, parseFlags, parseIntFlag, parsePort, UsageError } from './args.ts';
import { toMs, type Duration } from '../retry/duration.ts';
import type { NamespaceLimitOptions } from '../server/index.ts';
import type { CommandSpec } from './command-spec.ts';
import { resolveServerSecurity, SECURITY_FLAG_OPTIONS, SECURITY_HELP } from './server-security.ts';

const HELP = `Usage: steadfast server --database <url> (--api-keys <file> | --jwt-public-key <pem> | --jwks <file> | --insecure)
                        [--port 7233] [--host 127.0.0.1] [--tls-cert <pem> --tls-key <pem>]

Runs the steadfast service: the engine and its HTTP API.

Options:
  --database <url>  sqlite:PATH (embedded, one server process) or postgres://user@host:5432/db
                    (any number of server processes may share one PostgreSQL)
  --port <n>        port to listen on (default 7233; 0 picks a free one)
  --host <addr>     address to bind (default 127.0.0.1)
  --no-metrics      do not count requests, store calls and runs, nor serve GET /metrics
  --retention-sweep-interval <dur>
                    how often closed runs past their namespace's retention are deleted
                    (default 1m; 0 turns this server's sweep off)
  --cache-max-bytes <size>
                    heap the store's caches of runs and schedules may hold, estimated, e.g.
                    256MiB (default 64MiB; 0 turns them off)
  -h, --help        show this help

Limits per namespace and server process (0 turns one off; refused calls get 429 ResourceExhausted
with Retry-After, and clients and workers wait and retry):
  --starts-per-second <n>    workflow starts (default 2400)
  --signals-per-second <n>   signals (default 2400)
  --max-long-polls <n>       long polls open at once: task polls, result waits (default 1200)

Example:
  steadfast server --database sqlite:./steadfast.sqlite --api-keys keys.json --starts-per-second 200

${SECURITY_HELP}`;

/** `steadfast server`. */
export const serverCommand = {
  name: 'server',
  summary: 'Run the service on SQLite or PostgreSQL (--database)',
  async run(argv) {
    const { values } = parseFlags('server', argv, {
      database: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      'no-metrics': { type: 'boolean' }, 'retention-sweep-interval': { type: 'string' },
      'starts-per-second': { type: 'string' }, 'signals-per-second': { type: 'string' }, 'max-long-polls': { type: 'string' },
      'cache-max-bytes': { type: 'string' }, ...SECURITY_FLAG_OPTIONS,
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const database = values.database ?? process.env.STEADFAST_DATABASE;
    if (!database) {
      console.error('steadfast server: --database is required (sqlite:PATH or postgres://...; run `steadfast server --help` for the options)');
      return 2;
    }
    const port = parsePort(values.port, 7233);
    const security = resolveServerSecurity(values);
    const limits = {
      ...limitFlag('starts-per-second', 'startsPerSecond', values['starts-per-second']),
      ...limitFlag('signals-per-second', 'signalsPerSecond', values['signals-per-second']),
      ...limitFlag('max-long-polls', 'maxLongPolls', values['max-long-polls']),
    };
    const sweep = values['retention-sweep-interval'];
    const cacheMaxBytes = parseByteSizeFlag('cache-max-bytes', values['cache-max-bytes']);
    const { serve } = await import('./serve.ts');
    return serve({
      database, port, host: values.host ?? '127.0.0.1', label: 'steadfast server', ...security, metrics: !values['no-metrics'], limits,
      ...(sweep !== undefined ? { retentionSweepIntervalMs: sweepInterval(sweep) } : {}),
      ...(values.insecure ? { insecure: true } : {}), ...(cacheMaxBytes !== undefined ? { cacheMaxBytes } : {}),
    });
  },
} satisfies CommandSpec;

/** One limit flag as a NamespaceLimitOptions entry (absent when not given). */
function limitFlag(flag: string, key: keyof NamespaceLimitOptions, value: string | undefined): NamespaceLimitOptions {
  const n = parseIntFlag(flag, value, 0);
  return n === undefined ? {} : { [key]: n };
}

/** The --retention-sweep-interval flag in ms; UsageError names the flag. */
function sweepInterval(text: string): number {
  try {
    return Math.ceil(toMs(text as Duration, '--retention-sweep-interval'));
  } catch {
    throw new UsageError(`--retention-sweep-interval must be a duration such as 30s, 5m or 1h (0 turns the sweep off), got "${text}"`);
  }
}
