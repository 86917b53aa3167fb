import { Engine } from '../engine/index.ts';
import { openStore } from '../store/index.ts';
import { startHttpServer } from '../server/index.ts';

/** What `steadfast server` and `steadfast dev` run: store, engine and HTTP API, until a signal. */
export interface ServeOptions {
  database: string;
  port: number;
  host: string;
  /** Printed first: the name the command goes by. */
  label: string;
}

/** Opens the store, starts the engine and the API, and shuts all down cleanly on SIGTERM/SIGINT. */
export async function serve(options: ServeOptions): Promise<number> {
  const store = await openStore(options.database);
  const engine = await Engine.create({ store });
  let http;
  try {
    http = await startHttpServer({ service: engine, port: options.port, host: options.host });
  } catch (err) {
    await engine.shutdown();
    await store.close();
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') {
      console.error(`${options.label}: port ${options.port} on ${options.host} is in use; pick another with --port`);
      return 1;
    }
    throw err;
  }
  console.log(`${options.label} listening on ${http.address} (database ${redact(options.database)})`);
  console.log('Press Ctrl+C to stop.');
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal}: shutting down`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  await http.close();
  await engine.shutdown();
  await store.close();
  console.log('stopped');
  return 0;
}

/** Hides a password in a connection string. */
export function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
