import type { FailureInfo } from '../../common/failure.ts';
import type { TimerKind } from '../../history/timer-kinds.ts';
import type { TimerRecord } from '../../store/types.ts';
import type { EngineCore } from './engine-core.ts';
import { onActivityTimer } from '../activity/activities.ts';
import { retryOrClose } from './runs.ts';
import type { TimerRowData } from './timer-data.ts';
import type { TransitionBuilder } from './transition.ts';
import { onWorkflowTaskTimerFired } from '../workflow-task/workflow-tasks.ts';

/** The true timers that act on the run that owns them (ScheduleFire acts on a schedule). */
export type RunTimerKind = Exclude<TimerKind, 'ScheduleFire'>;

type RunTimerHandler<K extends RunTimerKind> = (b: TransitionBuilder, data: TimerRowData[K], timer: TimerRecord<K>) => void;

/**
 * What each run timer does when it fires, inside its run's transition. The caller consumes the
 * timer row in the same transaction, so a timer fires once even with several servers; a timer
 * whose target is gone (the activity closed, the task completed) does nothing.
 */
export const RUN_TIMER_HANDLERS: { [K in RunTimerKind]: RunTimerHandler<K> } = {
  UserTimer(b, { timerId }, timer) {
    const t = b.state.timers[timerId];
    if (b.closed || !t || t.timerRowId !== timer.id) return;
    delete b.state.timers[timerId];
    b.addEvent('TimerFired', { timerId, startedEventId: t.startedEventId });
    b.ensureWorkflowTask();
  },
  ActivityTimeout(b, { scheduledEventId }, timer) {
    const act = b.state.activities[String(scheduledEventId)];
    if (b.closed || !act || act.timer?.id !== timer.id) return;
    onActivityTimer(b, act);
  },
  WorkflowTaskTimeout(b, { seq, attempt }) {
    onWorkflowTaskTimerFired(b, seq, attempt);
  },
  RunTimeout(b) {
    if (b.closed) return;
    b.flushBuffered();
    const exp = b.state.cfg.expirationTime;
    if (exp !== undefined && b.now >= exp) {
      b.close('TimedOut', 'WorkflowExecutionTimedOut', { retryState: 'Timeout' });
      return;
    }
    const failure: FailureInfo = { kind: 'Timeout', message: 'workflow run timed out', timeoutType: 'StartToClose' };
    retryOrClose(b, failure, 'timedOut');
  },
  WorkflowBackoff(b) {
    if (!b.closed) b.ensureWorkflowTask();
  },
};

/** Fires a run timer: applies it inside its run's transition ({@link RUN_TIMER_HANDLERS}). */
export function fireRunTimer<K extends RunTimerKind>(core: EngineCore, timer: TimerRecord<K>): Promise<void> {
  return core.mutate(timer.runId, (b) => applyTimer(b, timer));
}

/** Applies a fired run timer to its run's transition, consuming the timer row in it. */
export function applyTimer<K extends RunTimerKind>(b: TransitionBuilder, timer: TimerRecord<K>): void {
  b.consumeTimerId = timer.id;
  (RUN_TIMER_HANDLERS[timer.kind] as RunTimerHandler<K>)(b, timer.data as TimerRowData[K], timer);
}
