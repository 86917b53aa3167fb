import { after, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { runChaos } from './chaos.ts';

const skip = await pgSkipReason('the PostgreSQL chaos test');
const schema = freshSchema('sf_chaos');
/** Names this test's server connections, so only they are cut (other tests share the database). */
const applicationName = `sf_chaos_${process.pid}`;
after(async () => {
  if (!skip) await dropSchema(schema);
});

async function terminateConnections(): Promise<number> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    const r = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
      [applicationName]);
    return r.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

test('chaos on PostgreSQL, two servers: three kill -9s of one and three cuts of every database connection: no client error, nothing lost or run twice',
  { skip, timeout: 150_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-pg-chaos-'));
    const url = new URL(PG_URL);
    url.searchParams.set('schema', schema);
    url.searchParams.set('application_name', applicationName);
    try {
      await runChaos({
        database: url.toString(), servers: 2, workflows: 300, concurrency: 20, sleepMs: 1000,
        faults: ['kill', 'terminate-connections', 'kill', 'terminate-connections', 'kill', 'terminate-connections'],
        terminateConnections, activityLog: join(dir, 'activities.log'), activitiesExactlyOnce: false,
        log: (l) => t.diagnostic(l),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
