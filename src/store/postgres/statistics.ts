/* Keeping PostgreSQL's planner statistics of the growing tables current while they are young. */

/** The tables that grow with the runs, and whose rows the batch statement finds by key. */
const GROWING_TABLES = ['executions', 'executions_visibility', 'history_events'] as const;

/** Runs this store inserts between two looks at the statistics. */
const INSERTS_PER_CHECK = 256;

/**
 * The growing tables whose statistics describe under half of the rows they hold now (or none:
 * never analyzed, `reltuples` -1), and at least 200 rows. The rows held are the count
 * PostgreSQL reports (`n_live_tup`), which lags: a backend that stays busy reports its inserts
 * at most once a second, so at the first check a new table may show none. Until a table's first
 * ANALYZE they are at least `$2`, the runs this store inserted since it opened (each growing
 * table gets a row or more per run); after it, runs deleted since would make that count too high.
 */
const STALE_TABLES = `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_stat_user_tables s ON s.relid = c.oid,
  LATERAL (SELECT CASE WHEN c.reltuples < 0 THEN greatest(s.n_live_tup, $2::bigint) ELSE s.n_live_tup END AS held) h
  WHERE n.nspname = current_schema() AND c.relname = ANY($1::text[]) AND h.held >= 200 AND h.held > 2 * greatest(c.reltuples, 0)`;

/**
 * Runs ANALYZE on the growing tables when their statistics have fallen far behind.
 *
 * The batch statement is a prepared statement, whose plan PostgreSQL makes once per connection
 * and keeps until the statistics of a table it reads change. Autovacuum first analyzes a new
 * table up to a minute after it fills (`autovacuum_naptime`); a plan made before that is made
 * on no statistics, and looks runs up by scanning `executions` whole, for every batch, as the
 * table grows (at 1,500 runs, 0.45 of the 1.0 ms a one-transition batch took). After an ANALYZE,
 * every connection plans again, on the table as it is.
 *
 * So every {@link INSERTS_PER_CHECK} runs this store inserts, it looks at the statistics, and
 * analyzes a table that holds more than twice the rows its statistics describe. The table
 * doubles between two such ANALYZEs, so a table of n rows has had about log2(n / 200) of them,
 * and once autovacuum keeps up (it analyzes after 10 % more rows) this never fires.
 */
export class StatisticsKeeper {
  #insertedSinceCheck = 0;
  /** Runs this store inserted since it opened. */
  #inserted = 0;
  #busy = false;

  /** @param query runs a statement on the store's pool */
  constructor(private readonly query: (sql: string, params?: unknown[]) => Promise<{ rows: { relname: string }[] }>) {}

  /** The store committed `n` inserted runs. */
  inserted(n: number): void {
    this.#insertedSinceCheck += n;
    this.#inserted += n;
    if (this.#insertedSinceCheck < INSERTS_PER_CHECK || this.#busy) return;
    this.#insertedSinceCheck = 0;
    this.#busy = true;
    // Statistics are an economy: a failure (a lost connection, the store closing) waits for the next check.
    this.#check().catch(() => {}).finally(() => {
      this.#busy = false;
    });
  }

  async #check(): Promise<void> {
    const { rows } = await this.query(STALE_TABLES, [GROWING_TABLES, this.#inserted]);
    if (rows.length > 0) await this.query(`ANALYZE ${rows.map((r) => r.relname).join(', ')}`);
  }
}
