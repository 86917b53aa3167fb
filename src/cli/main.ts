import { UsageError } from './args.ts';
import { errorLine } from './error-line.ts';
import { queryPointer } from './query-pointer.ts';
import { SteadfastError, ValidationError } from '../errors/index.ts';
import { ServiceError } from '../common/errors.ts';

import type { CommandSpec } from './command-spec.ts';

/*
 * The `steadfast` command. Each subcommand lives in its own file and is listed in COMMANDS
 * (commands.ts). Exit codes: 0 success, 1 failure, 2 bad usage.
 */

function usage(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  return [
    'Usage: steadfast <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Temporal\'s `operator namespace` and `operator search-attribute` are `namespace` and `search-attribute`.',
    'Run `steadfast <command> --help` for the options of a command, with an example.',
    '',
    'Example:',
    '  steadfast dev &',
    '  steadfast workflow execute order --task-queue orders --input \'"o-1"\' --input 100',
    '',
    'Exit codes: 0 done, 1 the operation failed, 2 bad usage.',
  ].join('\n');
}

/** An error on one line; errors that are neither steadfast's nor usage errors keep their class name. */
function oneLine(err: unknown): string {
  const plain = err instanceof SteadfastError || err instanceof UsageError || !(err instanceof Error);
  return plain ? errorLine(err) : `${err.name}: ${errorLine(err)}`;
}

/** Temporal's command names where ours differ: `operator namespace …` is `namespace …`. */
const ALIASES: Record<string, string[]> = { 'operator namespace': ['namespace'], 'operator search-attribute': ['search-attribute'] };

/** The commands of a group (`retry` → `retry simulate`; `operator` → its aliases), with their summaries. */
function groupOf(group: string, commands: readonly CommandSpec[]): [string, string][] {
  const own = commands.filter((c) => c.name.startsWith(`${group} `)).map((c): [string, string] => [c.name, c.summary]);
  const aliased = Object.entries(ALIASES).filter(([alias]) => alias.startsWith(`${group} `))
    .map(([alias, target]): [string, string] => [alias, commands.find((c) => c.name === target.join(' '))?.summary ?? '']);
  return [...own, ...aliased];
}

function groupHelp(group: string, members: [string, string][]): string {
  const width = Math.max(...members.map(([n]) => n.length));
  return [
    `Usage: steadfast ${group} <command> [options]`, '', 'Commands:',
    ...members.map(([n, summary]) => `  ${n.padEnd(width)}  ${summary}`), '',
    `Run \`steadfast ${members[0]![0]} --help\` for the options of a command, with an example.`, '',
    `Example:`, `  steadfast ${members[0]![0]} --help`,
  ].join('\n');
}

/** A closed pipe (`steadfast workflow list | head -1`) ends the command quietly. */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
}

/** Runs the command line `argv`; resolves with the exit code. */
export async function main(argvGiven: string[]): Promise<number> {
  quietOnClosedPipe();
  const { COMMANDS: commands } = await import('./commands.ts');
  const alias = Object.keys(ALIASES).find((a) => a.split(' ').every((w, i) => argvGiven[i] === w));
  const argv = alias ? [...ALIASES[alias]!, ...argvGiven.slice(alias.split(' ').length)] : argvGiven;
  const [name] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage(commands));
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
        const pointer = queryPointer(err);
        console.error(pointer === undefined ? oneLine(err) : `${oneLine(err)}\n${pointer}`);
        return 2;
      }
      // Every failure is one line: expected ones (not found, unreachable server, a failed
      // workflow) by their message, anything else by its name and message.
      const hint = err instanceof ServiceError && err.code === 'Unavailable'
        ? ' (is a server running there? `steadfast dev` starts one; --address and $STEADFAST_ADDRESS choose another)' : '';
      console.error(`steadfast ${c.name}: ${oneLine(err)}${hint}`);
      return 1;
    }
  }
  const members = name ? groupOf(name, commands) : [];
  if (members.length > 0) {
    const rest = argv.slice(1);
    if (rest.length === 0 || rest[0] === '--help' || rest[0] === '-h' || rest[0] === 'help') {
      console.log(groupHelp(name!, members));
      return rest.length === 0 ? 2 : 0;
    }
    console.error(`steadfast ${name}: unknown command "${rest[0]}" (run \`steadfast ${name} --help\` for its commands)`);
    return 2;
  }
  console.error(`steadfast: unknown command "${argv[0]}" (run \`steadfast --help\` for the commands)`);
  return 2;
}
