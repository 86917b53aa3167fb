/* The PostgreSQL store's batch write: the transitions of many workflows in ONE statement (its
 * own implicit transaction, so one round trip and one commit for the whole batch), with each
 * row kind written by one multi-row INSERT … SELECT FROM unnest(…). The statement's text depends
 * only on which row kinds the batch has (its shape), so each shape is a named prepared statement,
 * parsed once per connection. */
import { eventValues, executionUpdateValues, executionValues, newTaskValues, newTimerValues } from '../rows.ts';
import {
  type Column, columnList, EXECUTION_UPDATES, EXECUTIONS, HISTORY_EVENTS, NEW_TASKS, NEW_TIMERS, pick, SCHEDULES, TASKS, TIMERS,
  unnestCasts, unnestInsertSql, VISIBILITY_BUILT_INS,
} from '../columns.ts';
import { visibilityRecordOf } from '../visibility-records.ts';
import { builtInVisibilityValues } from '../visibility/rows.ts';
import { notificationsOf } from '../transition-checks.ts';
import type { ConflictReason } from '../errors.ts';
import type { StoreNotification, Transition } from '../types.ts';
import { scheduleKey } from '../schedule-cache.ts';
import { slotColumns } from '../visibility/layout.ts';
import { binaryArrays, emptyArray, isEmptyArray, type ArrayColumn } from './binary-arrays.ts';
import { SEARCH_ATTRIBUTE_TYPES } from '../../visibility/types.ts';

const SLOTS = SEARCH_ATTRIBUTE_TYPES.flatMap((t) => slotColumns(t));

/**
 * The batch statement, composed of the parts a batch needs. The first CTEs lock what the
 * transitions check (the updated runs, the consumed timers, open runs of the inserted workflow
 * ids) with FOR UPDATE, which in READ COMMITTED returns each row's newest committed version;
 * `bad` lists each transition whose check fails, with its reason (a first run of a workflow id is
 * checked against committed runs only: a concurrent insert of the same id is still running, so
 * the open-run index refuses one of the two). Every write is guarded by `ok` (no transition
 * failed), so a batch with a conflict writes nothing: the caller rejects the failed transitions
 * and writes the rest again. Sibling CTEs do not see each other's rows, so the caller never puts
 * two transitions touching the same run, workflow id, task or timer in one batch.
 *
 * Rows are looked up by their key arrays (`run_id = ANY($3)`), not only by a join with the
 * unnested rows: the statement runs on a plan made once per connection, and one made while a
 * table was small scanned it whole for every batch from then on (at a few hundred runs, 0.4 of
 * the 0.56 ms a one-transition batch took in PostgreSQL).
 *
 * A part whose rows are all empty is left out of the text: PostgreSQL starts every node of a
 * plan, and each INSERT, UPDATE and DELETE opens its table's indexes (28 on the visibility
 * table), whether or not a row comes. The parts are written with the parameter numbers of the
 * whole statement ({@link batchParams}), generated from the column lists of {@link GROUP_COLUMNS};
 * {@link batchStatement} numbers the ones a shape uses.
 */
interface Part {
  /** The parameter groups (see {@link Groups}) whose rows the part needs; it is in the statement when one has any. */
  needs: readonly (keyof Groups)[];
  /** CTEs. */
  ctes: readonly string[];
  /** Arms of `bad`, the checks, each with its place among all checks (a transition failing several reports the first). */
  checks?: readonly (readonly [order: number, sql: string])[];
}

const OP = { column: 'op', sqliteType: 'INTEGER', pgType: 'integer' } as const satisfies Column;
const EXPECTED = { column: 'expected', sqliteType: 'INTEGER', pgType: 'integer' } as const satisfies Column;
const PAYLOAD = { column: 'payload', sqliteType: 'TEXT', pgType: 'text', json: true } as const satisfies Column;

