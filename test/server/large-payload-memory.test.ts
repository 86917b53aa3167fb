import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServerProcess, type Child } from '../helpers/processes.ts';
import { dropSchema, freshSchema, PG_URL, pgSkipReason } from '../store/pg-helpers.ts';

/**
 * A server capped at 256 MB of heap takes 200 starts (LARGE_PAYLOAD_STARTS=2000 for the full
 * figure) whose argument is 1.9 MiB (under the 2 MiB payload limit) and stays up, on both stores:
 * 380 MB of arguments, six times what the 64 MiB cache bound holds and 1.7 times the count that
 * killed it before, in under a minute per store in CI (on a disk that syncs a 4 KiB write in
 * 0.3 ms, 300 starts took 60 s per store with the rest of the suite running beside it). The run
 * cache was bounded by count only (10,000 runs, each with its WorkflowExecutionStarted event and
 * so its arguments): 263 such starts killed a server with a 512 MB heap, and about 120 one with
 * 256 MB.
 *
 * Each start writes its 1.9 MiB to the database twice (event and row), so this takes a while:
 * about 9 starts a second on a shared 2-core machine (2,000 in 200 to 340 s per store).
 * LARGE_PAYLOAD_STARTS sets another count; 2,000 on each store took 297 s and 315 s with the
 * machine loaded.
 */

const STARTS = Number(process.env.LARGE_PAYLOAD_STARTS ?? 200);
const CONCURRENCY = 4;
/** 1.9 MiB of argument: the body is just under the 2 MiB payload limit. */
const ARG = Buffer.from(`["${'x'.repeat(Math.floor(1.9 * 1024 * 1024))}"]`);

/** Starts STARTS workflows, CONCURRENCY at a time, each with ARG as its arguments; answers the statuses seen. */
async function startMany(address: string, prefix: string): Promise<Map<number, number>> {
  const url = new URL('/api/v1/startWorkflowExecution', address);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses = new Map<number, number>();
  let next = 0;
  const one = (i: number) => new Promise<number>((resolve) => {
    const head = Buffer.from(`{"workflowId":"${prefix}-${i}","workflowType":"big","taskQueue":"big","args":`);
    const req = request({
      host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': head.length + ARG.length + 1 },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(-1));
    });
    req.on('error', () => resolve(-1));
    req.write(head);
    req.write(ARG);
    req.end('}');
  });
  const lane = async () => {
    while (next < STARTS) {
      const status = await one(next++);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      // A dead server answers every later request with a connection error at once: stop there.
      if (status === -1) return;
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  } finally {
    agent.destroy();
  }
  return statuses;
}

async function survives(database: string, label: string): Promise<void> {
  let server: (Child & { address: string }) | undefined;
  try {
    server = await startServerProcess(database, await freePort(), ['--no-metrics'], ['--max-old-space-size=256']);
    const began = Date.now();
    const statuses = await startMany(server.address, label);
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    console.log(`${label}: ${STARTS} starts of ${ARG.length} bytes in ${seconds} s`);
    assert.equal(server.proc.exitCode, null, `the server exited:\n${server.output().slice(-3000)}`);
    assert.deepEqual([...statuses], [[200, STARTS]], `answers by status (-1: no answer); server output:\n${server.output().slice(-3000)}`);
    const health = await fetch(`${server.address}/health`);
    assert.equal(health.status, 200);
  } finally {
    await server?.kill('SIGTERM');
  }
}

describe(`${STARTS.toLocaleString('en-US')} starts with 1.9 MiB arguments against a server with a 256 MB heap`, () => {
  test('SQLite', { timeout: 900_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steadfast-large-'));
    try {
      await survives(`sqlite:${join(dir, 'large.sqlite')}`, 'sqlite');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('PostgreSQL', () => {
    let skip: string | false = false;
    const schema = freshSchema('large_payload');
    before(async () => {
      skip = await pgSkipReason('the PostgreSQL large-payload test');
    });
    after(async () => {
      if (!skip) await dropSchema(schema);
    });
    test('a fresh schema', { timeout: 900_000 }, async (t) => {
      if (skip) return t.skip(skip); // PostgreSQL unreachable on a newcomer's machine; CI=true fails instead
      await survives(`${PG_URL}?schema=${schema}`, 'postgres');
    });
  });
});
