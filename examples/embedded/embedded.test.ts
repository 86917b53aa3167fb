import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNode } from '../../test/helpers/processes.ts';
import { Client } from 'steadfast/client';
import { Engine, startHttpServer, uiRoute } from 'steadfast/server';

test('the application runs its checkout with the engine inside it, then the database shows the run', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-embedded-'));
  const database = `sqlite:${join(dir, 'app.sqlite')}`;
  try {
    const app = spawnNode(['--import', 'tsx', 'examples/embedded/app.ts', 'o-7'], { DATABASE: database });
    assert.equal(await app.exited, 0, app.output());
    assert.match(app.output(), /^charged 4200 for reservation-o-7$/m);

    // The same database, opened again with its HTTP API and web UI served from this process.
    const engine = await Engine.open(database);
    const http = await startHttpServer({ service: engine, port: 0, fallback: uiRoute() });
    const client = new Client({ address: http.address });
    try {
      const described = await client.workflow.getHandle('checkout-o-7').describe();
      assert.equal(described.status, 'Completed');
      const page = await fetch(`${http.address}/`);
      assert.match(await page.text(), /<html/i);
    } finally {
      client.close();
      await http.close();
      await engine.shutdown();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