/**
 * The row groups of a batch, in parameter order after `$1` (the NOTIFY channel): each column is
 * one parameter, an array with an element per row, sent in binary ({@link binaryArrays}); a
 * column marked `json` holds JSON texts.
 */
const GROUP_COLUMNS = {
  upd: [OP, ...pick(EXECUTIONS, ['run_id']), EXPECTED, ...EXECUTION_UPDATES],
  ins: [OP, ...EXECUTIONS],
  consume: [OP, ...pick(TIMERS, ['id'])],
  vis: VISIBILITY_BUILT_INS,
  ev: HISTORY_EVENTS,
  tasks: NEW_TASKS,
  timers: NEW_TIMERS,
  delTasks: pick(TASKS, ['id']),
  delTimers: pick(TIMERS, ['id']),
  purge: pick(EXECUTIONS, ['run_id']),
  notify: [PAYLOAD],
  first: [OP, ...pick(EXECUTIONS, ['namespace', 'workflow_id'])],
  sched: [OP, ...pick(SCHEDULES, ['namespace', 'schedule_id']), EXPECTED, ...pick(SCHEDULES, ['state', 'version'])],
} as const satisfies Record<string, readonly Column[]>;
type Groups = typeof GROUP_COLUMNS;
const GROUP_NAMES = Object.keys(GROUP_COLUMNS) as (keyof Groups)[];

/** The number of each group's first parameter in {@link batchParams}. */
const FIRST = (() => {
  const first = {} as Record<keyof Groups, number>;
  let n = 2;
  for (const g of GROUP_NAMES) {
    first[g] = n;
    n += GROUP_COLUMNS[g].length;
  }
  return first;
})();

/** `$n::type[]`: the parameter of a group's column. */
function param<G extends keyof Groups>(group: G, column: Groups[G][number]['column']): string {
  const cols: readonly Column[] = GROUP_COLUMNS[group];
  const at = cols.findIndex((c) => c.column === column);
  return `$${FIRST[group] + at}::${cols[at]!.pgType}[]`;
}

/** `unnest($n::type[], …)` of a group's parameters. */
function unnestOf(group: keyof Groups): string {
  return `unnest(${unnestCasts(GROUP_COLUMNS[group], FIRST[group])})`;
}

/** `unnest(…) AS v(column, …)`: a group's rows, named by its columns. */
function rowsOf(group: keyof Groups): string {
  return `${unnestOf(group)}\n    AS v(${columnList(GROUP_COLUMNS[group])})`;
}

