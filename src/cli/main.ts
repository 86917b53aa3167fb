import { UsageError } from './args.ts';
import { SteadfastError, ValidationError } from '../retry/errors.ts';

/**
 * The `steadfast` command. Each subcommand lives in its own file and registers here.
 * Exit codes: 0 success, 1 failure, 2 bad usage.
 */
export interface CommandSpec {
  name: string;
  summary: string;
  run(argv: string[]): Promise<number>;
}

const commands: CommandSpec[] = [];

/** Adds a subcommand. */
export function register(spec: CommandSpec): void {
  commands.push(spec);
}

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  return [
    'Usage: steadfast <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `steadfast <command> --help` for the options of a command.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  await import('./commands.ts');
  const [name] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    console.log(pkg.version);
    return 0;
  }
  // Longest match first, so "retry simulate" wins over "retry".
  const sorted = [...commands].sort((a, b) => b.name.length - a.name.length);
  for (const c of sorted) {
    const words = c.name.split(' ');
    if (!words.every((w, i) => argv[i] === w)) continue;
    try {
      return await c.run(argv.slice(words.length));
    } catch (err) {
      if (err instanceof UsageError || err instanceof ValidationError) {
        console.error(err.message);
        return 2;
      }
      if (err instanceof SteadfastError) {
        // Expected failures (not found, unreachable server, a failed workflow) get one line, not a stack.
        console.error(`steadfast ${c.name}: ${err.message}`);
        return 1;
      }
      throw err;
    }
  }
  console.error(`steadfast: unknown command "${argv.join(' ')}"\n\n${usage()}`);
  return 2;
}
