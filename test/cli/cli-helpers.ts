import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { BIN, spawnNode, type Child } from '../helpers/processes.ts';

/** The workflows the CLI tests run (test/fixtures/workflows/cli.ts). */
export const CLI_WORKFLOWS = fileURLToPath(new URL('../fixtures/workflows/cli.ts', import.meta.url));

/** What a run of the real `steadfast` binary printed, stdout and stderr apart. */
export interface CliRun {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Collects a child's stdout and stderr apart until it exits. */
export async function collect(child: Child): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.proc.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await child.exited;
  return { code, stdout, stderr };
}

/** A runner of `steadfast <args> --address <address>`. */
export function cliAt(address: string): (...args: string[]) => Promise<CliRun> {
  return (...args) => collect(spawnNode([BIN, ...args, '--address', address]));
}

/** Asserts a run's exit code, showing what it printed when the code differs. */
export function assertExit(r: CliRun, code: number, what: string): void {
  assert.equal(r.code, code, `${what} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
}

/** A failure must be one line on stderr matching `message`, with the exit code given. */
export function assertOneLine(r: CliRun, code: 1 | 2, message: RegExp, what: string): void {
  assertExit(r, code, what);
  assert.match(r.stderr, /^[^\n]+\n$/, `${what} printed more than one line on stderr:\n${r.stderr}`);
  assert.match(r.stderr.trimEnd(), message, what);
}

/**
 * Runs the cases two at a time: each is a Node process compiling the CLI through tsx, and the
 * machine's two cores are shared with the other test files.
 */
export async function inTwoLanes<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const lane = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
  };
  await Promise.all([lane(), lane()]);
}
