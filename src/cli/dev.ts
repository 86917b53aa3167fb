import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseFlags, parsePort } from './args.ts';
import { register } from './main.ts';


const HELP = `Usage: steadfast dev [--port 7233] [--host 127.0.0.1] [--db ./.steadfast/dev.sqlite]

Starts a local steadfast server on an embedded SQLite file, with the web UI at its address:
nothing else to install.

Options:
  --port <n>     port to listen on (default 7233)
  --host <addr>  address to bind (default 127.0.0.1)
  --db <path>    SQLite file (default ./.steadfast/dev.sqlite, created if missing)
  -h, --help     show this help

Example:
  steadfast dev --port 7233 --db ./.steadfast/dev.sqlite`;

register({
  name: 'dev',
  summary: 'Start a local server on an embedded SQLite file (./.steadfast/dev.sqlite)',
  async run(argv) {
    const { values } = parseFlags('dev', argv, {
      port: { type: 'string' }, host: { type: 'string' }, db: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const file = resolve(values.db ?? '.steadfast/dev.sqlite');
    mkdirSync(dirname(file), { recursive: true });
    const { serve } = await import('./serve.ts');
    return serve({ database: `sqlite:${file}`, port: parsePort(values.port, 7233), host: values.host ?? '127.0.0.1', label: 'steadfast dev', warmUi: true });
  },
});
