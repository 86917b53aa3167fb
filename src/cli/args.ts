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
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
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
    throw new UsageError(`steadfast ${command}: ${(err as Error).message.replace(/^.*?: /, '')} (run \`steadfast ${command} --help\` for the options)`);
  }
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