const PARTS: readonly Part[] = [
  {
    needs: ['upd'],
    ctes: [`upd_in AS (SELECT * FROM ${rowsOf('upd')})`,
    `locked AS (SELECT run_id, version FROM executions WHERE run_id = ANY(${param('upd', 'run_id')}) ORDER BY run_id FOR UPDATE)`,
    `upd AS (UPDATE executions e SET ${EXECUTION_UPDATES.map((c) => `${c.column} = u.${c.column}`).join(', ')}
    FROM upd_in u WHERE e.run_id = ANY(${param('upd', 'run_id')}) AND e.run_id = u.run_id AND (SELECT ok FROM ok))`],
    checks: [[1, `SELECT u.op, 'version' AS reason, u.run_id AS detail FROM upd_in u LEFT JOIN locked l ON l.run_id = u.run_id
      WHERE l.version IS DISTINCT FROM u.expected`]],
  },
  {
    needs: ['ins'],
    ctes: [`ins_in AS (SELECT * FROM ${rowsOf('ins')})`,
    // Each inserted run's namespace, registered, locked as a foreign key locks its row: a deletion's
    // purge (FOR UPDATE) waits for this statement to commit and then removes its runs, and a statement
    // that comes after the namespace was marked deleted or removed finds no row and writes nothing.
    `ns_ok AS (SELECT name FROM namespaces WHERE name IN (SELECT namespace FROM ins_in) AND state = 'Registered' FOR KEY SHARE)`,
    `open_runs AS (SELECT x.run_id, x.namespace, x.workflow_id FROM executions x
    WHERE (x.namespace, x.workflow_id) IN (SELECT namespace, workflow_id FROM ins_in) AND x.status = 'Running' FOR UPDATE)`,
    `ins AS (INSERT INTO executions (${columnList(EXECUTIONS)})
    SELECT ${columnList(EXECUTIONS)}
    FROM ins_in WHERE (SELECT ok FROM ok) RETURNING run_id, seq)`],
    checks: [[0, `SELECT i.op, 'namespaceGone', i.namespace FROM ins_in i WHERE NOT EXISTS (SELECT 1 FROM ns_ok n WHERE n.name = i.namespace)`],
    [2, `SELECT i.op, 'duplicateRun', i.run_id FROM ins_in i
      WHERE EXISTS (SELECT 1 FROM executions x WHERE x.run_id = ANY(${param('ins', 'run_id')}) AND x.run_id = i.run_id)`],
    // An open run of the workflow id is no conflict when the same transition closes it (continue-as-new).
    [4, `SELECT i.op, 'alreadyOpen', i.workflow_id FROM ins_in i
      JOIN open_runs o ON o.namespace = i.namespace AND o.workflow_id = i.workflow_id
      WHERE NOT EXISTS (SELECT 1 FROM unnest(${param('upd', 'op')}, ${param('upd', 'run_id')}, ${param('upd', 'status')}) AS u(op, run_id, status)
        WHERE u.op = i.op AND u.run_id = o.run_id AND u.status <> 'Running')`]],
  },
  {
    needs: ['first'],
    ctes: [`first_in AS (SELECT * FROM ${rowsOf('first')})`],
    checks: [[3, `SELECT f.op, 'workflowIdUsed', f.workflow_id FROM first_in f
      WHERE EXISTS (SELECT 1 FROM executions x WHERE x.namespace = ANY(${param('first', 'namespace')}) AND x.workflow_id = ANY(${param('first', 'workflow_id')})
        AND x.namespace = f.namespace AND x.workflow_id = f.workflow_id)`]],
  },
  {
    needs: ['sched'],
    ctes: [`sched_in AS (SELECT * FROM ${rowsOf('sched')})`,
    `sched_locked AS (SELECT namespace, schedule_id, version FROM schedules
    WHERE (namespace, schedule_id) IN (SELECT namespace, schedule_id FROM sched_in) ORDER BY namespace, schedule_id FOR UPDATE)`,
    `sched_upd AS (UPDATE schedules x SET state = s.state, version = s.version FROM sched_in s
    WHERE x.namespace = s.namespace AND x.schedule_id = s.schedule_id AND (SELECT ok FROM ok))`],
    checks: [[5, `SELECT s.op, 'scheduleVersion', s.schedule_id FROM sched_in s
      LEFT JOIN sched_locked l ON l.namespace = s.namespace AND l.schedule_id = s.schedule_id WHERE l.version IS DISTINCT FROM s.expected`]],
  },
  {
    needs: ['consume'],
    ctes: [`consume_in AS (SELECT * FROM ${rowsOf('consume')})`,
      `consumed AS (SELECT id FROM timers WHERE id = ANY(${param('consume', 'id')}) FOR UPDATE)`],
    checks: [[6, `SELECT c.op, 'timerGone', c.id FROM consume_in c WHERE NOT EXISTS (SELECT 1 FROM consumed t WHERE t.id = c.id)`]],
  },
  {
    needs: ['vis'],
    ctes: [`vis AS (INSERT INTO executions_visibility (${columnList(VISIBILITY_BUILT_INS)})
    SELECT * FROM ${unnestOf('vis')} WHERE (SELECT ok FROM ok)
    ON CONFLICT (run_id) DO UPDATE SET ${VISIBILITY_BUILT_INS.filter((c) => c.column !== 'run_id').map((c) => `${c.column} = excluded.${c.column}`).join(', ')},
      search_attributes = NULL, ${SLOTS.map((c) => `${c} = NULL`).join(', ')})`],
  },
  {
    needs: ['ev'],
    ctes: [`events AS (${unnestInsertSql('history_events', HISTORY_EVENTS, FIRST.ev)} WHERE (SELECT ok FROM ok))`],
  },
  {
    needs: ['tasks'],
    ctes: [`new_tasks AS (${unnestInsertSql('tasks', NEW_TASKS, FIRST.tasks)} WHERE (SELECT ok FROM ok))`],
  },
  {
    needs: ['timers'],
    ctes: [`new_timers AS (${unnestInsertSql('timers', NEW_TIMERS, FIRST.timers)} WHERE (SELECT ok FROM ok))`],
  },
  { needs: ['delTasks'], ctes: [`gone_tasks AS (DELETE FROM tasks WHERE id = ANY(${param('delTasks', 'id')}) AND (SELECT ok FROM ok))`] },
  { needs: ['delTimers'], ctes: [`gone_timers AS (DELETE FROM timers WHERE id = ANY(${param('delTimers', 'id')}) AND (SELECT ok FROM ok))`] },
  {
    needs: ['purge'],
    ctes: [`purged_tasks AS (DELETE FROM tasks WHERE run_id = ANY(${param('purge', 'run_id')}) AND (SELECT ok FROM ok))`,
      `purged_timers AS (DELETE FROM timers WHERE run_id = ANY(${param('purge', 'run_id')}) AND (SELECT ok FROM ok))`],
  },
];

