/**
 * `node --import tsx bench/machine-cpu.ts [--json] -- <command> [args…]`: runs a command and
 * prints the CPU the whole machine spent while it ran (busy core-seconds from /proc/stat: user,
 * nice, system, irq and softirq of every core) beside the wall time. It counts every process, so
 * it sees what a benchmark's own figures leave out: the database's backends, its WAL writer, a
 * peer engine's process. Run a long and a short run of the same command and take the difference
 * to leave start-up out: (busy₂ − busy₁) / (workflows₂ − workflows₁) is the CPU per workflow.
 * Linux only; the command's output passes through.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const HELP = `Usage: node --import tsx bench/machine-cpu.ts [--json] -- <command> [args…]

Runs <command> and prints the machine's busy core-seconds (all processes, from /proc/stat) and the
wall seconds while it ran, and the busy cores on average. --json prints them as one JSON line.
Example: node --import tsx bench/machine-cpu.ts -- node bench.mjs one-step --n 8000 --c 16`;

/** Busy time of all cores, in clock ticks (the first line of /proc/stat). */
function busyTicks(): number {
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // Idle, iowait and steal (time the hypervisor gave to other machines) are not busy here.
  return user + nice + system + irq + softirq;
}

const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const options = dashes < 0 ? args : args.slice(0, dashes);
const command = dashes < 0 ? [] : args.slice(dashes + 1);
if (options.includes('--help') || options.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
const unknown = options.filter((o) => o !== '--json');
if (unknown.length > 0 || command.length === 0) {
  console.error(unknown.length > 0 ? `machine-cpu: unknown option ${unknown[0]}` : 'machine-cpu: a command after -- is required');
  console.error(HELP);
  process.exit(2);
}
if (process.platform !== 'linux') {
  console.error('machine-cpu: reads /proc/stat, which only Linux has');
  process.exit(2);
}

// USER_HZ is 100 on every Linux architecture Node supports.
const TICKS_PER_SECOND = 100;
const before = busyTicks();
const t0 = performance.now();
const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' });
const code = await new Promise<number>((resolve) => {
  child.on('error', (err) => {
    console.error(`machine-cpu: cannot run ${command[0]}: ${err.message}`);
    process.exit(127);
  });
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
});
const wallSeconds = (performance.now() - t0) / 1000;
const after = busyTicks();
const busyCoreSeconds = (after - before) / TICKS_PER_SECOND;
const figures = { busyCoreSeconds, wallSeconds, busyCores: busyCoreSeconds / wallSeconds, exitCode: code };
if (options.includes('--json')) console.log(JSON.stringify(figures));
else console.log(`machine: ${busyCoreSeconds.toFixed(2)} busy core-seconds in ${wallSeconds.toFixed(2)} s wall (${figures.busyCores.toFixed(2)} cores busy on average)`);
process.exit(code);
