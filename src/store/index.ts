/** The store layer: one interface, SQLite and PostgreSQL implementations, migrations. */
export type {
  Store, ExecutionRecord, TaskRecord, TimerRecord, Transition, ExecutionWrite, ExecutionQuery, TaskKind, QueueRef,
  StoreNotification, ClaimTaskRequest, ClaimTimersRequest, ScheduleRecord, ScheduleWrite,
  NamespaceRecord, NamespaceChanges,
} from './types.ts';
export {
  StoreConflictError, StoreUnavailableError, connectionLoss, PG_ERROR_CODES, PG_CONNECTION_ERROR_CODES, NETWORK_ERROR_CODES, SQLITE_ERROR_CODES,
  type ConflictReason,
} from './errors.ts';
export { SqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.ts';
export { encodeSeqToken, decodeSeqToken } from './rows.ts';
export { PostgresStore, type PostgresStoreOptions } from './postgres/postgres-store.ts';
export { openStore } from './open-store.ts';
export { approximateBytes, DEFAULT_CACHE_MAX_BYTES, type StoreCacheOptions } from './byte-bounded-map.ts';
