import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { enumFlag, parseByteSizeFlag, parseFlags, parsePort, UsageError } from './args.ts';
import { SEARCH_ATTRIBUTE_TYPES, type SearchAttributeTypeName } from '../protocol/enums.ts';
import { validateNamespaceName } from '../protocol/namespaces.ts';
import { allowedHostFlags } from './server-security.ts';
import type { CommandSpec } from './command-spec.ts';


const HELP = `Usage: steadfast dev [--port 7233] [--host 127.0.0.1] [--db ./.steadfast/dev.sqlite] [--namespace <ns> ...]
                    [--search-attribute <name>=<type> ...] [--log-level info] [--allowed-host <name> ...] [--cache-max-bytes 64MiB]

Starts a local steadfast server on an embedded SQLite file, with the web UI at its address:
nothing else to install.

Options:
  --port <n>     port to listen on (default 7233)
  --host <addr>  address to bind (default 127.0.0.1)
  --db <path>    SQLite file (default ./.steadfast/dev.sqlite, created if missing)
  --namespace <ns>
                 register this namespace at start if it is missing (repeatable; "default"
                 always exists)
  --search-attribute <name>=<type>
                 register this search attribute at start in "default" and each --namespace
                 (repeatable); type Keyword, Text, Int, Double, Bool, Datetime or KeywordList
  --log-level <level>
                 debug, info (default), warn or error: the lowest level of the server's log lines
  --allowed-host <name>
                 a host name the server answers to besides IP addresses and localhost
                 (repeatable): requests naming any other in their Host header are refused,
                 so that a web page cannot reach the server by a domain that resolves here
  --cache-max-bytes <size>
                 heap the store's cache of runs may hold, estimated, e.g. 256MiB
                 (default 64MiB; 0 turns it off)
  -h, --help     show this help

Example:
  steadfast dev --port 7233 --db ./.steadfast/dev.sqlite --namespace orders --namespace billing --search-attribute CustomerId=Keyword`;

/** Refuses a port another process holds before anything is created (the database file). */
async function portFree(host: string, port: number): Promise<boolean> {
  if (port === 0) return true;
  const { createServer } = await import('node:net');
  return new Promise((resolveFree) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolveFree(err.code !== 'EADDRINUSE'));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolveFree(true)));
  });
}

/** `--search-attribute Name=Type`, the type in any case. */
function searchAttributeFlag(text: string): { name: string; type: SearchAttributeTypeName } {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`--search-attribute must be <name>=<type> such as CustomerId=Keyword, got "${text}"`);
  return { name: text.slice(0, at).trim(), type: enumFlag('search-attribute', text.slice(at + 1), SEARCH_ATTRIBUTE_TYPES) };
}

/** `steadfast dev`. */
export const devCommand = {
  name: 'dev',
  summary: 'Start a local server on an embedded SQLite file (./.steadfast/dev.sqlite)',
  async run(argv) {
    const { values } = parseFlags('dev', argv, {
      port: { type: 'string' }, host: { type: 'string' }, db: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      namespace: { type: 'string', multiple: true }, 'allowed-host': { type: 'string', multiple: true },
      'cache-max-bytes': { type: 'string' }, 'search-attribute': { type: 'string', multiple: true }, 'log-level': { type: 'string' },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const namespaces = (values.namespace ?? []).map((n) => {
      try {
        return validateNamespaceName(n, '--namespace');
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    });
    const allowedHosts = allowedHostFlags(values['allowed-host']);
    const cacheMaxBytes = parseByteSizeFlag('cache-max-bytes', values['cache-max-bytes']);
    const searchAttributes = (values['search-attribute'] ?? []).map(searchAttributeFlag);
    const logLevel = enumFlag('log-level', values['log-level'], ['debug', 'info', 'warn', 'error'] as const);
    if (logLevel) process.env.STEADFAST_LOG_LEVEL = logLevel;
    const port = parsePort(values.port, 7233);
    const host = values.host ?? '127.0.0.1';
    if (!(await portFree(host, port))) {
      console.error(`steadfast dev: port ${port} on ${host} is in use; pick another with --port`);
      return 1;
    }
    const file = resolve(values.db ?? '.steadfast/dev.sqlite');
    mkdirSync(dirname(file), { recursive: true });
    const { serve } = await import('./serve.ts');
    return serve({ database: `sqlite:${file}`, port, host, label: 'steadfast dev', warmUi: true, namespaces, searchAttributes,
      ...(allowedHosts ? { allowedHosts } : {}), ...(cacheMaxBytes !== undefined ? { cacheMaxBytes } : {}),
    });
  },
} satisfies CommandSpec;