/** The whole statement's text with the parts `has` selects (parameters numbered as in {@link batchParams}). */
function composeBatchSql(has: (group: keyof Groups) => boolean): string {
  const parts = PARTS.filter((p) => p.needs.some(has));
  const checks = parts.flatMap((p) => p.checks ?? []).sort((a, b) => a[0] - b[0]).map(([, sql]) => sql);
  const ctes = parts.flatMap((p) => p.ctes);
  // The inputs and locks first, then the checks and `ok`, then the writes, which read `ok`.
  const ok = checks.length > 0
    ? [`bad (op, reason, detail) AS (\n    ${checks.join('\n    UNION ALL ')})`, 'ok AS (SELECT NOT EXISTS (SELECT 1 FROM bad) AS ok)']
    : ['ok AS (SELECT true AS ok)'];
  const notify = has('notify') ? [`notified AS (SELECT count(pg_notify($1, p)) AS n FROM unnest(${param('notify', 'payload')}) p WHERE (SELECT ok FROM ok))`] : [];
  return `WITH\n  ${[...ctes.filter((c) => !WRITES.test(c)), ...ok, ...ctes.filter((c) => WRITES.test(c)), ...notify].join(',\n  ')}
SELECT ${checks.length > 0 ? '(SELECT json_agg(json_build_array(op, reason, detail)) FROM bad)' : 'NULL::json'} AS bad,
  ${has('ins') ? '(SELECT json_agg(json_build_array(run_id, seq)) FROM ins)' : 'NULL::json'} AS seqs, ${has('notify') ? '(SELECT n FROM notified)' : '0'} AS notified`;
}

