import { requireDurationMs } from '../requests.ts';
import { requireString } from '../../common/validate.ts';
import { ValidationError } from '../../retry/errors.ts';
import { fireRunTimer } from '../timers.ts';
import type { Feature } from './feature.ts';

/** User timers: StartTimer and CancelTimer, and the UserTimer timer. Its state slice is `RunState.timers`. */
export const timerFeature = {
  commands: {
    StartTimer({ b, completedEventId, field }, a) {
      const timerId = requireString(`${field}.timerId`, a.timerId);
      const ms = requireDurationMs(`${field}.startToFireTimeoutMs`, a.startToFireTimeoutMs, 1);
      if (b.state.timers[timerId]) throw new ValidationError(`${field}.timerId`, 'must be unique among the pending timers of the run', timerId);
      const ev = b.append('TimerStarted', { timerId, startToFireTimeoutMs: ms, workflowTaskCompletedEventId: completedEventId });
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
  timers: { UserTimer: fireRunTimer },
  deliveries: {},
} satisfies Feature;
