import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Thrown for bad usage; main() prints the message (one line) and exits 2. */
export class UsageError extends Error {}

type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/**
 * Joins a string flag and a following negative number (`--limit -1` → `--limit=-1`): parseArgs
 * would call the number an ambiguous option, while it is the flag's value and gets validated.
 */
function joinNegativeValues(argv: string[], options: FlagOptions): string[] {
  const out: string[] = [];
  const byShort = new Map(Object.entries(options).filter(([, o]) => o.short).map(([n, o]) => [o.short!, n]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const short = /^-[a-zA-Z]$/.test(arg) ? byShort.get(arg.slice(1)) : undefined;
    const name = arg.startsWith('--') ? arg.slice(2) : short;
    if (short && options[short]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`--${short}=${argv[++i]}`);
      continue;
    }
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) out.push(`${arg}=${argv[++i]}`);
    else out.push(arg);
  }
  return out;
}

/**
 * Parses flags with node's parseArgs, turning its errors into a one-line UsageError with the
 * command's name, so every subcommand answers a bad flag the same way. A negative number after
 * a string flag is that flag's value.
 */
export function parseFlags<const T extends FlagOptions>(
  command: string,
  argv: string[],
  options: T,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options, allowPositionals, strict: true, allowNegative: true } as const);
  } catch (err) {
    throw new UsageError(`steadfast ${command}: ${flagErrorText((err as Error).message, options)} (run \`steadfast ${command} --help\` for the options)`);
  }
}

/** Edit distance between two flag names, for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The known flag closest to `typed` (`limt` → `limit`), when one is near enough to be a typo. */
export function closestFlag(typed: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = name.startsWith(typed) && typed.length >= 3 ? 1 : distance(typed, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  const allowed = typed.length <= 3 ? 1 : typed.length < 8 ? 2 : 3;
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

/** parseArgs' error retold in one short line: `unknown flag --limt; did you mean --limit?`. */
export function flagErrorText(message: string, options: FlagOptions): string {
  const unknown = /^Unknown option '(-{1,2})([^']+)'/.exec(message);
  if (unknown) {
    const [, dashes, typed] = unknown;
    const near = dashes === '--' ? closestFlag(typed!, Object.keys(options)) : undefined;
    return `unknown flag ${dashes}${typed}${near ? `; did you mean --${near}?` : ''}`;
  }
  const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(message) ?? /^Option '([^']+)' argument missing/.exec(message);
  if (ambiguous) return `${ambiguous[1]!.replace(/ <value>$/, '')} needs a value`;
  return message.replace(/^.*?: /, '');
}

/** Parses a port flag; UsageError names the flag. */
export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  const rule = '--port must be an integer from 0 to 65535';
  if (value.trim() === '' || !Number.isInteger(n)) throw new UsageError(`${rule}, got "${value}"`);
  if (n < 0 || n > 65535) throw new UsageError(`${rule}, got ${n}`);
  return n;
}

/**
 * Parses an integer flag: `--event-id must be an integer, got "abc"`, then
 * `--limit must be >= 1, got -1`.
 */
export function parseIntFlag(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n)) throw new UsageError(`--${flag} must be an integer, got "${value}"`);
  if (n < min) throw new UsageError(`--${flag} must be >= ${min}, got ${n}`);
  return n;
}

/** Refuses flags that exclude each other: "use one of --args or --args-file". */
export function refuseTogether(values: Record<string, unknown>, flags: readonly string[]): void {
  const given = flags.filter((f) => values[f] !== undefined);
  if (given.length > 1) throw new UsageError(`use one of ${flags.map((f) => `--${f}`).join(' or ')}`);
}

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/**
 * Parses a size flag: a whole number of bytes, or a number with KiB, MiB or GiB (`256MiB`,
 * `1.5GiB`); UsageError names the flag.
 */
export function parseByteSizeFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? BYTE_UNITS[m[2]!.toLowerCase()] : undefined;
  const n = m && unit !== undefined ? Math.floor(Number(m[1]) * unit) : NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(`--${flag} must be a size such as 64MiB, 1GiB or a number of bytes, got "${value}"`);
  return n;
}

/**
 * Parses an enum flag without regard to case (`--status running` is `Running`); UsageError
 * names the flag and its values.
 */
export function enumFlag<const T extends string>(flag: string, value: string, allowed: readonly T[]): T;
export function enumFlag<const T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined;
export function enumFlag<const T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  if (found === undefined) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
  return found;
}
