import type { StateSlice } from '../core/feature.ts';

declare module '../core/timer-data.ts' {
  interface TimerRowData {
    /** A workflow's timer (StartTimer). */
    UserTimer: { timerId: string };
  }
}

declare module '../core/state.ts' {
  interface RunSlices {
    /** Pending user timers by timer id. */
    timers: Record<string, UserTimerInfo>;
  }
}

/** A pending user timer. */
export interface UserTimerInfo {
  startedEventId: number;
  timerRowId: string;
  dueAt: number;
}

/** The timer feature's slice of the run state. */
export const timerSlice: StateSlice = { initial: () => ({ timers: {} }) };
