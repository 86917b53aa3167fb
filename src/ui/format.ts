import { formatMs } from '../retry/duration.ts';

/** An ISO time as `2026-01-02 03:04:05.678`, in UTC (marked `Z`) or the browser's zone. */
export function formatTime(iso: string | undefined, zone: 'utc' | 'local'): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  if (zone === 'utc') return `${d.toISOString().slice(0, 23).replace('T', ' ')}Z`;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** Milliseconds for people: `1.5s`, `2m 30s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '∞';
  return formatMs(Math.max(0, Math.round(ms)));
}

/** A value as indented JSON (`undefined` as an empty string). */
export function json(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** How far an ISO time is from `now`: `in 4m 10s`, `12s ago`, `now`. */
export function formatRelative(iso: string | undefined, now: number): string {
  if (!iso) return '';
  const d = Date.parse(iso) - now;
  if (Number.isNaN(d)) return '';
  if (Math.abs(d) < 1000) return 'now';
  return d > 0 ? `in ${formatDuration(d)}` : `${formatDuration(-d)} ago`;
}
