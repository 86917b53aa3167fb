import type pg from 'pg';
import type { SearchAttributeDefinition } from '../../visibility/types.ts';
import { toExecution } from '../rows.ts';
import type { ExecutionRecord, VisibilityQuery } from '../types.ts';
import { hasSearchAttributes, inPageOrder, newAttributeColumn, toAttributeColumn, visibilityRecordOf } from '../visibility-records.ts';
import { compileCountQuery, compileListQuery, type VisibilityCount } from '../visibility/compile.ts';
import type { CustomAttributeColumn } from '../visibility/layout.ts';
import { postgresVisibility } from '../visibility/postgres.ts';
import { visibilityWrites } from '../visibility/rows.ts';
import { PQ } from './queries.ts';

/** Runs one statement: a pool or a client inside a transaction. */
type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * The PostgreSQL store's visibility: the executions_visibility row of each run written in the
 * transaction that writes the run, list and count queries, and attribute registration. Other
 * servers register attributes too, so the slot columns are read from the table, not cached.
 */
export const postgresVisibilityStore = {
  async columns(db: Queryable, namespace: string): Promise<CustomAttributeColumn[]> {
    return (await db.query(PQ.attributeColumns, [namespace])).rows.map(toAttributeColumn);
  },

  /** Writes a run's visibility row with the transaction's client. */
  async write(c: Queryable, rec: ExecutionRecord): Promise<void> {
    const cols = hasSearchAttributes(rec) ? await this.columns(c, rec.namespace) : [];
    const w = visibilityWrites(postgresVisibility);
    await c.query(w.upsertSql, w.upsertParams(visibilityRecordOf(rec), cols));
  },

  /** Registers an attribute in the first free slot of its type, in the client's transaction. */
  async createAttribute(c: Queryable, namespace: string, definition: SearchAttributeDefinition): Promise<void> {
    await c.query(PQ.attributeLock, [namespace]);
    const col = newAttributeColumn(namespace, await this.columns(c, namespace), definition);
    await c.query(PQ.insertAttributeColumn, [namespace, col.name, col.type, col.column]);
  },

  /**
   * Removes an attribute: its slot column is emptied in the namespace's rows (a later attribute
   * may take the slot) and its registration deleted; call inside a transaction.
   * @returns false when no such attribute is registered.
   */
  async removeAttribute(c: Queryable, namespace: string, name: string): Promise<boolean> {
    await c.query(PQ.attributeLock, [namespace]);
    const col = (await this.columns(c, namespace)).find((x) => x.name === name);
    if (!col) return false;
    await c.query(`UPDATE executions_visibility SET ${col.column} = NULL WHERE namespace = $1 AND ${col.column} IS NOT NULL`, [namespace]);
    await c.query('DELETE FROM search_attribute_columns WHERE namespace = $1 AND name = $2', [namespace, name]);
    return true;
  },

  /** One page of a list query, the execution rows in the query's order. */
  async query(db: Queryable, q: VisibilityQuery): Promise<{ executions: ExecutionRecord[]; nextPageToken?: string }> {
    const c = compileListQuery(postgresVisibility, { ...q, attributes: await this.columns(db, q.namespace) });
    const page = c.page((await db.query(c.sql, c.params)).rows);
    const runIds = page.records.map((r) => r.runId);
    const rows = runIds.length ? (await db.query(PQ.executionsByRunIds, [runIds])).rows.map(toExecution) : [];
    return { executions: inPageOrder(runIds, rows), ...(page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}) };
  },

  /** A count query's answer. */
  async count(db: Queryable, q: Omit<VisibilityQuery, 'pageSize' | 'nextPageToken'>): Promise<VisibilityCount> {
    const c = compileCountQuery(postgresVisibility, { namespace: q.namespace, query: q.query, attributes: await this.columns(db, q.namespace) });
    return c.read((await db.query(c.sql, c.params)).rows);
  },
};
