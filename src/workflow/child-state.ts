import { fromFailureInfo, type FailureInfo } from '../common/failure.ts';

/** One child workflow of the run, from its command until its close event. */
interface PendingChild {
  workflowId: string;
  runId?: string | undefined;
  /** Resolves with the child's first run id once ChildWorkflowExecutionStarted is applied. */
  onStarted(runId: string): void;
  /** Rejects startChild(): the start failed (id taken) or was cancelled before it was sent. */
  onStartFailed(err: Error): void;
  onResult(value: unknown): void;
  onFailed(err: Error): void;
}

/**
 * The children of a run by sequence number (the `control` of their StartChildWorkflowExecution
 * command, so a replay that takes the same path finds the same children).
 */
export class ChildState {
  seq = 0;
  readonly pending = new Map<number, PendingChild>();

  resolveStart(job: { seq: number; runId?: string; failure?: FailureInfo }): void {
    const child = this.pending.get(job.seq);
    if (!child) return;
    if (job.failure) {
      this.pending.delete(job.seq);
      child.onStartFailed(fromFailureInfo(job.failure));
      return;
    }
    child.runId = job.runId;
    child.onStarted(job.runId ?? '');
  }

  resolve(job: { seq: number; result?: unknown; failure?: FailureInfo }): void {
    const child = this.pending.get(job.seq);
    if (!child) return;
    this.pending.delete(job.seq);
    if (job.failure) child.onFailed(fromFailureInfo(job.failure));
    else child.onResult(job.result);
  }
}
