import { ValidationError } from '../errors/index.ts';
import { MAX_ID_LENGTH, MAX_REASON_LENGTH } from '../protocol/limits.ts';
import { optionalBoolean, optionalInt, optionalRecord, optionalString, requireString } from '../common/validate.ts';
import type { ScheduleListEntry, ScheduleStateData } from '../protocol/index.ts';
import type { WorkflowService } from '../protocol/index.ts';
import { ScheduleHandle } from './schedule-handle.ts';
import { actionToWire, policiesToWire, SCHEDULE_OPTION_KEYS, specToWire, type ScheduleOptions } from './schedule-options.ts';
import { refuseUnknownKeys } from '../common/option-keys.ts';

/** Creates schedules and finds them again (`client.schedule`). */
export class ScheduleClient {
  constructor(private readonly service: WorkflowService, readonly namespace: string) {}

  /** Creates a schedule; refused (AlreadyStarted) when the id exists. */
  async create(options: ScheduleOptions): Promise<ScheduleHandle> {
    const o = optionalRecord('options', options);
    if (!o) throw new ValidationError('options', 'must be { scheduleId, spec, action }', options);
    refuseUnknownKeys('schedule', o, SCHEDULE_OPTION_KEYS);
    const scheduleId = requireString('scheduleId', options.scheduleId, MAX_ID_LENGTH);
    const st = optionalRecord('state', options.state) ?? {};
    const state: ScheduleStateData = {};
    const paused = optionalBoolean('state.paused', st.paused);
    if (paused !== undefined) state.paused = paused;
    const note = optionalString('state.note', st.note, MAX_REASON_LENGTH);
    if (note !== undefined) state.note = note;
    const remaining = optionalInt('state.remainingActions', st.remainingActions, 0);
    if (remaining !== undefined) state.remainingActions = remaining;
    await this.service.createSchedule({
      namespace: this.namespace, scheduleId, spec: specToWire(options.spec), action: actionToWire(options.action, scheduleId),
      policies: policiesToWire(options.policies), state,
    });
    return this.getHandle(scheduleId);
  }

  /** A handle to an existing schedule. */
  getHandle(scheduleId: string): ScheduleHandle {
    return new ScheduleHandle(this.service, this.namespace, requireString('scheduleId', scheduleId, MAX_ID_LENGTH));
  }

  /** Every schedule of the namespace, in id order, a page at a time. */
  async *list(options: { pageSize?: number } = {}): AsyncIterable<ScheduleListEntry> {
    let nextPageToken: string | undefined;
    do {
      const page = await this.service.listSchedules({
        namespace: this.namespace, ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
        ...(nextPageToken !== undefined ? { nextPageToken } : {}),
      });
      yield* page.schedules;
      nextPageToken = page.nextPageToken;
    } while (nextPageToken !== undefined);
  }
}
