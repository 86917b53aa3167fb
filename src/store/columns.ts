/* The columns each table is written with, one list per table, from which both dialects' column
 * lists, placeholders and PostgreSQL `unnest` casts are generated. The migrations (sql/) create
 * the tables; test/store/columns.test.ts checks these lists against the migrated schemas. */

/** One column as the store writes it, with its type in each dialect. */
export interface Column {
  readonly column: string;
  /** Its type in the SQLite schema. */
  readonly sqliteType: 'TEXT' | 'INTEGER' | 'REAL';
  /** Its type in the PostgreSQL schema; `unnest` parameters are arrays of it. */
  readonly pgType: 'text' | 'integer' | 'bigint' | 'double precision' | 'boolean';
  /** The value is a JSON text made by `JSON.stringify` (a PostgreSQL batch sends such arrays as one literal). */
  readonly json?: true;
}

/** The names of a column list. */
export type ColumnName<T extends readonly Column[]> = T[number]['column'];

const text = <C extends string>(column: C) => ({ column, sqliteType: 'TEXT', pgType: 'text' }) as const;
const json = <C extends string>(column: C) => ({ column, sqliteType: 'TEXT', pgType: 'text', json: true }) as const;
const int = <C extends string>(column: C) => ({ column, sqliteType: 'INTEGER', pgType: 'integer' }) as const;
const bigint = <C extends string>(column: C) => ({ column, sqliteType: 'INTEGER', pgType: 'bigint' }) as const;
const bool = <C extends string>(column: C) => ({ column, sqliteType: 'INTEGER', pgType: 'boolean' }) as const;

/** The executions table's written columns (`seq` is generated), in the order of `executionValues` (rows.ts). */
export const EXECUTIONS = [
  text('run_id'), text('namespace'), text('workflow_id'), text('workflow_type'), text('task_queue'), text('status'),
  bigint('start_time'), bigint('execution_time'), bigint('close_time'), int('next_event_id'), int('attempt'),
  text('first_execution_run_id'), text('original_execution_run_id'), text('request_id'), json('memo'), json('state'),
  int('version'), json('search_attributes'), text('scheduled_by_id'), bigint('scheduled_start_time'),
] as const satisfies readonly Column[];

/** What a transition of an existing run changes in its executions row (the rest is fixed at its start). */
export const EXECUTION_UPDATES = pick(EXECUTIONS, [
  'status', 'workflow_type', 'task_queue', 'execution_time', 'close_time', 'next_event_id', 'memo', 'state', 'version', 'search_attributes',
]);

/** The history_events table. */
export const HISTORY_EVENTS = [
  text('run_id'), int('event_id'), text('event_type'), text('event_time'), json('attributes'),
] as const satisfies readonly Column[];

/** The tasks table. */
export const TASKS = [
  text('id'), text('namespace'), text('task_queue'), text('kind'), text('run_id'), bigint('visible_at'), bigint('lease_until'),
  text('lease_owner'), json('data'),
] as const satisfies readonly Column[];

/** The columns a new task is written with (it is created unleased). */
export const NEW_TASKS = pick(TASKS, ['id', 'namespace', 'task_queue', 'kind', 'run_id', 'visible_at', 'data']);

/** The timers table. */
export const TIMERS = [
  text('id'), text('namespace'), text('run_id'), text('kind'), bigint('due_at'), bigint('lease_until'), text('lease_owner'), json('data'),
] as const satisfies readonly Column[];

/** The columns a new timer is written with (it is created unleased). */
export const NEW_TIMERS = pick(TIMERS, ['id', 'namespace', 'run_id', 'kind', 'due_at', 'data']);

/**
 * The executions_visibility table's columns of built-in attributes; after them come
 * `search_attributes` and the custom attributes' slot columns (visibility/layout.ts).
 */
export const VISIBILITY_BUILT_INS = [
  text('run_id'), text('namespace'), text('workflow_id'), text('workflow_type'), text('status'), text('task_queue'),
  bigint('start_time'), bigint('execution_time'), bigint('close_time'), bigint('execution_duration'), bigint('history_length'),
  text('scheduled_by_id'), bigint('scheduled_start_time'), bool('task_failing'),
] as const satisfies readonly Column[];

/** The schedules table. */
export const SCHEDULES = [
  text('namespace'), text('schedule_id'), bigint('create_time'), json('state'), int('version'),
] as const satisfies readonly Column[];

/** The namespaces table, in the order of `namespaceValues` (namespace-rows.ts). */
export const NAMESPACES = [
  text('name'), text('description'), text('owner_email'), bigint('retention_ms'), text('state'), bigint('create_time'), bigint('update_time'),
] as const satisfies readonly Column[];

/** The columns of `table` named by `names`, in that order. */
export function pick<T extends readonly Column[], N extends ColumnName<T>>(table: T, names: readonly N[]): Extract<T[number], { column: N }>[] {
  return names.map((n) => {
    const c = table.find((x) => x.column === n);
    if (!c) throw new Error(`no column ${n}`);
    return c as Extract<T[number], { column: N }>;
  });
}

/** `a, b, c`: the columns' names, for an INSERT's column list or a SELECT. */
export function columnList(columns: readonly Column[]): string {
  return columns.map((c) => c.column).join(', ');
}

/** `?, ?, ?`: SQLite's positional placeholders for the columns. */
function sqlitePlaceholders(columns: readonly Column[]): string {
  return columns.map(() => '?').join(', ');
}

/** `$from, $from+1, …`: PostgreSQL's numbered placeholders for the columns. */
function pgPlaceholders(columns: readonly Column[], from = 1): string {
  return columns.map((_, i) => `$${from + i}`).join(', ');
}

/** `$from::text[], $from+1::bigint[], …`: PostgreSQL array parameters of the columns' types, for `unnest`. */
export function unnestCasts(columns: readonly Column[], from = 1): string {
  return columns.map((c, i) => `$${from + i}::${c.pgType}[]`).join(', ');
}

/** An INSERT of one row of `columns` into `table` in the dialect, its values as positional parameters. */
export function insertSql(dialect: 'sqlite' | 'postgres', table: string, columns: readonly Column[]): string {
  const values = dialect === 'sqlite' ? sqlitePlaceholders(columns) : pgPlaceholders(columns);
  return `INSERT INTO ${table} (${columnList(columns)}) VALUES (${values})`;
}

/** A PostgreSQL multi-row INSERT of `columns` from parameter arrays ({@link unnestCasts}), one array per column. */
export function unnestInsertSql(table: string, columns: readonly Column[], from = 1): string {
  return `INSERT INTO ${table} (${columnList(columns)}) SELECT * FROM unnest(${unnestCasts(columns, from)})`;
}
