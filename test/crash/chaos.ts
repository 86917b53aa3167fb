import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Client } from '../../src/client/index.ts';
import { randomSeed, unitRandom } from '../../src/retry/random.ts';
import { freePort, spawnNode, startServerProcess, type Child } from '../helpers/processes.ts';
import { checkHistory } from './scenario.ts';

/** A fault the chaos test injects while clients wait on results. */
export type Fault = 'kill' | 'terminate-connections';

export interface ChaosScenario {
  /** Database URL every server process opens. */
  database: string;
  /** Server processes sharing the database (2 needs PostgreSQL). Faults of kind 'kill' hit server 0. */
  servers: 1 | 2;
  workflows: number;
  /** Workflows started and awaited at once. */
  concurrency: number;
  /** The workflow's sleep, ms: keeps results pending while faults happen. */
  sleepMs: number;
  /** Faults, in order, each at a random moment drawn from the seed. */
  faults: Fault[];
  /** Cuts every database connection of the servers; returns how many it cut. Needed for 'terminate-connections'. */
  terminateConnections?: () => Promise<number>;
  /** File the activity appends one line to per execution. */
  activityLog: string;
  /** Whether every activity must have run exactly once (all outages are shorter than its 20 s timeout). */
  activitiesExactlyOnce: boolean;
  /** @default a fresh seed, or $CHAOS_SEED */
  seed?: number;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long the workload may take after the last fault before the test reports what is stuck, ms. */
const STALL_MS = 40_000;

function pendingIds(_next: number, _finished: number, _total: number, running: Set<number>): string[] {
  return [...running].slice(0, 5).map((i) => `chaos-${i}`);
}

/** Waits for the workload; past STALL_MS, fails with the state of a few workflows still waited on. */
async function stallCheck(workload: Promise<unknown>, client: Client, pending: () => string[], seed: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<'stalled'>((resolve) => (timer = setTimeout(() => resolve('stalled'), STALL_MS)));
  const outcome = await Promise.race([workload, stalled]);
  clearTimeout(timer);
  if (outcome !== 'stalled') return;
  const states = await Promise.all(pending().map(async (id) => {
    const h = client.workflow.getHandle(id);
    const late = sleep(5_000).then(() => ['no answer in 5 s', { events: [] }] as const);
    const [d, history] = await Promise.race([Promise.all([h.describe(), h.fetchHistory()]), late])
      .catch((err: unknown) => [String(err), { events: [] }] as const);
    return `${id}: ${JSON.stringify(d)}\n${history.events.map((e) => `  ${e.eventId} ${e.eventType} ${e.eventTime}`).join('\n')}`;
  }));
  assert.fail(`workflows still waited on ${STALL_MS / 1000}s after the last fault (seed ${seed}):\n${states.join('\n')}`);
}

/** Draws of the fault schedule; one stream, indexed by draw. */
const CHAOS_STREAM = 100;

/**
 * Runs `workflows` workflows through the servers' own clients (default retry options) while the
 * faults hit at seeded random moments, then checks: no client call failed, every workflow
 * completed exactly once with the right result, histories are intact, and (when asked) every
 * activity ran exactly once. Reproduce a run with CHAOS_SEED=<the logged seed>.
 */
export async function runChaos(s: ChaosScenario): Promise<void> {
  const seed = s.seed ?? (process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : randomSeed());
  s.log(`chaos seed ${seed} (rerun with CHAOS_SEED=${seed})`);
  let draw = 0;
  const random = () => unitRandom(seed, draw++, CHAOS_STREAM);
  const began = Date.now();
  const at = () => `+${((Date.now() - began) / 1000).toFixed(1)}s`;

  const ports = await Promise.all(Array.from({ length: s.servers }, () => freePort()));
  const servers: (Child & { address: string })[] = [];
  const workers: Child[] = [];
  const clients: Client[] = [];
  try {
    for (const port of ports) servers.push(await startServerProcess(s.database, port));
    for (const srv of servers) {
      const w = spawnNode(['--import', 'tsx', 'test/fixtures/crash/worker.ts'],
        { STEADFAST_ADDRESS: srv.address, TASK_QUEUE: 'chaos', ACTIVITY_LOG: s.activityLog });
      await w.waitFor(/worker ready/);
      workers.push(w);
      clients.push(new Client({ address: srv.address }));
    }

    const errors: string[] = [];
    let next = 0;
    let finished = 0;
    const running = new Set<number>();
    const pump = async () => {
      while (next < s.workflows) {
        const i = next++;
        const workflowId = `chaos-${i}`;
        running.add(i);
        try {
          const handle = await clients[i % clients.length]!.workflow.start('sleepThenActivity',
            { taskQueue: 'chaos', workflowId, args: [i, s.sleepMs] });
          const result = await handle.result();
          if (result !== i * 2) errors.push(`${workflowId}: result ${JSON.stringify(result)}, expected ${i * 2}`);
        } catch (err) {
          errors.push(`${workflowId}: ${(err as Error).message}`);
        }
        finished++;
        running.delete(i);
      }
    };
    const workload = Promise.all(Array.from({ length: s.concurrency }, pump));

    const done: string[] = [];
    for (const [k, fault] of s.faults.entries()) {
      await sleep(500 + Math.floor(random() * 1500));
      assert.ok(finished < s.workflows, `the workload ended before fault ${k + 1} of ${s.faults.length}; seed ${seed}`);
      if (fault === 'kill') {
        const outage = Math.floor(random() * 1000);
        const pending = next - finished;
        await servers[0]!.kill('SIGKILL');
        const killedAt = Date.now();
        await sleep(outage);
        servers[0] = await startServerProcess(s.database, ports[0]!);
        done.push(`${at()} kill -9 of server 0 with ${pending} results pending; down ${Date.now() - killedAt} ms`);
      } else {
        assert.ok(s.terminateConnections, 'terminate-connections needs terminateConnections');
        const cut = await s.terminateConnections();
        done.push(`${at()} pg_terminate_backend of ${cut} connections with ${next - finished} results pending`);
      }
      s.log(done[done.length - 1]!);
    }
    await stallCheck(workload, new Client({ address: servers[servers.length - 1]!.address, retry: false }), () => pendingIds(next, finished, s.workflows, running), seed);
    const out = workers.map((w) => w.output()).join('\n');
    const count = (re: RegExp) => out.split('\n').filter((l) => re.test(l)).length;
    s.log(`${at()} ${s.workflows} workflows done; worker reports delayed by an outage ${count(/could not report .* yet/)}, ` +
      `delivered later ${count(/reported .* after the service came back/)}, refused ${count(/the service refused/)}, ` +
      `given up ${count(/gave up reporting/)}`);
    for (const line of out.split('\n').filter((l) => /the service refused|gave up reporting/.test(l)).slice(0, 8)) s.log(`  ${line.slice(0, 400)}`);
    assert.deepEqual(errors, [], `client errors (seed ${seed})`);
    assert.equal(done.length, s.faults.length);

    const reader = clients[clients.length - 1]!;
    const runs = new Map<string, number>();
    for await (const e of reader.workflow.list({ workflowIdPrefix: 'chaos-', pageSize: 1000 })) {
      runs.set(e.workflowId, (runs.get(e.workflowId) ?? 0) + 1);
      assert.equal(e.status, 'Completed', `${e.workflowId} status (seed ${seed})`);
    }
    assert.equal(runs.size, s.workflows, `workflows (seed ${seed})`);
    for (const [id, n] of runs) assert.equal(n, 1, `${id} has ${n} runs (seed ${seed})`);
    for (let i = 0; i < s.workflows; i++) {
      const { events } = await reader.workflow.getHandle(`chaos-${i}`).fetchHistory();
      checkHistory(`chaos-${i}`, events);
    }

    const executions = new Map<string, number>();
    const lines = existsSync(s.activityLog) ? readFileSync(s.activityLog, 'utf8').trim().split('\n') : [];
    for (const line of lines) {
      const id = line.split(' ')[0]!;
      executions.set(id, (executions.get(id) ?? 0) + 1);
    }
    const again = [...executions].filter(([, n]) => n > 1).map(([id, n]) => `${id} ran ${n} times`);
    s.log(`activity executions: ${lines.length} for ${s.workflows} workflows${again.length ? `; ${again.join(', ')}` : ''}`);
    for (let i = 0; i < s.workflows; i++) assert.ok((executions.get(`chaos-${i}`) ?? 0) >= 1, `chaos-${i}'s activity ran`);
    if (s.activitiesExactlyOnce) assert.deepEqual(again, [], `activities run more than once (seed ${seed})`);
  } catch (err) {
    s.log(`servers:\n${servers.map((x) => x.output().slice(-3000)).join('\n---\n')}`);
    s.log(`workers:\n${workers.map((x) => x.output().slice(-3000)).join('\n---\n')}`);
    throw err;
  } finally {
    for (const c of clients) c.close();
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    await Promise.all(servers.map((srv) => srv.kill('SIGKILL')));
  }
}
