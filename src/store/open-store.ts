import { ValidationError } from '../errors/index.ts';
import { PostgresStore, type PostgresStoreOptions } from './postgres/postgres-store.ts';
import { SqliteStore } from './sqlite/sqlite-store.ts';
import type { Store } from './types.ts';

/**
 * Opens a store from a URL: `sqlite:PATH` (the embedded default; the file is created) or
 * `postgres://user@host:port/db` (also `postgresql://`; `?schema=NAME` picks the schema).
 * Migrations are applied before it resolves. The caller owns the store and closes it. Both take
 * `cacheMaxBytes`; `schema` and `poolSize` are PostgreSQL's.
 * @throws ValidationError naming `database` for any other URL.
 */
export async function openStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  if (typeof url !== 'string' || url.length === 0) throw new ValidationError('database', 'must be sqlite:PATH or postgres://...', url);
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new ValidationError('database', 'must name a file after sqlite:', url);
    return SqliteStore.open(path, options.cacheMaxBytes === undefined ? {} : { cacheMaxBytes: options.cacheMaxBytes });
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    if (options.poolSize !== undefined && (!Number.isInteger(options.poolSize) || options.poolSize < 1 || options.poolSize > 1000)) {
      throw new ValidationError('poolSize', 'must be a whole number from 1 to 1000', options.poolSize);
    }
    if (options.schema !== undefined && (typeof options.schema !== 'string' || !/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(options.schema))) {
      throw new ValidationError('schema', 'must be an identifier of 1 to 63 letters, digits, _ or $, not starting with a digit', options.schema);
    }
    const u = new URL(url);
    const schema = u.searchParams.get('schema') ?? options.schema;
    u.searchParams.delete('schema');
    return PostgresStore.open(u.toString(), { ...options, ...(schema ? { schema } : {}) });
  }
  throw new ValidationError('database', 'must be sqlite:PATH or postgres://...', url);
}
