/*
 * The schedule form's fields as text, and their conversion to and from the schedule calls'
 * requests. The server validates the spec and the action whole; this only turns text into
 * JSON and says which field it could not read.
 */
import type { CreateScheduleRequest, ScheduleDescription, ScheduleOverlapPolicy, UpdateScheduleRequest } from '../protocol/index.ts';
import { toMs, type Duration } from '../retry/duration.ts';
import { compileScheduleSpec } from '../schedule/index.ts';

/** How the form's spec is written: cron strings, one interval, or the whole spec as JSON (calendars, skips, bounds). */
export type SpecKind = 'cron' | 'interval' | 'json';

/** Every field of the create and edit form, as typed. */
export interface ScheduleForm {
  scheduleId: string;
  specKind: SpecKind;
  /** One cron expression per line. */
  cron: string;
  every: string;
  offset: string;
  /** The whole ScheduleSpec as JSON. */
  specJson: string;
  /** For cron and interval specs (a JSON spec names its own). */
  timezone: string;
  jitter: string;
  workflowType: string;
  taskQueue: string;
  workflowId: string;
  /** The workflow's arguments as a JSON array (a single value is one argument). */
  args: string;
  /** The action's other fields as a JSON object: memo, searchAttributes, retryPolicy, workflowExecutionTimeoutMs, workflowRunTimeoutMs, workflowTaskTimeoutMs. */
  actionExtra: string;
  overlap: ScheduleOverlapPolicy;
  catchupWindow: string;
  pauseOnFailure: boolean;
  /** Create only: start paused, with this note. */
  paused: boolean;
  note: string;
}

/** The form of a new schedule. */
export function emptyForm(): ScheduleForm {
  return {
    scheduleId: '', specKind: 'cron', cron: '0 * * * *', every: '1h', offset: '', timezone: 'UTC', jitter: '',
    specJson: JSON.stringify({ calendars: [{ dayOfWeek: 'Mon-Fri', hour: 9, comment: 'weekdays at nine' }], timezone: 'UTC' }, null, 2),
    workflowType: '', taskQueue: '', workflowId: '', args: '', actionExtra: '', overlap: 'Skip', catchupWindow: '1m', pauseOnFailure: false, paused: false, note: '',
  };
}

/** The form of an existing schedule: its canonical spec as JSON, its action and policies. */
export function formFromDescription(d: ScheduleDescription): ScheduleForm {
  const spec: Record<string, unknown> = { ...d.spec };
  for (const key of ['calendars', 'intervals', 'skip'] as const) if ((d.spec[key] as unknown[]).length === 0) delete spec[key];
  return {
    ...emptyForm(),
    scheduleId: d.scheduleId,
    specKind: 'json',
    specJson: JSON.stringify(spec, null, 2),
    workflowType: d.action.workflowType,
    taskQueue: d.action.taskQueue,
    workflowId: d.action.workflowId,
    args: d.action.args && d.action.args.length ? JSON.stringify(d.action.args) : '',
    actionExtra: extraOf(d.action),
    overlap: d.policies.overlap,
    catchupWindow: oneUnit(d.policies.catchupWindowMs),
    pauseOnFailure: d.policies.pauseOnFailure,
  };
}

/** The action's fields the form has no input of, as JSON, so that an edit keeps them. */
function extraOf(action: ScheduleDescription['action']): string {
  const { workflowType: _t, taskQueue: _q, workflowId: _w, args: _a, ...rest } = action;
  return Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '';
}

/** Milliseconds as one number and the largest unit that divides them (`90m`), the form toMs reads back. */
function oneUnit(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

function parseJson(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${field} is not valid JSON: ${(err as Error).message}`);
  }
}

/** The spec the form describes, as the schedule calls take it. */
export function specFromForm(f: ScheduleForm): Record<string, unknown> {
  if (f.specKind === 'json') {
    const spec = parseJson('spec', f.specJson);
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw new Error('spec must be a JSON object such as { "calendars": [...] }');
    return spec as Record<string, unknown>;
  }
  const common = { ...(f.timezone.trim() ? { timezone: f.timezone.trim() } : {}), ...(f.jitter.trim() ? { jitter: f.jitter.trim() } : {}) };
  if (f.specKind === 'cron') {
    const lines = f.cron.split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length === 0) throw new Error('cron must have at least one expression, got none');
    return { cronExpressions: lines, ...common };
  }
  if (!f.every.trim()) throw new Error('every must be a duration such as 1h, got nothing');
  return { intervals: [{ every: f.every.trim(), ...(f.offset.trim() ? { offset: f.offset.trim() } : {}) }], ...common };
}

function argsOf(text: string): unknown[] | undefined {
  if (!text.trim()) return undefined;
  const v = parseJson('args', text);
  return Array.isArray(v) ? v : [v];
}

function body(f: ScheduleForm, namespace: string) {
  const args = argsOf(f.args);
  const extra = f.actionExtra.trim() ? parseJson('action options', f.actionExtra) : {};
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new Error('action options must be a JSON object such as { "memo": {...} }');
  return {
    namespace,
    scheduleId: f.scheduleId.trim(),
    spec: specFromForm(f),
    action: { ...extra, workflowType: f.workflowType.trim(), taskQueue: f.taskQueue.trim(), workflowId: f.workflowId.trim(), ...(args ? { args } : {}) },
    policies: { overlap: f.overlap, catchupWindowMs: toMs(f.catchupWindow.trim() as Duration, 'catchupWindow'), pauseOnFailure: f.pauseOnFailure },
  };
}

/** The create request of the form. */
export function createRequest(f: ScheduleForm, namespace: string): CreateScheduleRequest {
  return { ...body(f, namespace), ...(f.paused ? { state: { paused: true, note: f.note } } : {}) };
}

/** The update request of the form, conditional on the describe it was made from. */
export function updateRequest(f: ScheduleForm, namespace: string, conflictToken: number): UpdateScheduleRequest {
  return { ...body(f, namespace), conflictToken };
}

/**
 * The next `count` action times of the form's spec after `now`, computed in the browser by the
 * same `steadfast/schedule` the server runs (jitter is seeded by the schedule id, so the times
 * match what the schedule will do), or the message of the first thing wrong with the spec.
 */
export function previewTimes(f: ScheduleForm, now: number, count = 10): { times: string[] } | { error: string } {
  try {
    const spec = compileScheduleSpec(specFromForm(f));
    return { times: spec.upcoming(now, count, f.scheduleId.trim()).map((t) => new Date(t.actual).toISOString()) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}
