/* The namespaces table's rows, shared by both dialects. */
import type { NamespaceState } from '../protocol/namespaces.ts';
import type { NamespaceRecord } from './types.ts';

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

/** The row's values in the column order of both dialects' insert statements. */
export function namespaceValues(r: NamespaceRecord): unknown[] {
  return [r.name, r.description, r.ownerEmail ?? null, r.retentionMs, r.state, r.createTime, r.updateTime];
}
