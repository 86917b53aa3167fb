/**
 * Go's `time.ParseDuration`, exactly: an optional sign, then one or more decimal numbers each with
 * a unit (`ns`, `us`, `µs`, `μs`, `ms`, `s`, `m`, `h`), or `0` alone; the total must fit an int64
 * of nanoseconds. robfig/cron reads `@every` with it.
 * @see https://pkg.go.dev/time#ParseDuration
 */

const UNIT_NS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n], ['us', 1_000n], ['\u00b5s', 1_000n], ['\u03bcs', 1_000n],
  ['ms', 1_000_000n], ['s', 1_000_000_000n], ['m', 60_000_000_000n], ['h', 3_600_000_000_000n],
]);

/** 2^63: Go keeps the magnitude within it (and a positive total below it). */
const LIMIT = 1n << 63n;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * Nanoseconds of `text` read as Go's `time.ParseDuration` reads it, or undefined where Go returns
 * an error (bad syntax, a missing or unknown unit, overflow). The fraction of each number is
 * scaled in floating point and truncated, as Go does.
 */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return undefined;
    let i = 0;
    while (isDigit(s[i])) i++;
    const whole = s.slice(0, i);
    let fraction = '';
    if (s[i] === '.') {
      const from = ++i;
      while (isDigit(s[i])) i++;
      fraction = s.slice(from, i);
    }
    if (whole === '' && fraction === '') return undefined;
    const unitStart = i;
    while (i < s.length && s[i] !== '.' && !isDigit(s[i])) i++;
    const unit = UNIT_NS.get(s.slice(unitStart, i));
    if (unit === undefined) return undefined;
    s = s.slice(i);
    let v = whole === '' ? 0n : BigInt(whole);
    if (v > LIMIT / unit) return undefined;
    v *= unit;
    const f = leadingFraction(fraction);
    if (f.value > 0n) {
      v += BigInt(Math.trunc(Number(f.value) * (Number(unit) / f.scale)));
      if (v > LIMIT) return undefined;
    }
    total += v;
    if (total > LIMIT) return undefined;
  }
  if (negative) return -total;
  return total > LIMIT - 1n ? undefined : total;
}

/** Go's leadingFraction: the digits kept until one more would overflow an int64, and their scale. */
function leadingFraction(digits: string): { value: bigint; scale: number } {
  let value = 0n;
  let scale = 1;
  for (const d of digits) {
    if (value > (LIMIT - 1n) / 10n) break;
    const next = value * 10n + BigInt(d);
    if (next > LIMIT) break;
    value = next;
    scale *= 10;
  }
  return { value, scale };
}
