import { newUuid } from '../../common/ids.ts';
import { cloneData } from '../../common/clone.ts';
import type { ScheduleRecord, TimerRecord, Transition } from '../../store/types.ts';
import type { EngineCore } from '../core/engine-core.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import { isActive, scheduleRunId, scheduleStateOf, specOf, type ScheduleState } from './schedule-state.ts';

/**
 * One change of a schedule: its new state, and the runs it starts, cancels or terminates, all
 * committed as one store transaction with the schedule row (and the fire timer it consumes).
 */
export class ScheduleTx {
  readonly state: ScheduleState;
  readonly runs: TransitionBuilder[] = [];
  readonly createTimers: TimerRecord[] = [];
  readonly deleteTimerIds: string[] = [];
  consumeTimerId: string | undefined;
  deleted = false;
  /** Workflow ids started in this transaction (a second start of one is a skip). */
  readonly startedIds = new Set<string>();
  /** Set when more work is due at once (a long backfill or outage is processed in chunks). */
  moreDue = false;
  /**
   * Starts assume their workflow id has no run yet, read nothing, and are refused by the store
   * (`workflowIdUsed`) when it has one; the retry reads. An action's workflow id carries its
   * nominal time, so the first attempt almost never meets a run.
   */
  assumeFirstStarts = false;

  constructor(readonly core: EngineCore, readonly record: ScheduleRecord, readonly now: number) {
    this.state = cloneData(scheduleStateOf(record));
  }

  get namespace(): string {
    return this.record.namespace;
  }

  get scheduleId(): string {
    return this.record.scheduleId;
  }

  /** Replaces the fire timer by one at the next time the schedule has work: now (backfills), or the spec's next action. */
  rearm(): void {
    const s = this.state;
    let due: number | undefined;
    if (!this.deleted) {
      if (s.backfills.length > 0 || this.moreDue) due = this.now;
      else if (isActive(s)) due = specOf(s).nextAction(s.processedUntil, this.scheduleId)?.actual;
    }
    if (s.timerId !== undefined && s.timerDue === due && s.timerId !== this.consumeTimerId) return;
    if (s.timerId !== undefined && s.timerId !== this.consumeTimerId) this.deleteTimerIds.push(s.timerId);
    delete s.timerId;
    delete s.timerDue;
    if (due === undefined) return;
    const id = newUuid();
    this.createTimers.push({ id, namespace: this.namespace, runId: scheduleRunId(this.namespace, this.scheduleId), kind: 'ScheduleFire', dueAt: due, data: {} });
    s.timerId = id;
    s.timerDue = due;
  }

  build(): Transition {
    const parts = this.runs.map((b) => b.build());
    const t: Transition = {
      executions: parts.flatMap((p) => p.executions),
      createTasks: parts.flatMap((p) => p.createTasks ?? []),
      deleteTaskIds: parts.flatMap((p) => p.deleteTaskIds ?? []),
      createTimers: [...parts.flatMap((p) => p.createTimers ?? []), ...this.createTimers],
      deleteTimerIds: [...parts.flatMap((p) => p.deleteTimerIds ?? []), ...this.deleteTimerIds],
      schedules: [{
        record: { ...this.record, version: this.record.version + 1, state: this.state },
        expectedVersion: this.record.version, ...(this.deleted ? { delete: true } : {}),
      }],
    };
    const purge = [...parts.flatMap((p) => p.purgeRunIds ?? []), ...(this.deleted ? [scheduleRunId(this.namespace, this.scheduleId)] : [])];
    if (purge.length) t.purgeRunIds = purge;
    if (this.consumeTimerId !== undefined) t.consumeTimerId = this.consumeTimerId;
    return t;
  }
}

/**
 * Reads the schedule, lets `fn` change it, commits; re-reads and rebuilds when another change of
 * the schedule (or of a run it touched) won the race. `fn` returns undefined when the schedule
 * is gone. A consumed timer already fired elsewhere ends the attempt quietly.
 *
 * The first attempt decides on the store's cached row when it holds one (PostgreSQL: the row
 * this server last committed, which another server may have moved since) and starts workflows
 * without reading their ids ({@link ScheduleTx.assumeFirstStarts}). Its decision stands because
 * every commit of a ScheduleTx writes the schedule row at the version read: a stale row
 * conflicts, the store drops it, and the next attempt reads. A refusal (`fn` throws) on the
 * cached row is decided again on a read.
 */
export function mutateSchedule<T>(
  core: EngineCore, namespace: string, scheduleId: string, fn: (tx: ScheduleTx) => Promise<T>,
): Promise<T | undefined> {
  const decide = async (rec: ScheduleRecord, assumeFirstStarts: boolean) => {
    const tx = new ScheduleTx(core, rec, core.clock.now());
    tx.assumeFirstStarts = assumeFirstStarts;
    const result = await fn(tx);
    tx.rearm();
    return { result, commit: tx };
  };
  let first = true;
  return core.transact(`changing schedule ${scheduleId}`, async () => {
    const assumeFirst = first;
    first = false;
    const cached = assumeFirst ? core.store.cachedSchedule?.(namespace, scheduleId) : undefined;
    if (cached) {
      try {
        return await decide(cached, true);
      } catch {
        // decided again below, on the stored row
      }
    }
    const rec = await core.store.getSchedule(namespace, scheduleId);
    if (!rec) return { result: undefined };
    return decide(rec, assumeFirst);
  });
}
