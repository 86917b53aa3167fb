import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { bundleWorkflows } from '../../src/worker/bundler.ts';
import { sandboxRejectionHook } from '../../src/worker/sandbox.ts';
import { WorkflowRun, WorkflowTaskFailedError } from '../../src/worker/workflow-run.ts';
import { HistoryBuilder } from '../workflow/history-builder.ts';
import type { Command } from '../../src/history/commands.ts';

const WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/shared-realm.ts', import.meta.url));

/** One run driven by hand; `reuseV8Context` picks the shared realm or a realm of its own. */
async function start(workflowType: string, runId: string, startTime: number, reuseV8Context = true) {
  const history = new HistoryBuilder({ workflowType, runId, startTime });
  const run = new WorkflowRun(await bundleWorkflows(WORKFLOWS), { namespace: 'default', workflowId: `wf-${runId}`, runId }, undefined,
    { reuseV8Context });
  return {
    history,
    async next(): Promise<Command[]> {
      const commands = await run.apply(history.startTask());
      history.completeTask(commands!);
      return commands!;
    },
  };
}

function result(commands: Command[]): unknown {
  const done = commands.find((c) => c.commandType === 'CompleteWorkflowExecution');
  assert.ok(done, `expected the run to complete, got ${commands.map((c) => c.commandType).join(', ')}`);
  return (done.attributes as { result: unknown }).result;
}

for (const reuseV8Context of [true, false]) {
  test(`reuseV8Context ${reuseV8Context}: each run has its own module state, time and randomness, activations interleaved`, async () => {
    const a = await start('moduleState', 'run-a', Date.UTC(2024, 0, 1), reuseV8Context);
    const b = await start('moduleState', 'run-b', Date.UTC(2025, 0, 1), reuseV8Context);
    await Promise.all([a.next(), b.next()]);
    a.history.timerFired('1');
    b.history.timerFired('1');
    const [ra, rb] = await Promise.all([a.next(), b.next()]);
    const va = result(ra) as { started: number; loadedAt: number; firstDraw: number };
    const vb = result(rb) as { started: number; loadedAt: number; firstDraw: number };
    assert.equal(va.started, 1);
    assert.equal(vb.started, 1);
    // Module top-level code ran for each run, at that run's time, with that run's seeded randomness.
    assert.equal(va.loadedAt, Date.UTC(2024, 0, 1));
    assert.equal(vb.loadedAt, Date.UTC(2025, 0, 1));
    assert.notEqual(va.firstDraw, vb.firstDraw);
    // The same run id draws the same number again (replay).
    const again = await start('moduleState', 'run-a', Date.UTC(2024, 0, 1), reuseV8Context);
    await again.next();
    again.history.timerFired('1');
    assert.equal((result(await again.next()) as { firstDraw: number }).firstDraw, va.firstDraw);
  });

  test(`reuseV8Context ${reuseV8Context}: a global a run assigns stays its own while other runs assign theirs`, async () => {
    const runs = await Promise.all(['g-1', 'g-2', 'g-3'].map((id, i) => start('ownGlobal', id, Date.UTC(2024, 0, 1 + i), reuseV8Context)));
    await Promise.all(runs.map((r) => r.next()));
    for (const r of runs) r.history.timerFired('1');
    const results = await Promise.all(runs.map(async (r) => result(await r.next())));
    assert.deepEqual(results, [['g-1', Date.UTC(2024, 0, 1)], ['g-2', Date.UTC(2024, 0, 2)], ['g-3', Date.UTC(2024, 0, 3)]]);
    assert.equal((globalThis as Record<string, unknown>).owner, undefined);
  });

  test(`reuseV8Context ${reuseV8Context}: an unhandled rejection fails only the task of the run that made it`, async () => {
    const bad = await start('rejectsUnhandled', 'bad', Date.UTC(2024, 0, 1), reuseV8Context);
    const good = await start('moduleState', 'good', Date.UTC(2024, 0, 1), reuseV8Context);
    await Promise.all([bad.next(), good.next()]);
    bad.history.timerFired('1');
    good.history.timerFired('1');
    // node:test fails whichever test is running on any unhandled rejection; step aside for this one.
    const runnerListeners = process.listeners('unhandledRejection').filter((l) => l !== sandboxRejectionHook);
    for (const l of runnerListeners) process.off('unhandledRejection', l);
    let badTask: PromiseSettledResult<Command[]>;
    let goodTask: PromiseSettledResult<Command[]>;
    try {
      // Both activations run in the same turn, so both are pending when Node reports the rejection.
      [badTask, goodTask] = await Promise.allSettled([bad.next(), good.next()]);
    } finally {
      for (const l of runnerListeners) process.on('unhandledRejection', l);
    }
    assert.equal(badTask.status, 'rejected');
    assert.ok((badTask as PromiseRejectedResult).reason instanceof WorkflowTaskFailedError);
    assert.match(String((badTask as PromiseRejectedResult).reason.message), /Unhandled promise rejection in workflow code: nobody handles this/);
    assert.equal(goodTask.status, 'fulfilled');
    assert.equal((result((goodTask as PromiseFulfilledResult<Command[]>).value) as { started: number }).started, 1);
  });
}

test('built-in objects are shared by the runs of one realm, and not with reuseV8Context false', async () => {
  const first = await start('patchesBuiltin', 'p-1', Date.UTC(2024, 0, 1));
  assert.equal(result(await first.next()), 'p-1');
  const second = await start('patchesBuiltin', 'p-2', Date.UTC(2024, 0, 1));
  assert.equal(result(await second.next()), 'p-1');
  const isolated = await start('patchesBuiltin', 'p-3', Date.UTC(2024, 0, 1), false);
  assert.equal(result(await isolated.next()), 'p-3');
  assert.equal((Array.prototype as unknown as Record<string, unknown>).steadfastMark, undefined);
});
