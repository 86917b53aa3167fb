import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChaos } from './chaos.ts';

test('chaos on SQLite: five kill -9s of the server while clients wait on results: no client error, nothing lost or run twice, every activity once',
  { timeout: 150_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-chaos-'));
    try {
      await runChaos({
        database: `sqlite:${join(dir, 'chaos.sqlite')}`, servers: 1, workflows: 300, concurrency: 20, sleepMs: 1000,
        faults: ['kill', 'kill', 'kill', 'kill', 'kill'], activityLog: join(dir, 'activities.log'), activitiesExactlyOnce: true,
        log: (l) => t.diagnostic(l),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
