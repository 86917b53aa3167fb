// Regression: held commits lost notices when many transitions of one run ran at once. This drives
// children closing, signals, activity completions, timers firing and updates into one run at
// random moments, with polls waiting (eager dispatch), and checks that every notice is in the
// run's history exactly once. CI runs a fixed set of seeds; STEADFAST_NOTICE_SEEDS=500 runs more.
import assert from 'node:assert/strict';
import { fixtureTest } from '../helpers/fixture.ts';
import { engineStores } from './stores.ts';
import type { Command } from '../../src/history/commands.ts';
import type { HistoryEvent } from '../../src/history/events.ts';
import { assertContiguous, cmd, type Harness } from './helpers.ts';
import { unitRandom } from '../../src/retry/random.ts';

const SEEDS = Number(process.env.STEADFAST_NOTICE_SEEDS ?? 12);

/** Numbers drawn from the project's seeded generator: the same seed, the same plan and the same moments. */
function rng(seed: number): { int(max: number): number } {
  let index = 0;
  return { int: (max) => Math.floor(unitRandom(seed, index++, 0) * max) };
}

/** A few turns of the event loop, `n` of them. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

interface Plan { activities: number; timers: number; children: number; signals: number; updates: number }

/** Runs one seeded plan on run `id` and checks its history. */
async function runPlan(h: Harness, id: string, seed: number): Promise<void> {
  const r = rng(seed);
  const plan: Plan = { activities: r.int(12), timers: r.int(8), children: r.int(6), signals: r.int(12), updates: r.int(4) };
  await h.start(id);
  const first = await h.pollWorkflow();
  const commands: Command[] = [
    ...Array.from({ length: plan.activities }, (_, i) => cmd.activity(`a${i}`)),
    ...Array.from({ length: plan.timers }, (_, i) => cmd.timer(`t${i}`, 100 + r.int(900))),
    ...Array.from({ length: plan.children }, (_, i): Command => ({
      commandType: 'StartChildWorkflowExecution', attributes: { workflowId: `${id}-c${i}`, workflowType: 'child', taskQueue: `${id}-cq`, args: [] },
    })),
  ];
  await h.complete(first, commands);
  let closed = false;
  const expected = (events: HistoryEvent[]) => {
    const n = (t: string) => events.filter((e) => e.eventType === t).length;
    return n('ActivityTaskCompleted') === plan.activities && n('TimerFired') === plan.timers && n('ChildWorkflowExecutionCompleted') === plan.children
      && n('WorkflowExecutionSignaled') === plan.signals && n('WorkflowExecutionUpdateAccepted') === plan.updates;
  };
  // The run's worker: completes each accepted update, and the run once every notice is in.
  const workflowWorker = (async () => {
    const answered = new Set<string>();
    const deadline = Date.now() + 60_000;
    while (!closed) {
      if (Date.now() > deadline) {
        const c: Record<string, number> = {};
        for (const e of await h.history(id)) c[e.eventType] = (c[e.eventType] ?? 0) + 1;
        assert.fail(`seed ${seed}: the run did not get every notice in 60 s; plan ${JSON.stringify(plan)}, history ${JSON.stringify(c)}`);
      }
      const task = await h.engine.pollWorkflowTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 200 });
      if (!task) continue;
      const events = await h.history(id);
      const answers: Command[] = [];
      for (const e of events) {
        if (e.eventType !== 'WorkflowExecutionUpdateAccepted' || answered.has(e.attributes.updateId)) continue;
        answered.add(e.attributes.updateId);
        answers.push({ commandType: 'CompleteWorkflowExecutionUpdate', attributes: { updateId: e.attributes.updateId, acceptedEventId: e.eventId, outcome: { result: 'ok' } } });
      }
      const done = expected(events) && answered.size === plan.updates;
      await h.complete(task, done ? [...answers, cmd.complete('done')] : answers);
      if (done) closed = true;
    }
  })();
  const childWorker = (async () => {
    for (let i = 0; i < plan.children; i++) await h.complete(await h.pollWorkflow(`${id}-cq`), [cmd.complete(`child ${i}`)]);
  })();
  const activityWorker = (async () => {
    for (let i = 0; i < plan.activities; i++) {
      const task = await h.pollActivity('q');
      await turns(r.int(4));
      await h.engine.respondActivityTaskCompleted({ taskToken: task.taskToken, result: task.activityId, identity: 'w' });
    }
  })();
  const signals = Promise.all(Array.from({ length: plan.signals }, async (_, i) => {
    await turns(r.int(20));
    await h.engine.signalWorkflowExecution({ workflowId: id, signalName: 's', args: [i], identity: 'c' });
  }));
  let admitted = false;
  // Validations: one per try of an update (a try is decided again when events arrive meanwhile).
  const validator = (async () => {
    while (!admitted) {
      const q = await h.engine.pollQueryTaskQueue({ taskQueue: 'q', identity: 'w', pollTimeoutMs: 100 });
      if (q) await h.engine.respondQueryTaskCompleted({ taskToken: q.taskToken, identity: 'w' });
    }
  })();
  const updates = Promise.all(Array.from({ length: plan.updates }, async (_, i) => {
    await turns(r.int(20));
    for (;;) {
      try {
        return await h.engine.updateWorkflowExecution({ workflowId: id, updateName: 'u', args: [i], updateId: `u${i}` });
      } catch (err) {
        if ((err as { code?: string }).code !== 'Unavailable') throw err;
      }
    }
  })).finally(() => (admitted = true));
  const clock = (async () => {
    for (let i = 0; i < 12; i++) {
      await turns(r.int(10));
      await h.clock.advance(100);
    }
  })();
  const actors = { childWorker, activityWorker, signals, validator, updates, clock, workflowWorker };
  const pending = new Set(Object.keys(actors));
  let watchdog: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    watchdog = setTimeout(() => reject(new Error(`seed ${seed}: stuck after 90 s in ${[...pending].join(', ')}; plan ${JSON.stringify(plan)}`)), 90_000);
  });
  try {
    await Promise.race([stuck, Promise.all(Object.entries(actors).map(([name, p]) => p.then(() => void pending.delete(name))))]);
  } finally {
    clearTimeout(watchdog);
    closed = true;
    admitted = true;
  }
  const events = await h.history(id);
  assertContiguous(events);
  const ids = (type: string, key: (e: HistoryEvent) => unknown) => events.filter((e) => e.eventType === type).map(key).map(String).sort();
  const seq = (n: number, prefix = '') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).sort();
  const attrs = (e: HistoryEvent) => e.attributes as Record<string, unknown>;
  const what = `seed ${seed}, plan ${JSON.stringify(plan)}`;
  assert.deepEqual(ids('WorkflowExecutionSignaled', (e) => (attrs(e).args as number[])[0]), seq(plan.signals), `signals once each: ${what}`);
  assert.equal(ids('ActivityTaskCompleted', (e) => attrs(e).scheduledEventId).length, plan.activities, `activities once each: ${what}`);
  assert.equal(new Set(ids('ActivityTaskCompleted', (e) => attrs(e).scheduledEventId)).size, plan.activities, what);
  assert.deepEqual(ids('TimerFired', (e) => attrs(e).timerId), seq(plan.timers, 't'), `timers once each: ${what}`);
  assert.deepEqual(ids('ChildWorkflowExecutionCompleted', (e) => attrs(e).workflowId), seq(plan.children, `${id}-c`), `children once each: ${what}`);
  assert.deepEqual(ids('WorkflowExecutionUpdateAccepted', (e) => attrs(e).updateId), seq(plan.updates, 'u'), `updates accepted once each: ${what}`);
  assert.deepEqual(ids('WorkflowExecutionUpdateCompleted', (e) => attrs(e).updateId), seq(plan.updates, 'u'), `updates completed once each: ${what}`);
  assert.ok(!events.some((e) => e.eventType === 'WorkflowTaskFailed'), what);
  assert.equal(events.at(-1)!.eventType, 'WorkflowExecutionCompleted', what);
}

const stores = await engineStores('concurrent notices', 'sf_notices');

for (const store of stores) {
  fixtureTest(`${store.name}: notices that reach one run at random moments are each recorded once (${SEEDS} seeds)`, { skip: store.skip, timeout: 600_000 }, async (f) => {
    const h = await f.engine(await store.open(f));
    for (let seed = 1; seed <= SEEDS; seed++) await runPlan(h, `notices-${seed}`, seed);
  });
}
