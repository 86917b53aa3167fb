import { WorkflowExecutionAlreadyStartedError } from '../../common/errors.ts';
import { idReuseVerdict } from '../../history/id-reuse-policy.ts';
import type { StartWorkflowExecutionResponse } from '../../protocol/index.ts';
import type { ExecutionRecord } from '../../store/types.ts';
import type { Attempt, EngineCore } from './engine-core.ts';
import type { ValidStart } from './requests.ts';
import { buildNewRun, terminateRun } from './runs.ts';
import type { TransitionBuilder } from './transition.ts';

/** A new run of `s`, as its first transition builds it (WorkflowExecutionStarted, first workflow task or backoff). */
export function freshRun(core: EngineCore, s: ValidStart): TransitionBuilder {
  const { workflowStartDelayMs: delay, ...spec } = s;
  const b = buildNewRun(core.features, { ...spec, attempt: 1, backoffMs: delay ?? 0 }, core.clock.now());
  // A start delay is the one backoff a signal ends (endStartDelay); its timer is kept by id for that.
  const timer = delay === undefined ? undefined : b.createTimers.find((t) => t.kind === 'WorkflowBackoff');
  if (timer) b.state.startDelayTimerId = timer.id;
  return b;
}

/**
 * Ends a run's start delay at once, as a signal reaching the run during it does in Temporal:
 * its WorkflowBackoff timer goes, the run's execution time is now, and the first workflow task
 * is scheduled by the caller's ensureWorkflowTask.
 */
export function endStartDelay(b: TransitionBuilder): void {
  const id = b.state.startDelayTimerId;
  if (id === undefined) return;
  delete b.state.startDelayTimerId;
  if (b.now >= b.record.executionTime) return;
  b.deleteTimer(id);
  b.record.executionTime = b.now;
}

/**
 * Starts `fresh` as the next run of its workflow id, whose latest run is `latest`, under the id
 * reuse and conflict policies ({@link idReuseVerdict}): beside a closed run, in one transaction
 * with the termination of a running one (TerminateExisting, TerminateIfRunning), or not at all,
 * answering the running run (UseExisting).
 * @throws WorkflowExecutionAlreadyStartedError when the policy refuses.
 */
export function startBeside(
  core: EngineCore, s: ValidStart, latest: ExecutionRecord | undefined, fresh: TransitionBuilder,
): Attempt<StartWorkflowExecutionResponse> {
  const verdict = idReuseVerdict(s.workflowIdReusePolicy, latest, s.workflowIdConflictPolicy);
  if (verdict.kind === 'rejected') {
    throw new WorkflowExecutionAlreadyStartedError(`workflow ${s.workflowId} ${verdict.why}`, s.workflowId, s.workflowType, latest?.runId);
  }
  if (verdict.kind === 'useExisting') return { result: { runId: latest!.runId, started: false } };
  const result = { runId: fresh.record.runId, started: true };
  if (verdict.kind === 'start') return { result, commit: fresh };
  const primary = core.edit(latest!);
  const by = s.workflowIdConflictPolicy === 'TerminateExisting' ? 'workflowIdConflictPolicy TerminateExisting' : 'workflowIdReusePolicy TerminateIfRunning';
  terminateRun(primary, `terminated by a start with ${by}`, undefined, s.identity);
  primary.others.push(fresh);
  return { result, commit: primary };
}

/** What an eager start does around a start's commit (tasks/eager-dispatch.ts). */
export interface StartHooks {
  /** Sees each new run's first transition before it is committed (an eager start starts its first workflow task there). */
  prepare?: ((fresh: TransitionBuilder) => void) | undefined;
  /** Called when an attempt's commit is on its way to the store, not yet written (Attempt.submitted). */
  submitted?: (() => void) | undefined;
}

/**
 * startWorkflowExecution after validation: a repeated request id answers the run it started.
 * The first attempt reads nothing: it starts the run as the workflow id's first, which every id
 * reuse policy allows and no earlier request can have made, and the store refuses it
 * (`workflowIdUsed`) if the id has any run; then the runs are read and the policy decides.
 */
export function startWorkflow(core: EngineCore, s: ValidStart, hooks: StartHooks = {}): Promise<StartWorkflowExecutionResponse> {
  let first = true;
  const { prepare, submitted } = hooks;
  const fresh = () => {
    const b = freshRun(core, s);
    prepare?.(b);
    return b;
  };
  return core.transact<StartWorkflowExecutionResponse>(`starting workflow ${s.workflowId}`, async () => {
    if (first) {
      first = false;
      const b = fresh();
      b.firstOfWorkflowId = true;
      return { result: { runId: b.record.runId, started: true }, commit: b, submitted };
    }
    const { byRequestId: prev, latest } = await core.store.findStartRuns(s.namespace, s.workflowId, s.requestId);
    if (prev) return { result: { runId: prev.runId, started: false } };
    return { ...startBeside(core, s, latest, fresh()), submitted };
  });
}
