import type { CompiledCalendar } from './calendar-spec.ts';
import { CALENDAR_FIELDS, FIELD_DEFS, type CalendarFieldName, type FieldSet } from './field.ts';

/** A calendar in canonical form: every field present, as the shortest of a few fixed renderings. */
export type CanonicalCalendar = Record<CalendarFieldName, string> & { comment?: string };

/**
 * Renders a field's values: `*` for all of them; an evenly stepped run of three or more as
 * `*\/s` (from the field's minimum to as far as it goes), `a/s` (from a to as far as it goes) or
 * `a-b/s`; otherwise a list of values and of runs of three or more consecutive values (`a-b`).
 * Equal sets render equally, and the text parses back to the same set.
 */
function renderField(set: FieldSet, name: CalendarFieldName): string {
  const def = FIELD_DEFS[name];
  const { values } = set;
  if (values.length === def.max - def.min + 1) return '*';
  const step = values.length >= 3 ? values[1]! - values[0]! : 0;
  if (step >= 2 && values.every((v, i) => i === 0 || v - values[i - 1]! === step)) {
    const first = values[0]!;
    const last = values[values.length - 1]!;
    if (last + step > def.max) return first === def.min ? `*/${step}` : `${first}/${step}`;
    return `${first}-${last}/${step}`;
  }
  const parts: string[] = [];
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${values[i]}-${values[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(values[k]));
    i = j + 1;
  }
  return parts.join(',');
}

/** The canonical form of a compiled calendar. */
export function renderCalendar(calendar: CompiledCalendar): CanonicalCalendar {
  const out = {} as CanonicalCalendar;
  for (const name of CALENDAR_FIELDS) out[name] = renderField(calendar.fields[name], name);
  if (calendar.comment) out.comment = calendar.comment;
  return out;
}

/**
 * Renders milliseconds as a duration string that toMs reads back: one number in the largest
 * unit that divides it exactly (`90m`, `61s`, `26h`, `1d`, `0s`), since the `ms` grammar has no
 * compound form.
 */
export function renderDuration(ms: number): string {
  if (ms === 0) return '0s';
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1_000]] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
