import { loadMigrations } from '../migrations.ts';
import { ValidationError } from '../../errors/index.ts';
import type { BuiltInAttributeName, SearchAttributeDefinition, SearchAttributeType } from '../../visibility/types.ts';

/** The table of visibility records (docs/visibility.md). */
export const VISIBILITY_TABLE = 'executions_visibility';

/** The column of each built-in attribute. Times are epoch milliseconds. */
export const BUILT_IN_COLUMNS: Readonly<Record<BuiltInAttributeName, string>> = {
  WorkflowId: 'workflow_id',
  WorkflowType: 'workflow_type',
  RunId: 'run_id',
  ExecutionStatus: 'status',
  TaskQueue: 'task_queue',
  StartTime: 'start_time',
  CloseTime: 'close_time',
  ExecutionTime: 'execution_time',
  ExecutionDuration: 'execution_duration',
  HistoryLength: 'history_length',
  TemporalScheduledById: 'scheduled_by_id',
  TemporalScheduledStartTime: 'scheduled_start_time',
  TaskFailing: 'task_failing',
};

/** How many slot columns each custom attribute type has per namespace (Temporal's SQL defaults, 10 Keyword and 3 of the rest). */
export const SLOTS_PER_TYPE: Readonly<Record<SearchAttributeType, number>> = {
  Keyword: 10, Text: 3, Int: 3, Double: 3, Bool: 3, Datetime: 3, KeywordList: 3,
};

const SLOT_PREFIX: Readonly<Record<SearchAttributeType, string>> = {
  Keyword: 'keyword', Text: 'text', Int: 'int', Double: 'double', Bool: 'bool', Datetime: 'datetime', KeywordList: 'keyword_list',
};

/** The slot columns of a type, in allocation order: `keyword_01` … `keyword_10`. */
export function slotColumns(type: SearchAttributeType): string[] {
  return Array.from({ length: SLOTS_PER_TYPE[type] }, (_, i) => `${SLOT_PREFIX[type]}_${String(i + 1).padStart(2, '0')}`);
}

/** A custom attribute of a namespace with the slot column that holds its values. */
export interface CustomAttributeColumn extends SearchAttributeDefinition {
  /** One of {@link slotColumns} of the attribute's type. */
  readonly column: string;
}

/**
 * Gives a newly registered attribute the first free slot column of its type in the namespace.
 * @throws ValidationError when every slot of that type is taken.
 */
export function assignAttributeColumn(existing: readonly CustomAttributeColumn[], definition: SearchAttributeDefinition): CustomAttributeColumn {
  const taken = new Set(existing.map((c) => c.column));
  const column = slotColumns(definition.type).find((c) => !taken.has(c));
  if (column === undefined) {
    throw new ValidationError(`searchAttributes.${definition.name}`,
      `cannot be registered: all ${SLOTS_PER_TYPE[definition.type]} ${definition.type} attributes of the namespace are in use`, definition.type);
  }
  return { name: definition.name, type: definition.type, column };
}

/**
 * The column of a custom attribute, checked against the slot columns of its type: column
 * names are written into SQL text, so only names of the layout ever get there.
 */
export function customColumn(definition: CustomAttributeColumn): string {
  if (!slotColumns(definition.type).includes(definition.column)) {
    throw new ValidationError(`searchAttributes.${definition.name}.column`, `must be a ${definition.type} slot column`, definition.column);
  }
  return definition.column;
}

const LAYOUT_HEADER = `-- Visibility records: one row per run, written in the same transaction as the run's
-- execution row. Times are epoch milliseconds. Custom search attributes live in typed slot
-- columns; search_attribute_columns maps each namespace's attribute names to its slots.
-- See docs/visibility.md for the reasons behind each choice.

`;

/**
 * The CREATE statements of the visibility layout for a dialect (the sketch in docs/visibility.md),
 * taken from migration 0004 itself (its tables and indexes, without the back-fill), made
 * idempotent with IF NOT EXISTS, so the layout the tests and docs show is the one a database gets.
 */
export function visibilityLayoutSql(dialect: 'sqlite' | 'postgres'): string {
  const migration = loadMigrations(dialect).find((m) => m.name === 'visibility');
  const sql = migration?.sql ?? '';
  const from = sql.indexOf(`CREATE TABLE ${VISIBILITY_TABLE} (`);
  const to = sql.indexOf(`\nINSERT INTO ${VISIBILITY_TABLE}`);
  if (from < 0 || to < from) throw new Error(`migration ${dialect}/0004-visibility.sql no longer holds the visibility layout`);
  // Later migrations' additions to the table: the built-in TaskFailing column (task-queues).
  const later = loadMigrations(dialect).find((m) => m.name === 'task-queues')?.sql ?? '';
  const added = later.indexOf(`ALTER TABLE ${VISIBILITY_TABLE}`);
  if (added < 0) throw new Error(`migration ${dialect} task-queues no longer adds the TaskFailing column`);
  return LAYOUT_HEADER + `${sql.slice(from, to).trimEnd()}\n${later.slice(added)}`.replace(/^CREATE (TABLE|INDEX) /gm, 'CREATE $1 IF NOT EXISTS ');
}
