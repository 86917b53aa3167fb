import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseByteSizeFlag, parseFlags, parsePort, UsageError } from './args.ts';
import { validateNamespaceName } from '../protocol/namespaces.ts';
import { allowedHostFlags } from './server-security.ts';
import type { CommandSpec } from './command-spec.ts';


const HELP = `Usage: steadfast dev [--port 7233] [--host 127.0.0.1] [--db ./.steadfast/dev.sqlite] [--namespace <ns> ...]
                    [--allowed-host <name> ...] [--cache-max-bytes 64MiB]

Starts a local steadfast server on an embedded SQLite file, with the web UI at its address:
nothing else to install.

Options:
  --port <n>     port to listen on (default 7233)
  --host <addr>  address to bind (default 127.0.0.1)
  --db <path>    SQLite file (default ./.steadfast/dev.sqlite, created if missing)
  --namespace <ns>
                 register this namespace at start if it is missing (repeatable; "default"
                 always exists)
  --allowed-host <name>
                 a host name the server answers to besides IP addresses and localhost
                 (repeatable): requests naming any other in their Host header are refused,
                 so that a web page cannot reach the server by a domain that resolves here
  --cache-max-bytes <size>
                 heap the store's cache of runs may hold, estimated, e.g. 256MiB
                 (default 64MiB; 0 turns it off)
  -h, --help     show this help

Example:
  steadfast dev --port 7233 --db ./.steadfast/dev.sqlite --namespace orders --namespace billing`;

/** `steadfast dev`. */
export const devCommand = {
  name: 'dev',
  summary: 'Start a local server on an embedded SQLite file (./.steadfast/dev.sqlite)',
  async run(argv) {
    const { values } = parseFlags('dev', argv, {
      port: { type: 'string' }, host: { type: 'string' }, db: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      namespace: { type: 'string', multiple: true }, 'allowed-host': { type: 'string', multiple: true },
      'cache-max-bytes': { type: 'string' },
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
    const file = resolve(values.db ?? '.steadfast/dev.sqlite');
    mkdirSync(dirname(file), { recursive: true });
    const { serve } = await import('./serve.ts');
    return serve({ database: `sqlite:${file}`, port: parsePort(values.port, 7233), host: values.host ?? '127.0.0.1', label: 'steadfast dev', warmUi: true, namespaces,
      ...(allowedHosts ? { allowedHosts } : {}), ...(cacheMaxBytes !== undefined ? { cacheMaxBytes } : {}),
    });
  },
} satisfies CommandSpec;
