import type { ScheduleDescription } from '../protocol/index.ts';
import { formatMs } from '../retry/duration.ts';
import { renderTable } from './table.ts';
import { compileScheduleSpec } from '../schedule/schedule-spec.ts';

type Calendar = ScheduleDescription['spec']['calendars'][number];

const two = (v: string) => v.padStart(2, '0');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A field's numbers as names (`1-5` → `Mon-Fri`); steps (`*\/2`) stay numbers. */
const named = (v: string, names: string[], first: number) => (v.includes('/') ? v : v.replace(/\d+/g, (n) => names[Number(n) - first] ?? n));
const single = (v: string | undefined) => v !== undefined && /^\d+$/.test(v);

/** One calendar in words: `at 02:00 every day`, `at minute 0, 30 of hour 9-17 on Mon-Fri`. */
export function calendarInWords(c: Calendar): string {
  const time = single(c.hour) && single(c.minute) && single(c.second)
    ? `at ${two(c.hour)}:${two(c.minute)}${c.second === '0' ? '' : `:${two(c.second)}`}`
    : [c.second !== '0' ? `second ${c.second}` : '', `minute ${c.minute}`, c.hour !== '*' ? `of hour ${c.hour}` : 'of every hour']
      .filter(Boolean).join(' ').replace(/^/, 'at ');
  const days = [
    c.dayOfMonth !== '*' ? `on day ${c.dayOfMonth} of the month` : '',
    c.dayOfWeek !== '*' ? `on ${named(c.dayOfWeek, DAYS, 0)}` : '',
    c.month !== '*' ? `in ${named(c.month, MONTHS, 1)}` : '',
    c.year !== '*' ? `in ${c.year}` : '',
  ].filter(Boolean);
  return `${time} ${days.length ? days.join(' ') : 'every day'}${c.comment ? ` (${c.comment})` : ''}`;
}

/** The spec in words, one line each: the cron strings as typed, other calendars, intervals, bounds. */
export function specLines(d: ScheduleDescription): string[] {
  const s = d.spec;
  const crons = d.cronExpressions ?? [];
  // Each cron string compiled to a calendar or an interval of the canonical spec: those are
  // shown as the cron string written, the rest in words.
  const fromCron = new Set<string>();
  for (const c of crons) {
    const compiled = compileScheduleSpec({ cronExpressions: [c], timezone: s.timezone }).canonical();
    for (const x of [...compiled.calendars, ...compiled.intervals]) fromCron.add(JSON.stringify(x));
  }
  const own = <T>(x: T) => !fromCron.has(JSON.stringify(x));
  return [
    ...crons.map((c) => `cron '${c}'`),
    ...s.calendars.filter(own).map(calendarInWords),
    ...s.intervals.filter(own).map((i) => `every ${i.every}${/^0\w*$/.test(i.offset) ? '' : ` offset by ${i.offset}`}`),
    ...s.skip.map((c) => `except ${calendarInWords(c)}`),
    ...(s.startAt ? [`from ${s.startAt}`] : []),
    ...(s.endAt ? [`until ${s.endAt}`] : []),
    ...(/^0\w*$/.test(s.jitter) ? [] : [`jitter up to ${s.jitter}`]),
    `time zone ${s.timezone}`,
  ];
}

/** The text of `steadfast schedule describe`: sections without rows are left out. */
export function scheduleDescribeText(d: ScheduleDescription): string {
  const i = d.info;
  const lines = [
    `Schedule ${d.scheduleId}: ${d.state.paused ? 'PAUSED' : 'active'}${d.state.note ? ` (${d.state.note})` : ''}`
      + `${i.healthy ? '' : `  UNHEALTHY: ${i.unhealthyReason}`}`,
    'Spec:', ...specLines(d).map((l) => `  ${l}`),
    `Action: start ${d.action.workflowType} on ${d.action.taskQueue} as ${d.action.workflowId}-<time>`,
    `Policies: overlap ${d.policies.overlap}, catchup window ${formatMs(d.policies.catchupWindowMs)}, pause on failure ${d.policies.pauseOnFailure ? 'yes' : 'no'}`
      + (d.state.remainingActions !== undefined ? `, ${d.state.remainingActions} actions remaining` : ''),
    `Counters: ${Object.entries(i.counters).map(([k, n]) => `${k} ${n}`).join(', ')}; running ${i.runningWorkflows.length}, buffered ${i.bufferedActions}`,
  ];
  if (i.nextActionTimes.length) lines.push('', 'Next action times:', ...i.nextActionTimes.map((t) => `  ${t}`));
  if (i.recentActions.length) {
    lines.push('', 'Recent actions:',
      renderTable(['SCHEDULED', 'TAKEN', 'WORKFLOW ID', 'STATUS'], i.recentActions.map((a) => [a.scheduledAt, a.takenAt, a.workflowId, a.status])));
  }
  if (i.incidents.length) {
    lines.push('', 'Incidents:', renderTable(['KIND', 'SCHEDULED', 'AT', 'DETAIL'], i.incidents.map((x) => [x.kind, x.scheduledAt, x.at, x.detail])));
  }
  return lines.join('\n');
}
