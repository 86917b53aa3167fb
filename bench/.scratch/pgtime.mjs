import { appendFileSync } from 'node:fs';
import pg from 'pg';
const file = process.env.PGTIME_FILE;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  const first = args[0];
  const name = typeof first === 'string' ? first.slice(0, 40) : (first?.name ?? first?.text?.replace(/\s+/g, ' ').slice(0, 40) ?? '?');
  const t0 = performance.now();
  const cb = typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
  const done = () => appendFileSync(file, `${Date.now()} ${name} ${(performance.now() - t0).toFixed(3)}\n`);
  if (cb) { args.push((...r) => { done(); cb(...r); }); return query.apply(this, args); }
  const p = query.apply(this, args);
  if (p && typeof p.then === 'function') p.then(done, done);
  return p;
};
