/* The PostgreSQL store's batch write: the transitions of many workflows in ONE statement (its
 * own implicit transaction, so one round trip and one commit for the whole batch), with each
 * row kind written by one multi-row INSERT … SELECT FROM unnest(…). The statement's text depends
 * only on which row kinds the batch has (its shape), so each shape is a named prepared statement,
 * parsed once per connection. */
import { executionValues, searchAttributesJson } from '../rows.ts';
import { notificationsOf } from '../transition-checks.ts';
import type { ConflictReason } from '../errors.ts';
import type { StoreNotification, Transition } from '../types.ts';
import { scheduleKey } from '../schedule-cache.ts';
import { slotColumns } from '../visibility/layout.ts';
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
 * whole statement ({@link batchParams}); {@link batchStatement} numbers the ones a shape uses.
 */
interface Part {
  /** The parameter groups (see {@link Groups}) whose rows the part needs; it is in the statement when one has any. */
  needs: readonly (keyof Groups)[];
  /** CTEs. */
  ctes: readonly string[];
  /** Arms of `bad`, the checks, each with its place among all checks (a transition failing several reports the first). */
  checks?: readonly (readonly [order: number, sql: string])[];
}

const PARTS: readonly Part[] = [
  {
    needs: ['upd'],
    ctes: [`upd_in AS (SELECT * FROM unnest($2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::bigint[],
    $9::bigint[], $10::int[], $11::text[], $12::text[], $13::int[], $14::text[])
    AS v(op, run_id, expected, status, workflow_type, task_queue, execution_time, close_time, next_event_id, memo, state,
      version, search_attributes))`,
    `locked AS (SELECT run_id, version FROM executions WHERE run_id = ANY($3::text[]) ORDER BY run_id FOR UPDATE)`,
    `upd AS (UPDATE executions e SET status = u.status, workflow_type = u.workflow_type, task_queue = u.task_queue,
      execution_time = u.execution_time, close_time = u.close_time, next_event_id = u.next_event_id, memo = u.memo,
      state = u.state, version = u.version, search_attributes = u.search_attributes
    FROM upd_in u WHERE e.run_id = ANY($3::text[]) AND e.run_id = u.run_id AND (SELECT ok FROM ok))`],
    checks: [[1, `SELECT u.op, 'version' AS reason, u.run_id AS detail FROM upd_in u LEFT JOIN locked l ON l.run_id = u.run_id
      WHERE l.version IS DISTINCT FROM u.expected`]],
  },
  {
    needs: ['ins'],
    ctes: [`ins_in AS (SELECT * FROM unnest($15::int[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[],
    $22::bigint[], $23::bigint[], $24::bigint[], $25::int[], $26::int[], $27::text[], $28::text[], $29::text[], $30::text[],
    $31::text[], $32::int[], $33::text[], $34::text[], $35::bigint[])
    AS v(op, run_id, namespace, workflow_id, workflow_type, task_queue, status, start_time, execution_time, close_time,
      next_event_id, attempt, first_execution_run_id, original_execution_run_id, request_id, memo, state, version,
      search_attributes, scheduled_by_id, scheduled_start_time))`,
    `open_runs AS (SELECT x.run_id, x.namespace, x.workflow_id FROM executions x
    WHERE (x.namespace, x.workflow_id) IN (SELECT namespace, workflow_id FROM ins_in) AND x.status = 'Running' FOR UPDATE)`,
    `ins AS (INSERT INTO executions (run_id, namespace, workflow_id, workflow_type, task_queue, status, start_time,
      execution_time, close_time, next_event_id, attempt, first_execution_run_id, original_execution_run_id, request_id,
      memo, state, version, search_attributes, scheduled_by_id, scheduled_start_time)
    SELECT run_id, namespace, workflow_id, workflow_type, task_queue, status, start_time, execution_time, close_time,
      next_event_id, attempt, first_execution_run_id, original_execution_run_id, request_id, memo, state, version,
      search_attributes, scheduled_by_id, scheduled_start_time
    FROM ins_in WHERE (SELECT ok FROM ok) RETURNING run_id, seq)`],
    checks: [[2, `SELECT i.op, 'duplicateRun', i.run_id FROM ins_in i
      WHERE EXISTS (SELECT 1 FROM executions x WHERE x.run_id = ANY($16::text[]) AND x.run_id = i.run_id)`],
    // An open run of the workflow id is no conflict when the same transition closes it (continue-as-new).
    [4, `SELECT i.op, 'alreadyOpen', i.workflow_id FROM ins_in i
      JOIN open_runs o ON o.namespace = i.namespace AND o.workflow_id = i.workflow_id
      WHERE NOT EXISTS (SELECT 1 FROM unnest($2::int[], $3::text[], $5::text[]) AS u(op, run_id, status)
        WHERE u.op = i.op AND u.run_id = o.run_id AND u.status <> 'Running')`]],
  },
  {
    needs: ['first'],
    ctes: [`first_in AS (SELECT * FROM unnest($73::int[], $74::text[], $75::text[]) AS v(op, namespace, workflow_id))`],
    checks: [[3, `SELECT f.op, 'workflowIdUsed', f.workflow_id FROM first_in f
      WHERE EXISTS (SELECT 1 FROM executions x WHERE x.namespace = ANY($74::text[]) AND x.workflow_id = ANY($75::text[])
        AND x.namespace = f.namespace AND x.workflow_id = f.workflow_id)`]],
  },
  {
    needs: ['sched'],
    ctes: [`sched_in AS (SELECT * FROM unnest($76::int[], $77::text[], $78::text[], $79::int[], $80::text[], $81::int[])
    AS v(op, namespace, schedule_id, expected, state, version))`,
    `sched_locked AS (SELECT namespace, schedule_id, version FROM schedules
    WHERE (namespace, schedule_id) IN (SELECT namespace, schedule_id FROM sched_in) ORDER BY namespace, schedule_id FOR UPDATE)`,
    `sched_upd AS (UPDATE schedules x SET state = s.state, version = s.version FROM sched_in s
    WHERE x.namespace = s.namespace AND x.schedule_id = s.schedule_id AND (SELECT ok FROM ok))`],
    checks: [[5, `SELECT s.op, 'scheduleVersion', s.schedule_id FROM sched_in s
      LEFT JOIN sched_locked l ON l.namespace = s.namespace AND l.schedule_id = s.schedule_id WHERE l.version IS DISTINCT FROM s.expected`]],
  },
  {
    needs: ['consume'],
    ctes: [`consume_in AS (SELECT * FROM unnest($36::int[], $37::text[]) AS v(op, id))`,
      `consumed AS (SELECT id FROM timers WHERE id = ANY($37::text[]) FOR UPDATE)`],
    checks: [[6, `SELECT c.op, 'timerGone', c.id FROM consume_in c WHERE NOT EXISTS (SELECT 1 FROM consumed t WHERE t.id = c.id)`]],
  },
  {
    needs: ['vis'],
    ctes: [`vis AS (INSERT INTO executions_visibility (run_id, namespace, workflow_id, workflow_type, status, task_queue, start_time,
      execution_time, close_time, execution_duration, history_length, scheduled_by_id, scheduled_start_time)
    SELECT * FROM unnest($38::text[], $39::text[], $40::text[], $41::text[], $42::text[], $43::text[], $44::bigint[],
      $45::bigint[], $46::bigint[], $47::bigint[], $48::bigint[], $49::text[], $50::bigint[]) WHERE (SELECT ok FROM ok)
    ON CONFLICT (run_id) DO UPDATE SET namespace = excluded.namespace, workflow_id = excluded.workflow_id,
      workflow_type = excluded.workflow_type, status = excluded.status, task_queue = excluded.task_queue,
      start_time = excluded.start_time, execution_time = excluded.execution_time, close_time = excluded.close_time,
      execution_duration = excluded.execution_duration, history_length = excluded.history_length,
      scheduled_by_id = excluded.scheduled_by_id, scheduled_start_time = excluded.scheduled_start_time,
      search_attributes = NULL, ${SLOTS.map((c) => `${c} = NULL`).join(', ')})`],
  },
  {
    needs: ['ev'],
    ctes: [`events AS (INSERT INTO history_events (run_id, event_id, event_type, event_time, attributes)
    SELECT * FROM unnest($51::text[], $52::int[], $53::text[], $54::text[], $55::text[]) WHERE (SELECT ok FROM ok))`],
  },
  {
    needs: ['tasks'],
    ctes: [`new_tasks AS (INSERT INTO tasks (id, namespace, task_queue, kind, run_id, visible_at, data)
    SELECT * FROM unnest($56::text[], $57::text[], $58::text[], $59::text[], $60::text[], $61::bigint[], $62::text[])
    WHERE (SELECT ok FROM ok))`],
  },
  {
    needs: ['timers'],
    ctes: [`new_timers AS (INSERT INTO timers (id, namespace, run_id, kind, due_at, data)
    SELECT * FROM unnest($63::text[], $64::text[], $65::text[], $66::text[], $67::bigint[], $68::text[]) WHERE (SELECT ok FROM ok))`],
  },
  { needs: ['delTasks'], ctes: [`gone_tasks AS (DELETE FROM tasks WHERE id = ANY($69::text[]) AND (SELECT ok FROM ok))`] },
  { needs: ['delTimers'], ctes: [`gone_timers AS (DELETE FROM timers WHERE id = ANY($70::text[]) AND (SELECT ok FROM ok))`] },
  {
    needs: ['purge'],
    ctes: [`purged_tasks AS (DELETE FROM tasks WHERE run_id = ANY($71::text[]) AND (SELECT ok FROM ok))`,
      `purged_timers AS (DELETE FROM timers WHERE run_id = ANY($71::text[]) AND (SELECT ok FROM ok))`],
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
  const notify = has('notify') ? ['notified AS (SELECT count(pg_notify($1, p)) AS n FROM unnest($72::text[]) p WHERE (SELECT ok FROM ok))'] : [];
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
 * NOTIFY payloads naming runs and schedules changed or deleted (receivers drop them from their
 * caches), then notifications, each under the size limit.
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

/**
 * A `text[]` literal of JSON texts, written by `JSON.stringify` instead of node-postgres's
 * element-by-element escaping (about 4× faster, measured; the escaping was ~5 % of the server's
 * CPU under load). The two encodings agree for these elements: a JSON text holds no raw control
 * character or lone surrogate (`JSON.stringify` escapes them), so the outer `JSON.stringify`
 * escapes only `"` and `\`, with a backslash, as an array literal does; `null` reads as NULL.
 * Only for texts `JSON.stringify` made: any other text may hold a control character, which the
 * two encodings write differently.
 */
export function jsonTextArray(texts: readonly (string | null)[]): string {
  const json = JSON.stringify(texts);
  return `{${json.slice(1, -1)}}`;
}

/** Replaces the listed columns (JSON texts) of a group's parameter arrays by {@link jsonTextArray} literals. */
function withJsonLiterals(cols: unknown[][], json: readonly number[]): unknown[] {
  return cols.map((c, i) => (json.includes(i) ? jsonTextArray(c as (string | null)[]) : c));
}

/** A failed check of one transition of a batch: its index, why, and the run, workflow or timer id. */
export type BatchConflict = [op: number, reason: ConflictReason, detail: string];

/**
 * The row groups of a batch, each named by the first parameter of its columns in
 * {@link batchParams} (an array with an element per row).
 */
const GROUPS = {
  upd: 2, ins: 15, consume: 36, vis: 38, ev: 51, tasks: 56, timers: 63, delTasks: 69, delTimers: 70, purge: 71, notify: 72, first: 73, sched: 76,
} as const;
type Groups = typeof GROUPS;

/** A batch's statement: named by its shape (the groups it writes), with the parameters that shape uses. */
export interface BatchStatement {
  name: string;
  text: string;
  values: unknown[];
}

/** Each shape's text and the parameters of {@link batchParams} it uses, in order. */
const shapes = new Map<string, { text: string; slots: number[] }>();

/**
 * The statement for a batch's parameters ({@link batchParams}): the parts of {@link PARTS} its rows
 * need, its parameters numbered anew. A shape is a named prepared statement, so each connection
 * parses it once; a deployment uses a few dozen shapes at most.
 */
export function batchStatement(all: readonly unknown[]): BatchStatement {
  // The payloads are one array literal; `{}` is the empty one.
  const has = (g: keyof Groups) => (g === 'notify' ? all[GROUPS.notify - 1] !== '{}' : (all[GROUPS[g] - 1] as unknown[]).length > 0);
  const key = (Object.keys(GROUPS) as (keyof Groups)[]).map((g) => (has(g) ? '1' : '0')).join('');
  let shape = shapes.get(key);
  if (!shape) {
    const slots: number[] = [];
    const text = composeBatchSql(has).replace(/\$(\d+)/g, (_, n: string) => {
      const at = slots.indexOf(Number(n));
      return `$${at < 0 ? slots.push(Number(n)) : at + 1}`;
    });
    shapes.set(key, (shape = { text, slots }));
  }
  return { name: `steadfast-batch-${parseInt(key, 2).toString(36)}`, text: shape.text, values: shape.slots.map((n) => all[n - 1]) };
}

/** The parameters of the whole batch statement ({@link PARTS}, numbered as written there) for these transitions (schedules only as updates; no custom search attributes). */
export function batchParams(channel: string, transitions: readonly Transition[], payloads: readonly string[]): unknown[] {
  const upd: unknown[][] = Array.from({ length: 13 }, () => []);
  const ins: unknown[][] = Array.from({ length: 21 }, () => []);
  const consume: unknown[][] = [[], []];
  const first: unknown[][] = [[], [], []];
  const sched: unknown[][] = Array.from({ length: 6 }, () => []);
  const vis: unknown[][] = Array.from({ length: 13 }, () => []);
  const ev: unknown[][] = Array.from({ length: 5 }, () => []);
  const tasks: unknown[][] = Array.from({ length: 7 }, () => []);
  const timers: unknown[][] = Array.from({ length: 6 }, () => []);
  const delTasks: string[] = [];
  const delTimers: string[] = [];
  const purge: string[] = [];
  const push = (cols: unknown[][], values: readonly unknown[]) => values.forEach((v, i) => cols[i]!.push(v));
  transitions.forEach((t, op) => {
    for (const w of t.executions) {
      const r = w.record;
      if (w.expectedVersion === undefined) {
        push(ins, [op, ...executionValues(r)]);
        if (w.firstOfWorkflowId) push(first, [op, r.namespace, r.workflowId]);
      } else {
        push(upd, [op, r.runId, w.expectedVersion, r.status, r.workflowType, r.taskQueue, r.executionTime, r.closeTime ?? null,
          r.nextEventId, r.memo === undefined ? null : JSON.stringify(r.memo), JSON.stringify(r.state), r.version, searchAttributesJson(r)]);
      }
      push(vis, [r.runId, r.namespace, r.workflowId, r.workflowType, r.status, r.taskQueue, r.startTime, r.executionTime,
        r.closeTime ?? null, r.closeTime === undefined ? null : Math.max(0, r.closeTime - r.executionTime), r.nextEventId - 1,
        r.scheduledById ?? null, r.scheduledStartTime ?? null]);
      for (const e of w.events) push(ev, [r.runId, e.eventId, e.eventType, e.eventTime, JSON.stringify(e.attributes)]);
    }
    // A consumed timer is checked (consume_in) and deleted with the others: an OR of the two in
    // one DELETE was planned as a sequential scan of timers.
    if (t.consumeTimerId !== undefined) {
      push(consume, [op, t.consumeTimerId]);
      delTimers.push(t.consumeTimerId);
    }
    for (const k of t.createTasks ?? []) push(tasks, [k.id, k.namespace, k.taskQueue, k.kind, k.runId, k.visibleAt, JSON.stringify(k.data)]);
    for (const k of t.createTimers ?? []) push(timers, [k.id, k.namespace, k.runId, k.kind, k.dueAt, JSON.stringify(k.data)]);
    delTasks.push(...(t.deleteTaskIds ?? []));
    delTimers.push(...(t.deleteTimerIds ?? []));
    purge.push(...(t.purgeRunIds ?? []));
    for (const w of t.schedules ?? []) {
      push(sched, [op, w.record.namespace, w.record.scheduleId, w.expectedVersion, JSON.stringify(w.record.state), w.record.version]);
    }
  });
  // The JSON columns: memo, state and search attributes of runs, event attributes, task and timer data, schedule state.
  return [channel, ...withJsonLiterals(upd, [9, 10, 12]), ...withJsonLiterals(ins, [15, 16, 18]), ...consume, ...vis,
    ...withJsonLiterals(ev, [4]), ...withJsonLiterals(tasks, [6]), ...withJsonLiterals(timers, [5]), delTasks, delTimers, purge,
    jsonTextArray(payloads), ...first, ...withJsonLiterals(sched, [4])];
}
