import { ServiceError } from '../../common/errors.ts';
import type {
  ScheduleActionData,
  CreateScheduleRequest, ListSchedulesRequest, ListSchedulesResponse, PatchScheduleRequest, ScheduleActionResult,
  ScheduleDescription, ScheduleRef, ScheduleService, UpdateScheduleRequest,
} from '../../protocol/index.ts';
import { StoreConflictError } from '../../store/errors.ts';
import type { ScheduleRecord } from '../../store/types.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { parseRequest } from '../../protocol/parse.ts';
import { listSchedulesRequestSchema } from '../../protocol/schemas/schedules.ts';
import { validateStartAttributes } from '../visibility/search-attributes.ts';
import { takeAction } from './schedule-actions.ts';
import { isActive, rfc3339, scheduleStateOf, specOf, type RecentAction, type ScheduleState } from './schedule-state.ts';
import { mutateSchedule, ScheduleTx } from './schedule-tx.ts';
import { validateCreate, validatePatch, validateScheduleRef, validateUpdate } from './schedule-requests.ts';

function notFound(ref: { namespace: string; scheduleId: string }): ServiceError {
  return new ServiceError('NotFound', `schedule ${ref.scheduleId} not found in namespace ${ref.namespace}`);
}

function recentOf(r: RecentAction): ScheduleActionResult {
  return { scheduledAt: rfc3339(r.nominal), takenAt: new Date(r.takenAt).toISOString(), workflowId: r.workflowId, runId: r.runId, status: r.status };
}

/** Why a schedule is unhealthy: its next fire is overdue by more than its catchup window. */
function unhealthy(s: ScheduleState, now: number): string | undefined {
  if (!isActive(s) || s.timerDue === undefined || now - s.timerDue <= s.catchupWindowMs) return undefined;
  return `next fire at ${new Date(s.timerDue).toISOString()} is ${now - s.timerDue} ms overdue, beyond the catchup window of ${s.catchupWindowMs} ms`;
}

/** The schedule calls of the engine: create, describe, list, update, patch (pause, unpause, trigger, backfill), delete. */
export class ScheduleOps implements ScheduleService {
  constructor(private readonly core: EngineCore) {}

