import { encodePayload } from '../../common/payload.ts';
import { optionalRecord, requireString } from '../../common/validate.ts';
import { mergeMemo } from '../../history/memo.ts';
import { checkUserMetadata } from '../../history/user-metadata.ts';
import { ValidationError } from '../../errors/index.ts';
import { requireFailure } from '../core/requests.ts';
import { endedByFeature, retryOrClose } from '../core/runs.ts';
import { wtKey } from '../core/queue-book.ts';
import { runTimer, type Feature } from '../core/feature.ts';
import { onWorkflowTaskTimerFired } from './workflow-tasks.ts';
import type { FailureInfo } from '../../common/failure.ts';

const iso = (ms: number) => new Date(ms).toISOString();

const fireTaskTimeout = runTimer<'WorkflowTaskTimeout'>((b, { seq, attempt }) => onWorkflowTaskTimerFired(b, seq, attempt));

/**
 * Workflow tasks and the run's own lifecycle: the commands that record a marker, change the
 * run's properties, complete or fail the run; the WorkflowTaskTimeout and RunTimeout timers;
 * describe's pending workflow task. Its state slice is the `wt*` fields of RunState; the task
 * side (start, complete, fail, time out) is workflow-tasks.ts.
 */
export const workflowTaskFeature = {
  commands: {
    RecordMarker({ b, completedEventId, field }, a) {
      const markerName = requireString(`${field}.markerName`, a.markerName);
      const details = optionalRecord(`${field}.details`, a.details) ?? {};
      encodePayload(`${field}.details`, details);
      const failure = a.failure === undefined ? undefined : requireFailure(`${field}.failure`, a.failure);
      const userMetadata = checkUserMetadata(`${field}.userMetadata`, a.userMetadata, false);
      b.append('MarkerRecorded', {
        markerName, details, workflowTaskCompletedEventId: completedEventId, ...(failure ? { failure } : {}), ...(userMetadata ? { userMetadata } : {}),
      });
    },

    CompleteWorkflowExecution({ b, completedEventId, field }, a) {
      encodePayload(`${field}.result`, a.result);
      if (endedByFeature(b, { status: 'Completed', result: a.result === undefined ? null : a.result }, completedEventId)) return;
      b.close('Completed', 'WorkflowExecutionCompleted', { result: a.result === undefined ? null : a.result, workflowTaskCompletedEventId: completedEventId });
    },

    FailWorkflowExecution({ b, completedEventId, field }, a) {
      retryOrClose(b, requireFailure(`${field}.failure`, a.failure), 'failed', completedEventId);
    },

    ModifyWorkflowProperties({ b, completedEventId, field }, a) {
      const upsertedMemo = optionalRecord(`${field}.upsertedMemo`, a.upsertedMemo);
      if (upsertedMemo === undefined) throw new ValidationError(`${field}.upsertedMemo`, 'must be an object of memo fields', a.upsertedMemo);
      encodePayload(`${field}.upsertedMemo`, upsertedMemo);
      b.append('WorkflowPropertiesModified', { upsertedMemo, workflowTaskCompletedEventId: completedEventId });
      const memo = mergeMemo(b.record.memo, upsertedMemo);
      if (memo) b.record.memo = memo;
      else delete b.record.memo;
    },
  },
  timers: {
    WorkflowTaskTimeout: (core, timer) => {
      // The worker's answer to a timed-out attempt is no longer awaited.
      core.inFlight.delete(wtKey({ runId: timer.runId, ...timer.data }));
      return fireTaskTimeout(core, timer);
    },
    RunTimeout: runTimer((b) => {
      if (b.closed) return;
      b.flushBuffered();
      const exp = b.state.cfg.expirationTime;
      if (exp !== undefined && b.now >= exp) {
        b.close('TimedOut', 'WorkflowExecutionTimedOut', { retryState: 'Timeout' });
        return;
      }
      const failure: FailureInfo = { kind: 'Timeout', message: 'workflow run timed out', timeoutType: 'StartToClose' };
      retryOrClose(b, failure, 'timedOut');
    }),
  },
  describe(s, d) {
    if (!s.wt) return;
    d.pendingWorkflowTask = {
      state: s.wt.startedTime !== undefined ? 'Started' : 'Scheduled', attempt: s.wt.attempt, scheduledTime: iso(s.wt.scheduledTime),
      ...(s.wt.startedTime !== undefined ? { startedTime: iso(s.wt.startedTime) } : {}),
    };
    const f = s.wtLastFailure;
    if (f) {
      d.pendingWorkflowTask.lastFailure = {
        cause: f.cause, message: f.message, ...(f.type !== undefined ? { type: f.type } : {}), ...(f.stack !== undefined ? { stack: f.stack } : {}),
        attempt: f.attempt, failedTime: iso(f.time), identity: f.identity,
      };
    }
  },
  rebuild(b, events) {
    for (const e of events) if (e.eventType === 'WorkflowTaskCompleted') b.state.previousStartedEventId = e.attributes.startedEventId;
  },
} satisfies Feature;
