import { defineFeature, records, wakes } from './feature.ts';

/** Timers: StartTimer and CancelTimer match by timer id; TimerFired resolves the sleep. */
export const timerFeature = defineFeature({
  name: 'timer',
  commands: {
    StartTimer: { events: ['TimerStarted'], keys: ['timerId'] },
    CancelTimer: { events: ['TimerCanceled'], keys: ['timerId'] },
  },
  events: {
    TimerStarted: records(),
    TimerCanceled: records(),
    TimerFired: wakes<'TimerFired'>((e) => ({ type: 'fireTimer', timerId: e.attributes.timerId })),
  },
});