  /** Checks an action's search attributes against the namespace's registered ones. */
  async #attributes(namespace: string, action: ScheduleActionData): Promise<ScheduleActionData> {
    const attributes = await validateStartAttributes(this.core.store, namespace, action.searchAttributes, 'action.searchAttributes');
    if (attributes) action.searchAttributes = attributes as ScheduleActionData['searchAttributes'];
    else delete action.searchAttributes;
    return action;
  }

  async createSchedule(input: CreateScheduleRequest): Promise<{ conflictToken: number }> {
    const { namespace, scheduleId, spec, action: given, policies, state: initial } = validateCreate(input);
    const ref = { namespace, scheduleId };
    const action = await this.#attributes(namespace, given);
    const now = this.core.clock.now();
    const state: ScheduleState = {
      v: 1, spec, action, overlap: policies.overlap, catchupWindowMs: policies.catchupWindowMs, pauseOnFailure: policies.pauseOnFailure,
      paused: initial.paused, note: initial.note, updateTime: now, processedUntil: now, conflictToken: 1,
      running: [], buffer: [], backfills: [], recent: [], incidents: [],
      counters: { actions: 0, skipped: 0, bufferOverruns: 0, missedCatchup: 0, failed: 0 },
      ...(initial.remainingActions !== undefined ? { remainingActions: initial.remainingActions } : {}),
    };
    const record: ScheduleRecord = { ...ref, createTime: now, version: 0, state };
    const tx = new ScheduleTx(this.core, record, now);
    tx.rearm();
    const t = tx.build();
    t.schedules = [{ record: { ...record, version: 1, state: tx.state } }];
    try {
      await this.core.tracked(() => this.core.store.commit(t));
    } catch (err) {
      if (err instanceof StoreConflictError && err.reason === 'scheduleExists') {
        throw new ServiceError('AlreadyStarted', `schedule ${ref.scheduleId} already exists in namespace ${ref.namespace}`);
      }
      throw err;
    }
    return { conflictToken: 1 };
  }

  async describeSchedule(input: ScheduleRef): Promise<ScheduleDescription> {
    const ref = validateScheduleRef(input);
    const rec = await this.core.store.getSchedule(ref.namespace, ref.scheduleId);
    if (!rec) throw notFound(ref);
    const s = scheduleStateOf(rec);
    const now = this.core.clock.now();
    const spec = specOf(s);
    const count = s.remainingActions === undefined ? 10 : Math.min(10, s.remainingActions);
    const reason = unhealthy(s, now);
    const backfillsPending = s.backfills.reduce((n, b) => {
      let k = 0;
      for (let t = spec.nextNominal(b.cursor); t !== null && t <= b.end && k < 100_000; t = spec.nextNominal(t)) k++;
      return n + k;
    }, 0);
    return {
      scheduleId: rec.scheduleId,
      spec: spec.canonical(),
      ...cronsOf(s.spec),
      action: s.action,
      policies: { overlap: s.overlap, catchupWindowMs: s.catchupWindowMs, pauseOnFailure: s.pauseOnFailure },
      state: { paused: s.paused, note: s.note, ...(s.remainingActions !== undefined ? { remainingActions: s.remainingActions } : {}) },
      info: {
        createTime: new Date(rec.createTime).toISOString(),
        updateTime: new Date(s.updateTime).toISOString(),
        nextActionTimes: spec.upcoming(Math.max(s.processedUntil, s.paused ? now : s.processedUntil), count, rec.scheduleId)
          .map((a) => new Date(a.actual).toISOString()),
        recentActions: s.recent.map(recentOf),
        runningWorkflows: s.running.map((r) => ({ workflowId: r.workflowId, runId: r.runId })),
        bufferedActions: s.buffer.length,
        backfillsPending,
        counters: { ...s.counters },
        incidents: [...s.incidents],
        healthy: reason === undefined,
        ...(reason !== undefined ? { unhealthyReason: reason } : {}),
        ...(s.lastFailure ? { lastFailure: s.lastFailure } : {}),
      },
      conflictToken: s.conflictToken ?? 1,
    };
  }

  async listSchedules(input: ListSchedulesRequest): Promise<ListSchedulesResponse> {
    const { namespace, pageSize, nextPageToken: token } = parseRequest(listSchedulesRequestSchema, input ?? {});
    const after = token === undefined ? undefined : Buffer.from(token, 'base64url').toString('utf8');
    const rows = await this.core.store.listSchedules(namespace, after, pageSize + 1);
    const now = this.core.clock.now();
    const page = rows.slice(0, pageSize);
    const res: ListSchedulesResponse = {
      schedules: page.map((r) => {
        const s = scheduleStateOf(r);
        return {
          scheduleId: r.scheduleId, workflowType: s.action.workflowType, paused: s.paused, note: s.note,
          ...(s.timerDue !== undefined && isActive(s) ? { nextActionTime: new Date(s.timerDue).toISOString() } : {}),
          recentActions: s.recent.map(recentOf), healthy: unhealthy(s, now) === undefined, counters: { ...s.counters },
        };
      }),
    };
    if (rows.length > pageSize) res.nextPageToken = Buffer.from(page[page.length - 1]!.scheduleId, 'utf8').toString('base64url');
    return res;
  }

  async updateSchedule(input: UpdateScheduleRequest): Promise<void> {
    const { namespace, scheduleId, spec, action: given, policies, conflictToken: token } = validateUpdate(input);
    const ref = { namespace, scheduleId };
    const action = await this.#attributes(namespace, given);
    const found = await mutateSchedule(this.core, ref.namespace, ref.scheduleId, async (tx) => {
      const s = tx.state;
      const current = s.conflictToken ?? 1;
      if (token !== undefined && token !== current) {
        throw new ServiceError('FailedPrecondition', `schedule ${ref.scheduleId} changed since conflictToken ${token} (now ${current})`);
      }
      s.conflictToken = current + 1;
      Object.assign(s, { spec, action, overlap: policies.overlap, catchupWindowMs: policies.catchupWindowMs, pauseOnFailure: policies.pauseOnFailure });
      s.processedUntil = Math.max(s.processedUntil, tx.now);
      s.updateTime = tx.now;
      return true;
    });
    if (!found) throw notFound(ref);
  }

  async patchSchedule(input: PatchScheduleRequest): Promise<void> {
    const { namespace, scheduleId, pause, unpause, trigger, backfill: backfills = [] } = validatePatch(input);
    const ref = { namespace, scheduleId };
    const triggerOverlap = trigger?.overlap;
    const found = await mutateSchedule(this.core, ref.namespace, ref.scheduleId, async (tx) => {
      const s = tx.state;
      s.updateTime = tx.now;
      if (pause !== undefined || unpause !== undefined) s.conflictToken = (s.conflictToken ?? 1) + 1;
      if (pause !== undefined) {
        s.paused = true;
        s.note = pause;
      }
      if (unpause !== undefined) {
        // Times that passed while paused are not taken (a backfill takes them).
        if (s.paused) s.processedUntil = Math.max(s.processedUntil, tx.now);
        s.paused = false;
        s.note = unpause;
      }
      if (trigger) await takeAction(tx, tx.now, triggerOverlap ?? s.overlap, true);
      for (const b of backfills) s.backfills.push({ cursor: b.startTime - 1, end: b.endTime, overlap: b.overlap ?? s.overlap });
      return true;
    });
    if (!found) throw notFound(ref);
  }

  async deleteSchedule(input: ScheduleRef): Promise<void> {
    const ref = validateScheduleRef(input);
    const found = await mutateSchedule(this.core, ref.namespace, ref.scheduleId, async (tx) => {
      tx.deleted = true;
      return true;
    });
    if (!found) throw notFound(ref);
  }
}

/** The cron strings a stored spec was given, as written: describe shows them beside the canonical calendars. */
function cronsOf(spec: unknown): { cronExpressions?: string[] } {
  const crons = (spec as { cronExpressions?: unknown } | null)?.cronExpressions;
  return Array.isArray(crons) && crons.length > 0 ? { cronExpressions: crons.map(String) } : {};
}
