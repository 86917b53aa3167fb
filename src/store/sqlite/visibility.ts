import type BetterSqlite3 from 'better-sqlite3';
import type { SearchAttributeDefinition } from '../../visibility/types.ts';
import { toExecution } from '../rows.ts';
import type { ExecutionRecord, VisibilityQuery } from '../types.ts';
import { hasSearchAttributes, inPageOrder, newAttributeColumn, toAttributeColumn, visibilityRecordOf } from '../visibility-records.ts';
import { compileCountQuery, compileListQuery, type VisibilityCount } from '../visibility/compile.ts';
import type { CustomAttributeColumn } from '../visibility/layout.ts';
import { visibilityWrites } from '../visibility/rows.ts';
import { sqliteVisibility } from '../visibility/sqlite.ts';
import { Q } from './queries.ts';

type Row = Record<string, unknown>;

/**
 * The SQLite store's visibility: writes each run's executions_visibility row inside the
 * transaction that writes the run, and answers list and count queries. One server process
 * writes a SQLite file, so the namespaces' attribute columns are cached here and changed
 * only by {@link SqliteVisibility.createAttribute}.
 */
export class SqliteVisibility {
  readonly #db: BetterSqlite3.Database;
  readonly #columns = new Map<string, CustomAttributeColumn[]>();
  /** Statements by SQL text: compiled queries repeat, and the upsert's text is one per dialect. */
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  readonly #attributeColumns: BetterSqlite3.Statement;
  readonly #insertColumn: BetterSqlite3.Statement;
  readonly #byRunIds: BetterSqlite3.Statement;
  readonly #upsert: BetterSqlite3.Statement;
  readonly #progress: BetterSqlite3.Statement;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
    this.#attributeColumns = db.prepare(Q.attributeColumns);
    this.#insertColumn = db.prepare(Q.insertAttributeColumn);
    this.#byRunIds = db.prepare(Q.executionsByRunIds);
    const w = visibilityWrites(sqliteVisibility);
    this.#upsert = db.prepare(w.upsertSql);
    this.#progress = db.prepare(w.progressSql);
  }

  #statement(sql: string): BetterSqlite3.Statement {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      if (this.#statements.size >= 500) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, s);
    }
    return s;
  }

  /** The attribute columns of a namespace, by name. */
  columns(namespace: string): CustomAttributeColumn[] {
    let cols = this.#columns.get(namespace);
    if (!cols) {
      cols = (this.#attributeColumns.all({ namespace }) as Row[]).map(toAttributeColumn);
      this.#columns.set(namespace, cols);
    }
    return cols;
  }

  /**
   * Writes a run's visibility row; call inside the transaction that writes its execution row.
   * `inserted` when the transition creates the run: a later write of a run without custom
   * attributes updates only the columns that change.
   */
  write(rec: ExecutionRecord, inserted: boolean): void {
    const w = visibilityWrites(sqliteVisibility);
    const record = visibilityRecordOf(rec);
    const attributes = hasSearchAttributes(rec);
    if (!inserted && !attributes && this.#progress.run(...w.progressParams(record)).changes === 1) return;
    this.#upsert.run(...w.upsertParams(record, attributes ? this.columns(rec.namespace) : []));
  }

  /** Registers an attribute; call inside a write transaction. */
  createAttribute(namespace: string, definition: SearchAttributeDefinition): void {
    this.#columns.delete(namespace);
    const col = newAttributeColumn(namespace, this.columns(namespace), definition);
    this.#insertColumn.run({ namespace, name: col.name, type: col.type, column: col.column });
    this.#columns.delete(namespace);
  }

  /**
   * Removes an attribute: its slot column is emptied in the namespace's rows (a later attribute
   * may take the slot) and its registration deleted; call inside a write transaction.
   * @returns false when no such attribute is registered.
   */
  removeAttribute(namespace: string, name: string): boolean {
    this.#columns.delete(namespace);
    const col = this.columns(namespace).find((c) => c.name === name);
    if (!col) return false;
    this.#db.prepare(`UPDATE executions_visibility SET ${col.column} = NULL WHERE namespace = ? AND ${col.column} IS NOT NULL`).run(namespace);
    this.#db.prepare('DELETE FROM search_attribute_columns WHERE namespace = ? AND name = ?').run(namespace, name);
    this.#columns.delete(namespace);
    return true;
  }

  /** One page of a list query, the execution rows in the query's order. */
  query(q: VisibilityQuery): { executions: ExecutionRecord[]; nextPageToken?: string } {
    const c = compileListQuery(sqliteVisibility, { ...q, attributes: this.columns(q.namespace) });
    const page = c.page(this.#statement(c.sql).all(...c.params) as Row[]);
    const runIds = page.records.map((r) => r.runId);
    const rows = runIds.length ? (this.#byRunIds.all({ runIds: JSON.stringify(runIds) }) as Row[]).map(toExecution) : [];
    return { executions: inPageOrder(runIds, rows), ...(page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}) };
  }

  /** A count query's answer. */
  count(q: Omit<VisibilityQuery, 'pageSize' | 'nextPageToken'>): VisibilityCount {
    const c = compileCountQuery(sqliteVisibility, { namespace: q.namespace, query: q.query, attributes: this.columns(q.namespace) });
    return c.read(this.#statement(c.sql).all(...c.params) as Row[]);
  }
}
