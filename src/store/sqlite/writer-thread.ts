/**
 * The SQLite store's writer thread: owns the one writing connection, writes each batch the store
 * posts in one transaction (BatchWriter) and answers with every op's outcome once COMMIT is on
 * disk. The fsync and the row writes run here, off the server's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { BatchWriter } from './group-commit.ts';
import { SQLITE_PRAGMAS } from './queries.ts';
import { checkWrite, prepareWrites, runWrite, toWireWriteError, type WriteOp } from './writes.ts';
import type { WriterReply, WriterRequest } from './thread-writer.ts';

const port = parentPort!;
const db = new Database((workerData as { path: string }).path);
for (const p of SQLITE_PRAGMAS) db.pragma(p);
const q = prepareWrites(db);
const writer = new BatchWriter(db);

port.on('message', (msg: WriterRequest) => {
  if (msg.type === 'close') {
    db.close();
    port.postMessage({ type: 'closed' } satisfies WriterReply);
    return;
  }
  const ops = JSON.parse(msg.ops) as WriteOp[];
  let reply: WriterReply;
  try {
    const outcomes = writer.write(ops.map((op) => ({ run: () => runWrite(q, op), check: () => checkWrite(q, op) })));
    reply = {
      type: 'done',
      results: outcomes.map((o) => (o.ok ? { ok: true, value: o.value } : { ok: false, error: toWireWriteError(o.err) })),
      commits: writer.commits,
      maxBatch: writer.maxBatch,
    } as WriterReply;
  } catch (err) {
    reply = { type: 'failed', error: toWireWriteError(err) };
  }
  port.postMessage(reply);
});
