import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Thrown for bad usage; main() prints the message and exits 2. */
export class UsageError extends Error {}

/**
 * Parses flags with node's parseArgs, turning its errors into UsageError with the command's
 * name, so every subcommand answers a bad flag the same way.
 */
export function parseFlags<const T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  argv: string[],
  options: T,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true, allowNegative: true } as const);
  } catch (err) {
    throw new UsageError(`steadfast ${command}: ${(err as Error).message.replace(/^.*?: /, '')}\nRun \`steadfast ${command} --help\` for the options.`);
  }
}

/** Parses a port flag; UsageError names the flag. */
export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${value}"`);
  return n;
}
