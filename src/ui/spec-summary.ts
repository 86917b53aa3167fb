/*
 * A schedule's canonical spec in words, for people: "at 03:00 every day; every 6h offset 5h
 * (UTC)". The canonical form renders each field as `*`, `a`, `a-b`, `*\/s`, `a/s`, `a-b/s` or a
 * comma list of those (src/schedule/canonical.ts); this names days of the week and months in
 * such text and leaves the rest as written.
 */
import type { CanonicalSpecData } from '../protocol/index.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Field text with its numbers replaced by names (`1-5` → `Mon–Fri`), steps left as numbers. */
function named(text: string, names: string[], first: number): string {
  return text.split(',').map((part) => {
    const [range, step] = part.split('/');
    const ends = range!.split('-').map((v) => (v === '*' ? v : names[Number(v) - first] ?? v));
    return ends.join('–') + (step ? ` every ${step}` : '');
  }).join(', ');
}

const pad = (v: string) => v.padStart(2, '0');

/** One canonical calendar in words: its time of day, then which days. */
export function calendarSummary(c: Record<string, string>): string {
  const plain = (v: string | undefined) => v !== undefined && /^\d+$/.test(v);
  const time = plain(c.hour) && plain(c.minute) && plain(c.second)
    ? `at ${pad(c.hour!)}:${pad(c.minute!)}${c.second === '0' ? '' : `:${pad(c.second!)}`}`
    : `at second ${c.second}, minute ${c.minute}, hour ${c.hour}`;
  const days: string[] = [];
  if (c.dayOfWeek && c.dayOfWeek !== '*') days.push(`on ${named(c.dayOfWeek, DAYS, 0)}`);
  if (c.dayOfMonth && c.dayOfMonth !== '*') days.push(`on day ${c.dayOfMonth} of the month`);
  if (c.month && c.month !== '*') days.push(`in ${named(c.month, MONTHS, 1)}`);
  if (c.year && c.year !== '*') days.push(`in ${c.year}`);
  return `${time} ${days.length ? days.join(' ') : 'every day'}${c.comment ? ` (${c.comment})` : ''}`;
}

/** The whole spec in one line. */
export function specSummary(spec: CanonicalSpecData): string {
  const parts = [
    ...spec.calendars.map(calendarSummary),
    ...spec.intervals.map((i) => `every ${i.every}${i.offset && i.offset !== '0s' ? ` offset ${i.offset}` : ''}`),
  ];
  let text = parts.length ? parts.join('; ') : 'never';
  if (spec.skip.length) text += `; except ${spec.skip.map(calendarSummary).join('; ')}`;
  if (spec.startAt) text += `; from ${spec.startAt}`;
  if (spec.endAt) text += `; until ${spec.endAt}`;
  if (spec.jitter && spec.jitter !== '0s') text += `; up to ${spec.jitter} late (jitter)`;
  return `${text} (${spec.timezone})`;
}
