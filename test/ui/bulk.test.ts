import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkflowExecutionInfo } from '../../src/protocol/index.ts';
import { ApiError, type ListRequest } from '../../src/ui/api.ts';
import { runBulk, type BulkCalls, type BulkProgress } from '../../src/ui/bulk.ts';

function run(i: number, status: WorkflowExecutionInfo['status'] = 'Running', workflowId = `wf-${i}`): WorkflowExecutionInfo {
  const t = new Date(1_800_000_000_000 - i * 1000).toISOString();
  return {
    namespace: 'default', workflowId, runId: `run-${i}`, workflowType: 't', taskQueue: 'q', status, startTime: t, executionTime: t,
    historyLength: 3, attempt: 1, firstExecutionRunId: `run-${i}`, originalExecutionRunId: `run-${i}`,
  };
}

/** Fake calls over a fixed list of runs, paged by index; records the in-flight peak and the calls. */
function fake(runs: WorkflowExecutionInfo[], fail: (r: string) => Error | undefined = () => undefined) {
  let inFlight = 0;
  const state = { peak: 0, calls: [] as string[], pages: [] as (string | undefined)[] };
  const act = (what: string) => async (_ns: string, _wf: string, runId: string) => {
    inFlight++;
    state.peak = Math.max(state.peak, inFlight);
    await new Promise((r) => setTimeout(r, 1));
    inFlight--;
    state.calls.push(`${what} ${runId}`);
    const err = fail(runId);
    if (err) throw err;
    return { runId: `${runId}-reset` };
  };
  const calls = {
    list: async (req: ListRequest) => {
      state.pages.push(req.nextPageToken);
      const from = Number(req.nextPageToken ?? 0);
      const to = from + req.pageSize!;
      return { executions: runs.slice(from, to), ...(to < runs.length ? { nextPageToken: String(to) } : {}) };
    },
    cancel: act('cancel'), terminate: act('terminate'), reset: act('reset'),
    signal: async (ns: string, wf: string, runId: string) => act('signal')(ns, wf, runId),
  } as unknown as BulkCalls;
  return { calls, state };
}

test('every run of every page gets the action, never more than `concurrency` at once, closed runs skipped', async () => {
  const runs = Array.from({ length: 25 }, (_, i) => run(i, i % 5 === 4 ? 'Completed' : 'Running'));
  const { calls, state } = fake(runs);
  const seen: BulkProgress[] = [];
  const p = await runBulk({
    namespace: 'default', query: 'x', action: { kind: 'terminate', reason: 'r' }, total: 25, concurrency: 3, pageSize: 10, calls, onProgress: (s) => seen.push(s),
  });
  assert.deepEqual([p.done, p.skipped, p.failed, p.finished, p.stopped], [20, 5, 0, true, false]);
  assert.deepEqual(state.pages, [undefined, '10', '20']);
  assert.equal(state.peak, 3);
  assert.deepEqual(state.calls.sort(), runs.filter((r) => r.status === 'Running').map((r) => `terminate ${r.runId}`).sort());
  assert.ok(seen.length > 3 && seen.every((s, i) => i === 0 || s.done >= seen[i - 1]!.done), 'progress only moves forward');
});

test('a run that closed meanwhile is skipped; other errors are failures with their message; a list error ends it', async () => {
  const runs = [run(1), run(2), run(3)];
  const { calls } = fake(runs, (id) => id === 'run-1' ? new ApiError('FailedPrecondition', 'already Completed')
    : id === 'run-2' ? new ApiError('PermissionDenied', 'needs the writer role') : undefined);
  const p = await runBulk({ namespace: 'default', query: '', action: { kind: 'cancel', reason: 'r' }, total: 3, calls, onProgress: () => undefined });
  assert.deepEqual([p.done, p.skipped, p.failed], [1, 1, 1]);
  assert.deepEqual(p.failures, [{ workflowId: 'wf-2', runId: 'run-2', message: 'needs the writer role' }]);

  const broken = { ...calls, list: async () => { throw new ApiError('InvalidArgument', 'bad query'); } } as BulkCalls;
  const q = await runBulk({ namespace: 'default', query: '(', action: { kind: 'cancel', reason: 'r' }, total: 0, calls: broken, onProgress: () => undefined });
  assert.equal(q.error, 'listing the runs failed: bad query');
  assert.ok(q.finished);
});

test('reset acts once per workflow, also on closed runs, and leaves the runs it made alone', async () => {
  const runs = [run(1, 'Completed'), run(2, 'Running', 'wf-1'), { ...run(3), runId: 'run-1-reset' }];
  const { calls, state } = fake(runs);
  const p = await runBulk({
    namespace: 'default', query: '', action: { kind: 'reset', resetType: 'LastWorkflowTask', reason: 'r' }, total: 3, concurrency: 1, calls, onProgress: () => undefined,
  });
  assert.deepEqual(state.calls, ['reset run-1']);
  assert.deepEqual([p.done, p.skipped], [1, 2]);
});

test('stopping takes no further runs', async () => {
  const runs = Array.from({ length: 50 }, (_, i) => run(i));
  const { calls, state } = fake(runs);
  const ctl = new AbortController();
  const p = await runBulk({
    namespace: 'default', query: '', action: { kind: 'signal', signalName: 's', args: [] }, total: 50, concurrency: 2, pageSize: 10, calls, signal: ctl.signal,
    onProgress: (s) => { if (s.done === 4) ctl.abort(); },
  });
  assert.ok(p.stopped);
  assert.ok(state.calls.length < 10, `${state.calls.length} calls`);
});

test('a call the server throttles (429 ResourceExhausted) is tried again after the time it asks', async () => {
  const runs = [run(1), run(2)];
  const answers = new Map<string, number>();
  const { calls, state } = fake(runs, (id) => {
    const n = (answers.get(id) ?? 0) + 1;
    answers.set(id, n);
    return n <= 2 ? new ApiError('ResourceExhausted', 'signals per second of namespace default over 2400', undefined, undefined, 5) : undefined;
  });
  const p = await runBulk({ namespace: 'default', query: '', action: { kind: 'signal', signalName: 's', args: [] }, total: 2, calls, onProgress: () => undefined });
  assert.deepEqual([p.done, p.failed], [2, 0]);
  assert.equal(state.calls.length, 6, 'three tries of each run');
});
