import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCrashScenario } from './scenario.ts';

test('kill -9 of the SQLite server mid-stream loses no acknowledged workflow', { timeout: 180_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-crash-'));
  try {
    await runCrashScenario({
      database: `sqlite:${join(dir, 'crash.sqlite')}`, servers: 1, workflows: 200, killAfter: 80, log: (l) => t.diagnostic(l),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
