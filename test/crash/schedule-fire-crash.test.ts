import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import { freePort, startServerProcess, type Child } from '../helpers/processes.ts';
import { checkEveryActionTakenOnce, createTickSchedule, untilFireInstant } from './schedule-fire.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('kill -9 of the SQLite server at schedule fire instants: every due action is taken once', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-sched-crash-'));
  const database = `sqlite:${join(dir, 'crash.sqlite')}`;
  const port = await freePort();
  let server: Child & { address: string } = await startServerProcess(database, port);
  const client = new Client({ address: server.address });
  try {
    await createTickSchedule(client);
    let lastRestart = 0;
    for (let kill = 0; kill < 4; kill++) {
      await sleep(1500 + kill * 300);
      await untilFireInstant(3 + kill * 4);
      await server.kill('SIGKILL');
      t.diagnostic(`kill -9 #${kill + 1} at ${new Date().toISOString()}`);
      await sleep(200);
      server = await startServerProcess(database, port);
      lastRestart = Date.now();
    }
    await checkEveryActionTakenOnce(client, lastRestart + 2000, (l) => t.diagnostic(`${l}, across 4 kills`));
  } finally {
    client.close();
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
