import type { FailureInfo } from '../common/failure.ts';
import type { TimerRecord } from '../store/types.ts';
import { onActivityTimer } from './activities.ts';
import { retryOrClose } from './runs.ts';
import type { TimerData, TimerKind } from './state.ts';
import type { TransitionBuilder } from './transition.ts';
import { onWorkflowTaskTimerFired } from './workflow-tasks.ts';

type TimerHandler<K extends TimerKind> = (b: TransitionBuilder, data: TimerData[K], timer: TimerRecord) => void;

/**
 * What each timer kind does when it fires. The caller consumes the timer row in the same
 * transaction, so a timer fires once even with several servers; a timer whose target is gone
 * (the activity closed, the task completed) does nothing.
 */
export const TIMER_HANDLERS: { [K in TimerKind]: TimerHandler<K> } = {
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

/** Applies a fired timer to its run's transition. */
export function applyTimer(b: TransitionBuilder, timer: TimerRecord): void {
  b.consumeTimerId = timer.id;
  const handler = TIMER_HANDLERS[timer.kind as TimerKind] as TimerHandler<TimerKind> | undefined;
  if (handler) handler(b, timer.data as never, timer);
}
