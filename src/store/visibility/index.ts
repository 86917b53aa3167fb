export * from './layout.ts';
export * from './dialect.ts';
export { sqliteVisibility } from './sqlite.ts';
export { postgresVisibility } from './postgres.ts';
export * from './rows.ts';
export * from './compile.ts';
export { encodePageToken, decodePageToken, orderKeys, type OrderKey, type KeyValue } from './paging.ts';
