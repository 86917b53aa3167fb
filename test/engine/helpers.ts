import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeFeatures, DEFAULT_MESSAGE_LIMITS, Engine } from '../../src/engine/index.ts';
import { SqliteStore } from '../../src/store/index.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import type { Command, CommandAttributes } from '../../src/history/commands.ts';
import type { EventType, HistoryEvent } from '../../src/history/events.ts';
import type { ActivityTask, WorkflowTask } from '../../src/protocol/index.ts';
import type { Store } from '../../src/store/types.ts';

/** 2026-01-01T00:00:00Z: every engine test starts its ManualClock here. */
export const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** The engine's features as an engine with default options composes them (for tests that build a core or a transition by hand). */
export const FEATURES = composeFeatures({ messageLimits: DEFAULT_MESSAGE_LIMITS });

const dir = mkdtempSync(join(tmpdir(), 'steadfast-engine-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** An engine on a fresh SQLite file and a ManualClock at {@link T0}. */
export async function setup(store?: Store): Promise<Harness> {
  const clock = new ManualClock(T0);
  const s = store ?? SqliteStore.open(join(dir, `engine-${process.pid}-${++n}.db`));
  const engine = await Engine.create({ store: s, clock, identity: `test-engine-${n}` });
  return new Harness(engine, s, clock, store === undefined);
}

/** A scripted worker: polls, answers with the commands a test gives, and moves time. */
export class Harness {
  constructor(readonly engine: Engine, readonly store: Store, readonly clock: ManualClock, private readonly ownsStore: boolean) {}

  async close(): Promise<void> {
    await this.engine.shutdown();
    if (this.ownsStore) await this.store.close();
  }

  /** Registers namespaces besides `default` (every call names a registered one). */
  async registerNamespaces(...names: string[]): Promise<void> {
    for (const namespace of names) await this.engine.registerNamespace({ namespace });
  }

  start(workflowId: string, extra: Record<string, unknown> = {}) {
    return this.engine.startWorkflowExecution({ workflowId, workflowType: 'order', taskQueue: 'q', args: ['o-1'], ...extra } as never);
  }

  /** Polls for a workflow task; fails the test if none comes within `ms` of real time. */
  async pollWorkflow(queue = 'q', ms = 3000): Promise<WorkflowTask> {
    const t = await this.engine.pollWorkflowTaskQueue({ taskQueue: queue, identity: 'worker-1', pollTimeoutMs: ms });
    assert.ok(t, `expected a workflow task on ${queue}`);
    return t;
  }

  async pollActivity(queue = 'q', ms = 3000): Promise<ActivityTask> {
    const t = await this.engine.pollActivityTaskQueue({ taskQueue: queue, identity: 'worker-1', pollTimeoutMs: ms });
    assert.ok(t, `expected an activity task on ${queue}`);
    return t;
  }

  /** A poll that must come back empty (short real-time wait). */
  async noActivity(queue = 'q'): Promise<void> {
    const t = await this.engine.pollActivityTaskQueue({ taskQueue: queue, identity: 'worker-1', pollTimeoutMs: 30 });
    assert.equal(t, null, `expected no activity task, got attempt ${t?.attempt}`);
  }

  async noWorkflowTask(queue = 'q'): Promise<void> {
    const t = await this.engine.pollWorkflowTaskQueue({ taskQueue: queue, identity: 'worker-1', pollTimeoutMs: 30 });
    assert.equal(t, null, 'expected no workflow task');
  }

  async complete(task: WorkflowTask, commands: Command[]): Promise<void> {
    await this.engine.respondWorkflowTaskCompleted({ taskToken: task.taskToken, commands, identity: 'worker-1' });
  }

  /** Moves the clock and waits until the engine has processed what became due. */
  async advance(ms: number): Promise<void> {
    await this.clock.advance(ms);
    await this.settle();
  }

  /** Waits (in real time, briefly) until no transition runs and the timer loop sleeps. */
  async settle(): Promise<void> {
    let quiet = 0;
    for (let i = 0; i < 2000 && quiet < 3; i++) {
      await new Promise((r) => setImmediate(r));
      const w = this.engine.pendingWork();
      quiet = w.transitions === 0 && !w.timerLoopBusy ? quiet + 1 : 0;
    }
  }

  async history(workflowId: string, runId?: string): Promise<HistoryEvent[]> {
    return (await this.engine.getWorkflowExecutionHistory({ workflowId, ...(runId ? { runId } : {}), pageSize: 10_000 })).events;
  }

  async types(workflowId: string, runId?: string): Promise<EventType[]> {
    return (await this.history(workflowId, runId)).map((e) => e.eventType);
  }
}

/** Scripted commands. */
export const cmd = {
  activity(activityId: string, attrs: Partial<CommandAttributes['ScheduleActivityTask']> = {}): Command {
    return { commandType: 'ScheduleActivityTask', attributes: { activityId, activityType: 'charge', args: [activityId], startToCloseTimeoutMs: 10_000, ...attrs } };
  },
  timer(timerId: string, ms: number): Command {
    return { commandType: 'StartTimer', attributes: { timerId, startToFireTimeoutMs: ms } };
  },
  complete(result: unknown): Command {
    return { commandType: 'CompleteWorkflowExecution', attributes: { result } };
  },
  fail(message: string, type = 'Boom'): Command {
    return { commandType: 'FailWorkflowExecution', attributes: { failure: { kind: 'Application', message, type } } };
  },
};

/** A history without the attributes that name its run (request and run ids), to compare runs that should match. */
export function comparableHistory(events: HistoryEvent[]) {
  return events.map((e) => {
    const attributes = { ...(e.attributes as Record<string, unknown>) };
    for (const runScoped of ['requestId', 'firstExecutionRunId', 'originalExecutionRunId']) delete attributes[runScoped];
    return { ...e, attributes };
  });
}

/** Asserts event ids 1..n with no gap. */
export function assertContiguous(events: HistoryEvent[]): void {
  assert.deepEqual(events.map((e) => e.eventId), events.map((_, i) => i + 1));
}
