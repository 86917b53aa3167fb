import type { z } from 'zod';
import { parseRequest } from '../../protocol/parse.ts';
import type { ScheduleActionData } from '../../protocol/schedules.ts';
import {
  createScheduleRequestSchema, patchScheduleRequestSchema, scheduleRefSchema, updateScheduleRequestSchema,
} from '../../protocol/schemas/schedules.ts';
import { compileScheduleSpec } from '../../schedule/schedule-spec.ts';
import { DEFAULT_CATCHUP_WINDOW_MS } from './schedule-state.ts';

/** A schedule id: what the started workflows' ids and the timers' run ids are built from. */
export function validateScheduleRef(input: unknown): { namespace: string; scheduleId: string } {
  const { namespace, scheduleId } = parseRequest(scheduleRefSchema, input);
  return { namespace, scheduleId };
}

/** Checks a spec (compiling it; steadfast/schedule owns specs) and returns it as JSON to store. */
export function validateSpec(spec: unknown): unknown {
  compileScheduleSpec(spec, 'spec');
  return JSON.parse(JSON.stringify(spec));
}

/** An action as stored: the fields given, without empty args. */
function storedAction(a: z.output<typeof createScheduleRequestSchema>['action']): ScheduleActionData {
  const { args, ...rest } = a;
  const out: ScheduleActionData = { ...rest };
  for (const key of Object.keys(out) as (keyof ScheduleActionData)[]) if (out[key] === undefined) delete out[key];
  if (args.length) out.args = args;
  return out;
}

/** A create or update request checked, its spec compiled, its policies' defaults filled in. */
function validated<T extends z.output<typeof updateScheduleRequestSchema> | z.output<typeof createScheduleRequestSchema>>(req: T) {
  return {
    ...req,
    spec: validateSpec(req.spec),
    action: storedAction(req.action),
    policies: { ...req.policies, catchupWindowMs: req.policies.catchupWindowMs ?? DEFAULT_CATCHUP_WINDOW_MS },
  };
}

/** Checks a createSchedule request. */
export function validateCreate(input: unknown) {
  return validated(parseRequest(createScheduleRequestSchema, input));
}

/** Checks an updateSchedule request. */
export function validateUpdate(input: unknown) {
  return validated(parseRequest(updateScheduleRequestSchema, input));
}

/** Checks a patchSchedule request. */
export function validatePatch(input: unknown): z.output<typeof patchScheduleRequestSchema> {
  return parseRequest(patchScheduleRequestSchema, input);
}
