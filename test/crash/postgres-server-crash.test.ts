import { after, test } from 'node:test';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';
import { runCrashScenario } from './scenario.ts';

const skip = await pgSkipReason('the PostgreSQL server crash test');
const schema = freshSchema('sf_crash');
after(async () => {
  if (!skip) await dropSchema(schema);
});

test('two servers on PostgreSQL, kill -9 of one mid-stream: no acknowledged workflow is lost', { skip, timeout: 180_000 }, async (t) => {
  const url = new URL(PG_URL);
  url.searchParams.set('schema', schema);
  await runCrashScenario({ database: url.toString(), servers: 2, workflows: 200, killAfter: 80, log: (l) => t.diagnostic(l) });
});
