import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../../src/client/index.ts';
import { BIN, freePort, spawnNode, type Child } from '../helpers/processes.ts';

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

/** A `steadfast dev` on a free port and a fresh SQLite file, with a CLI runner and a client of it. */
export interface DevServer {
  address: string;
  dev: Child;
  cli: (...args: string[]) => Promise<CliRun>;
  client: Client;
  /** Closes the client, kills the server and removes its folder. */
  close(): Promise<void>;
}

/** Starts `steadfast dev` (with `extraArgs`) in a fresh `prefix` folder and waits until it listens. */
export async function startDev(prefix: string, extraArgs: string[] = []): Promise<DevServer> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const dev = spawnNode([BIN, 'dev', '--port', String(port), '--db', join(dir, 'dev.sqlite'), ...extraArgs]);
  const client = new Client({ address });
  const close = async () => {
    client.close();
    await dev.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await dev.waitFor(/steadfast dev listening on/);
  } catch (err) {
    await close();
    throw err;
  }
  return { address, dev, cli: cliAt(address), client, close };
}