/** A CTE that writes (it goes after `ok`, which it reads). */
const WRITES = /^\w+ AS \((INSERT|UPDATE|DELETE) /;

/** The NOTIFY payload limit is 8000 bytes; payloads are cut below it. */
const MAX_PAYLOAD = 7000;

/** What one batch tells other servers: its notifications and the runs and schedules it wrote (their cached rows are stale). */
export interface BatchNotice {
  /** The origin: the writing store, which ignores its own notices. */
  o: string;
  n: StoreNotification[];
  /** Run ids written. */
  r?: string[];
  /** Schedules written or deleted, as {@link scheduleKey}s. */
  s?: string[];
}

/**
 * The NOTIFY payloads of a batch, each under the size limit: every run written, then every
 * notification once (task notifications of a queue summed into one).
 */
export function batchPayloads(origin: string, transitions: readonly Transition[]): string[] {
  const notes: StoreNotification[] = [];
  for (const t of transitions) notes.push(...notificationsOf(t));
  return noticePayloads(origin, [...new Set(transitions.flatMap((t) => t.executions.map((w) => w.record.runId)))], notes,
    transitions.flatMap((t) => (t.schedules ?? []).map((w) => scheduleKey(w.record.namespace, w.record.scheduleId))));
}

/**
 * Whether a NOTIFY payload is one `origin` sent, read from its first characters without parsing
 * it: {@link noticePayloads} writes the origin first.
 */
export function isNoticeFrom(origin: string, payload: string): boolean {
  return payload.startsWith(`{"o":${JSON.stringify(origin)},`);
}

/**
 * NOTIFY payloads naming runs and schedules changed or deleted (receivers drop them from their
 * caches), then notifications, each under the size limit; each begins with its origin
 * ({@link isNoticeFrom}).
 */
export function noticePayloads(origin: string, runs: readonly string[], notes: readonly StoreNotification[], schedules: readonly string[] = []): string[] {
  const payloads: string[] = [];
  let cur: BatchNotice = { o: origin, n: [], r: [] };
  let size = 64;
  const flush = () => {
    if (cur.n.length || cur.r!.length || cur.s?.length) payloads.push(JSON.stringify(cur));
    cur = { o: origin, n: [], r: [] };
    size = 64;
  };
  // Runs and schedules first: payloads arrive in order, so a receiver has dropped every row of
  // the batch from its cache before it hears any of the batch's notifications.
  for (const r of runs) {
    if (size + r.length + 3 > MAX_PAYLOAD) flush();
    cur.r!.push(r);
    size += r.length + 3;
  }
  for (const k of schedules) {
    // In bytes (ids may be any text), and the `,"s":[]` the first key adds.
    const len = Buffer.byteLength(JSON.stringify(k)) + 1;
    if (size + len + (cur.s ? 0 : 7) > MAX_PAYLOAD) flush();
    if (!cur.s) size += 7;
    (cur.s ??= []).push(k);
    size += len;
  }
  for (const n of notes) {
    const len = JSON.stringify(n).length + 1;
    if (size + len > MAX_PAYLOAD) flush();
    cur.n.push(n);
    size += len;
  }
  flush();
  return payloads;
}

/** A failed check of one transition of a batch: its index, why, and the run, workflow or timer id. */
export type BatchConflict = [op: number, reason: ConflictReason | 'namespaceGone', detail: string];

/** A batch's statement: named by its shape (the groups it writes), with the parameters that shape uses. */
interface BatchStatement {
  name: string;
  text: string;
  values: (string | Buffer)[];
}

/** A batch's parameters: the NOTIFY channel, then every group's columns as binary arrays ({@link binaryArrays}). */
export type BatchParams = [channel: string, ...columns: Buffer[]];

/** Each shape's text and the parameters of {@link batchParams} it uses, in order. */
const shapes = new Map<number, { text: string; slots: number[] }>();

/**
 * The statement for a batch's parameters ({@link batchParams}): the parts of {@link PARTS} its rows
 * need, its parameters numbered anew. A shape is a named prepared statement, so each connection
 * parses it once; a deployment uses a few dozen shapes at most.
 */
export function batchStatement(all: BatchParams): BatchStatement {
  const has = (g: keyof Groups) => !isEmptyArray(all[FIRST[g] - 1] as Buffer);
  let key = 0;
  for (const g of GROUP_NAMES) key = key * 2 + (has(g) ? 1 : 0);
  let shape = shapes.get(key);
  if (!shape) {
    const slots: number[] = [];
    const text = composeBatchSql(has).replace(/\$(\d+)/g, (_, n: string) => {
      const at = slots.indexOf(Number(n));
      return `$${at < 0 ? slots.push(Number(n)) : at + 1}`;
    });
    shapes.set(key, (shape = { text, slots }));
  }
  return { name: `steadfast-batch-${key.toString(36)}`, text: shape.text, values: shape.slots.map((n) => all[n - 1]!) };
}

/** The parameters of the whole batch statement ({@link PARTS}, numbered as written there) for these transitions (schedules only as updates; no custom search attributes). */
export function batchParams(channel: string, transitions: readonly Transition[], payloads: readonly string[]): BatchParams {
  // Only the groups a row comes to get column arrays: a batch of one transition fills two or three of the thirteen.
  const cols: Partial<Record<keyof Groups, unknown[][]>> = {};
  const push = (group: keyof Groups, values: readonly unknown[]) => {
    const c = (cols[group] ??= GROUP_COLUMNS[group].map((): unknown[] => []));
    for (let i = 0; i < values.length; i++) c[i]!.push(values[i]);
  };
  /** A row given by column, in the group's column order. */
  const pushRow = <G extends keyof Groups>(group: G, row: Record<Groups[G][number]['column'], unknown>) =>
    push(group, GROUP_COLUMNS[group].map((c: Column) => row[c.column as Groups[G][number]['column']]));
  transitions.forEach((t, op) => {
    for (const w of t.executions) {
      const r = w.record;
      if (w.expectedVersion === undefined) {
        push('ins', [op, ...executionValues(r)]);
        if (w.firstOfWorkflowId) pushRow('first', { op, namespace: r.namespace, workflow_id: r.workflowId });
      } else {
        push('upd', [op, r.runId, w.expectedVersion, ...executionUpdateValues(r)]);
      }
      push('vis', builtInVisibilityValues(visibilityRecordOf(r)));
      for (const e of w.events) push('ev', eventValues(r.runId, e));
    }
    // A consumed timer is checked (consume_in) and deleted with the others: an OR of the two in
    // one DELETE was planned as a sequential scan of timers.
    if (t.consumeTimerId !== undefined) {
      pushRow('consume', { op, id: t.consumeTimerId });
      push('delTimers', [t.consumeTimerId]);
    }
    for (const k of t.createTasks ?? []) push('tasks', newTaskValues(k));
    for (const k of t.createTimers ?? []) push('timers', newTimerValues(k));
    for (const id of t.deleteTaskIds ?? []) push('delTasks', [id]);
    for (const id of t.deleteTimerIds ?? []) push('delTimers', [id]);
    for (const id of t.purgeRunIds ?? []) push('purge', [id]);
    for (const w of t.schedules ?? []) {
      const s = w.record;
      pushRow('sched', { op, namespace: s.namespace, schedule_id: s.scheduleId, expected: w.expectedVersion, state: JSON.stringify(s.state), version: s.version });
    }
  });
  for (const p of payloads) push('notify', [p]);
  // Only the groups with rows are encoded; the others are the shared empty arrays of their types.
  const columns: ArrayColumn[] = [];
  for (const g of GROUP_NAMES) {
    const c = cols[g];
    if (c) GROUP_COLUMNS[g].forEach((col: Column, i) => columns.push({ type: col.pgType, name: `${g}.${col.column}`, values: c[i]! }));
  }
  const encoded = binaryArrays(columns);
  const params: BatchParams = [channel];
  let next = 0;
  for (const g of GROUP_NAMES) {
    if (cols[g]) for (let i = 0; i < GROUP_COLUMNS[g].length; i++) params.push(encoded[next++]!);
    else for (const col of GROUP_COLUMNS[g] as readonly Column[]) params.push(emptyArray(col.pgType));
  }
  return params;
}
