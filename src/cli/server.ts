import { parseFlags, parsePort } from './args.ts';
import { register } from './main.ts';


const HELP = `Usage: steadfast server --database <url> [--port 7233] [--host 127.0.0.1]

Runs the steadfast service: the engine and its HTTP API.

Options:
  --database <url>  sqlite:PATH (embedded, one server process) or postgres://user@host:5432/db
                    (any number of server processes may share one PostgreSQL)
  --port <n>        port to listen on (default 7233; 0 picks a free one)
  --host <addr>     address to bind (default 127.0.0.1)
  -h, --help        show this help`;

register({
  name: 'server',
  summary: 'Run the service on SQLite or PostgreSQL (--database)',
  async run(argv) {
    const { values } = parseFlags('server', argv, {
      database: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const database = values.database ?? process.env.STEADFAST_DATABASE;
    if (!database) {
      console.error('steadfast server: --database is required (sqlite:PATH or postgres://...)\n');
      console.error(HELP);
      return 2;
    }
    const { serve } = await import('./serve.ts');
    return serve({ database, port: parsePort(values.port, 7233), host: values.host ?? '127.0.0.1', label: 'steadfast server' });
  },
});
