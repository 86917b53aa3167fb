import assert from 'node:assert/strict';
import { Client, type WorkflowHandle } from '../../src/client/index.ts';
import type { HistoryEvent } from '../../src/history/index.ts';
import { freePort, spawnNode, startServerProcess, type Child } from '../helpers/processes.ts';

export interface CrashScenario {
  /** Database URL every server process opens. */
  database: string;
  /** Server processes sharing the database (2 needs PostgreSQL). */
  servers: 1 | 2;
  workflows: number;
  /** Kill -9 server 0 once this many starts were acknowledged. */
  killAfter: number;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Streams workflows at the servers, kills server 0 with SIGKILL in the middle, restarts it,
 * and checks that every acknowledged workflow completed exactly once with an intact history.
 */
export async function runCrashScenario(s: CrashScenario): Promise<void> {
  const ports = await Promise.all(Array.from({ length: s.servers }, () => freePort()));
  const servers: (Child & { address: string })[] = [];
  const workers: Child[] = [];
  const clients: Client[] = [];
  try {
    for (const port of ports) servers.push(await startServerProcess(s.database, port));
    for (const srv of servers) {
      const w = spawnNode(['--import', 'tsx', 'test/fixtures/crash/worker.ts'], { STEADFAST_ADDRESS: srv.address, TASK_QUEUE: 'crash' });
      await w.waitFor(/worker ready/);
      workers.push(w);
      clients.push(new Client({ address: srv.address }));
    }

    const acknowledged = new Map<string, number>();
    let killed = false;
    let restarted: Promise<void> | undefined;
    let next = 0;
    // The client retries a start that finds the server down, with the same request id each time.
    const startOne = async (i: number) => {
      const workflowId = `crash-${i}`;
      await clients[i % clients.length]!.workflow.start('timerThenActivity', { taskQueue: 'crash', workflowId, args: [i] });
      acknowledged.set(workflowId, i);
    };
    const pump = async () => {
      while (next < s.workflows) {
        const i = next++;
        await startOne(i);
        if (!killed && acknowledged.size >= s.killAfter) {
          killed = true;
          s.log(`kill -9 server 0 after ${acknowledged.size} acknowledged starts`);
          await servers[0]!.kill('SIGKILL');
          restarted = (async () => {
            await sleep(300);
            servers[0] = await startServerProcess(s.database, ports[0]!);
            s.log('server 0 restarted');
          })();
        }
      }
    };
    await Promise.all(Array.from({ length: 10 }, pump));
    await restarted;
    assert.ok(killed, 'the server was killed during the stream');
    assert.equal(acknowledged.size, s.workflows);

    const reader = clients[clients.length - 1]!;
    let watchdog: NodeJS.Timeout | undefined;
    let waitingFor = '';
    const overdue = new Promise<never>((_, reject) => {
      watchdog = setTimeout(() => {
        void (async () => {
          const stuck = reader.workflow.getHandle(waitingFor);
          const [described, history] = await Promise.all([stuck.describe(), stuck.fetchHistory()]).catch((err) => [String(err), { events: [] }] as const);
          reject(new Error(`${waitingFor} did not complete in 60 s\ndescribe: ${JSON.stringify(described, null, 1)}\n` +
            `history: ${history.events.map((e) => `${e.eventId} ${e.eventType} ${e.eventTime}`).join('\n')}\n` +
            `workers:\n${workers.map((w) => w.output()).join('\n')}\nservers:\n${servers.map((x) => x.output()).join('\n')}`));
        })();
      }, 60_000);
    });
    try {
      for (const [workflowId, i] of acknowledged) {
        waitingFor = workflowId;
        const handle: WorkflowHandle = reader.workflow.getHandle(workflowId);
        const result = await Promise.race([handle.result(), overdue]);
        assert.equal(result, i * 2, `${workflowId} result`);
        const { events } = await handle.fetchHistory();
        checkHistory(workflowId, events);
      }
    } finally {
      clearTimeout(watchdog);
    }
    // Exactly once: one run per workflow id, and it completed.
    const runs = new Map<string, number>();
    for await (const e of reader.workflow.list({ workflowIdPrefix: 'crash-', pageSize: 500 })) {
      runs.set(e.workflowId, (runs.get(e.workflowId) ?? 0) + 1);
      assert.equal(e.status, 'Completed', `${e.workflowId} status`);
    }
    assert.equal(runs.size, s.workflows);
    for (const [id, n] of runs) assert.equal(n, 1, `${id} has ${n} runs`);
  } finally {
    for (const c of clients) c.close();
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    await Promise.all(servers.map((srv) => srv.kill('SIGKILL')));
  }
}

/** Contiguous ids, one completion, and every started timer fired exactly once. */
export function checkHistory(workflowId: string, events: HistoryEvent[]): void {
  events.forEach((e, i) => assert.equal(e.eventId, i + 1, `${workflowId}: event ids contiguous`));
  assert.equal(events.filter((e) => e.eventType === 'WorkflowExecutionCompleted').length, 1, `${workflowId}: one completion`);
  const started = events.filter((e) => e.eventType === 'TimerStarted').length;
  const fired = events.filter((e) => e.eventType === 'TimerFired').length;
  assert.equal(started, 1, `${workflowId}: one timer started`);
  assert.equal(fired, 1, `${workflowId}: the timer fired exactly once`);
}
