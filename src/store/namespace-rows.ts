/* The namespaces table's rows, shared by both dialects. */
import type { NamespaceState } from '../protocol/namespaces.ts';
import type { NamespaceRecord } from './types.ts';
import { type ColumnName, NAMESPACES } from './columns.ts';

type Row = Record<string, unknown>;

/** A namespaces row as a record (PostgreSQL returns BIGINT columns as strings). */
export function toNamespace(row: Row): NamespaceRecord {
  const rec: NamespaceRecord = {
    name: String(row.name), description: String(row.description), retentionMs: Number(row.retention_ms),
    state: row.state as NamespaceState, createTime: Number(row.create_time), updateTime: Number(row.update_time),
  };
  if (row.owner_email !== null && row.owner_email !== undefined) rec.ownerEmail = String(row.owner_email);
  return rec;
}

/** The row's values in the order of {@link NAMESPACES}, which both dialects' insert statements are made of. */
export function namespaceValues(r: NamespaceRecord): unknown[] {
  const row: Record<ColumnName<typeof NAMESPACES>, unknown> = {
    name: r.name, description: r.description, owner_email: r.ownerEmail ?? null, retention_ms: r.retentionMs, state: r.state,
    create_time: r.createTime, update_time: r.updateTime,
  };
  return NAMESPACES.map((c) => row[c.column]);
}
