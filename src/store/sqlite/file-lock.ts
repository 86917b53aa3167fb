import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SteadfastError } from '../../errors/index.ts';

/** Database files open in this process, so a second open here is refused as well. */
const openHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims a SQLite database file for this store alone: the store keeps what it wrote in memory
 * (execution rows, recent events), which is only right while no other store writes the file. A
 * `<path>.lock` file holds the owning pid; a lock left by a process that is gone (a crash) is
 * taken over.
 * @returns the release function.
 * @throws SteadfastError naming the process that has the file open.
 */
export function lockDatabaseFile(path: string): () => void {
  const lock = `${path}.lock`;
  const refuse = (who: string) => new SteadfastError(
    `the SQLite database ${path} is already open in ${who}; one steadfast server owns a SQLite file ` +
    `(run several servers on PostgreSQL). If no such process is running, delete ${lock}`);
  if (openHere.has(path)) throw refuse('this process');
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const pid = Number(readFileSync(lock, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw refuse(`process ${pid}`);
    writeFileSync(lock, String(process.pid));
  }
  openHere.add(path);
  return () => {
    openHere.delete(path);
    rmSync(lock, { force: true });
  };
}
