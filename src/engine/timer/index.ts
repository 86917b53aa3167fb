import { requireDurationMs } from '../core/requests.ts';
import { requireString } from '../../common/validate.ts';
import { checkUserMetadata } from '../../history/user-metadata.ts';
import { ValidationError } from '../../errors/index.ts';
import { runTimer } from '../core/feature.ts';
import { timerSlice } from './timer-state.ts';
import type { HistoryEvent } from '../../history/events.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import type { Feature } from '../core/feature.ts';

/** User timers: StartTimer and CancelTimer, and the UserTimer timer. Its state slice is `RunState.timers`. */
export const timerFeature = {
  commands: {
    StartTimer({ b, completedEventId, field }, a) {
      const timerId = requireString(`${field}.timerId`, a.timerId);
      const ms = requireDurationMs(`${field}.startToFireTimeoutMs`, a.startToFireTimeoutMs, 1);
      if (b.state.timers[timerId]) throw new ValidationError(`${field}.timerId`, 'must be unique among the pending timers of the run', timerId);
      const userMetadata = checkUserMetadata(`${field}.userMetadata`, a.userMetadata, false);
      const ev = b.append('TimerStarted', {
        timerId, startToFireTimeoutMs: ms, workflowTaskCompletedEventId: completedEventId, ...(userMetadata ? { userMetadata } : {}),
      });
      const dueAt = b.now + ms;
      b.state.timers[timerId] = { startedEventId: ev.eventId, dueAt, timerRowId: b.addTimer('UserTimer', dueAt, { timerId }) };
    },

    CancelTimer({ b, completedEventId, field }, a) {
      const timerId = requireString(`${field}.timerId`, a.timerId);
      const t = b.state.timers[timerId];
      if (!t) throw new ValidationError(`${field}.timerId`, 'must name a pending timer', timerId);
      b.append('TimerCanceled', { timerId, startedEventId: t.startedEventId, workflowTaskCompletedEventId: completedEventId });
      b.deleteTimer(t.timerRowId);
      delete b.state.timers[timerId];
    },
  },
  timers: {
    UserTimer: runTimer((b, { timerId }, timer) => {
      const t = b.state.timers[timerId];
      if (b.closed || !t || t.timerRowId !== timer.id) return;
      delete b.state.timers[timerId];
      b.addEvent('TimerFired', { timerId, startedEventId: t.startedEventId });
      b.ensureWorkflowTask();
    }),
  },
  rebuild: rebuildTimers,
  state: timerSlice,
  onClose: (b) => {
    b.state.timers = {};
  },
} satisfies Feature;

/** Timers started and neither fired nor canceled in the history are pending again, due when they were due (or now). */
function rebuildTimers(b: TransitionBuilder, events: readonly HistoryEvent[]): void {
  const open = new Map<string, HistoryEvent<'TimerStarted'>>();
  for (const e of events) {
    if (e.eventType === 'TimerStarted') open.set(e.attributes.timerId, e);
    else if (e.eventType === 'TimerFired' || e.eventType === 'TimerCanceled') open.delete(e.attributes.timerId);
  }
  for (const e of open.values()) {
    const dueAt = Math.max(b.now, Date.parse(e.eventTime) + e.attributes.startToFireTimeoutMs);
    b.state.timers[e.attributes.timerId] = { startedEventId: e.eventId, dueAt, timerRowId: b.addTimer('UserTimer', dueAt, { timerId: e.attributes.timerId }) };
  }
}
