import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../src/client/index.ts';
import { BIN, freePort, spawnNode } from '../helpers/processes.ts';

test('steadfast dev with OTEL_TRACES_EXPORTER=console prints its spans, named by OTEL_SERVICE_NAME; a bad exporter is refused', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steadfast-otel-'));
  const port = await freePort();
  const dev = spawnNode([BIN, 'dev', '--port', String(port), '--db', join(dir, 'dev.sqlite')],
    { OTEL_TRACES_EXPORTER: 'console', OTEL_SERVICE_NAME: 'orders-server' });
  try {
    await dev.waitFor(/Tracing: console exporter, service orders-server \(OTEL_\* environment\)/);
    await dev.waitFor(/steadfast dev listening on/);
    const client = new Client({ address: `http://127.0.0.1:${port}` });
    await client.taskQueue.describe('orders');
    client.close();
    await dev.waitFor(/name: 'steadfast\.describeTaskQueue'/);
    assert.match(dev.output(), /'service\.name': 'orders-server'/);
  } finally {
    await dev.kill('SIGTERM');
  }
  const bad = spawnNode([BIN, 'dev', '--port', String(await freePort()), '--db', join(dir, 'bad.sqlite')], { OTEL_TRACES_EXPORTER: 'zipkin' });
  assert.equal(await bad.exited, 2);
  assert.match(bad.output(), /OTEL_TRACES_EXPORTER must be one of none, console, otlp; got "zipkin"/);
  // Without the OTLP exporter package (not a dependency of steadfast), otlp says which package to install.
  const hasOtlp = await import('@opentelemetry/exporter-trace-otlp-http' as string).then(() => true, () => false);
  if (hasOtlp) return;
  const otlp = spawnNode([BIN, 'dev', '--port', String(await freePort()), '--db', join(dir, 'otlp.sqlite')], { OTEL_TRACES_EXPORTER: 'otlp' });
  assert.equal(await otlp.exited, 2);
  assert.match(otlp.output(), /OTEL_TRACES_EXPORTER=otlp needs the package @opentelemetry\/exporter-trace-otlp-http/);
  rmSync(dir, { recursive: true, force: true });
});
