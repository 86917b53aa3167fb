import { after, test } from 'node:test';
import { Client } from '../../src/client/index.ts';
import { TIMER_LEASE_MS } from '../../src/engine/index.ts';
import { freePort, startServerProcess, type Child } from '../helpers/processes.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { checkEveryActionTakenOnce, createTickSchedule, untilFireInstant } from './schedule-fire.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const KILLS = 4;

const skip = await pgSkipReason('the PostgreSQL schedule fire crash test');
const schema = freshSchema('sf_schedcrash');
after(async () => {
  if (!skip) await dropSchema(schema);
});

test('two servers on PostgreSQL, kill -9 of one at schedule fire instants: every due action is taken once', { skip, timeout: 90_000 }, async (t) => {
  const url = new URL(PG_URL);
  url.searchParams.set('schema', schema);
  const database = url.toString();
  const ports = [await freePort(), await freePort()];
  const servers: (Child & { address: string })[] = [];
  let client: Client | undefined;
  try {
    for (const port of ports) servers.push(await startServerProcess(database, port));
    // Server 1 is never killed: the client goes through it while server 0 is down.
    client = new Client({ address: servers[1]!.address });
    await createTickSchedule(client);
    let lastRestart = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      await sleep(1500 + kill * 300);
      const afterMs = 2 + kill * 4;
      await untilFireInstant(afterMs);
      await servers[0]!.kill('SIGKILL');
      t.diagnostic(`kill -9 of server 0 #${kill + 1} at ${new Date().toISOString()} (${afterMs} ms after the fire instant)`);
      await sleep(200);
      servers[0] = await startServerProcess(database, ports[0]!);
      lastRestart = Date.now();
    }
    // A timer claimed by the killed server is fired again once its lease ends.
    await checkEveryActionTakenOnce(client, lastRestart + TIMER_LEASE_MS + 1000, (l) => t.diagnostic(`${l}, across ${KILLS} kills`));
  } finally {
    client?.close();
    await Promise.all(servers.map((s) => s.kill()));
  }
});
