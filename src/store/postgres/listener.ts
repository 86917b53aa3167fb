import pg from 'pg';
import { isNoticeFrom, type BatchNotice } from './batch-sql.ts';
import { quoteIdent } from './queries.ts';

/** What the store does with what its LISTEN connection hears. */
export interface ListenerEvents {
  /** Another server committed: its notice (runs and schedules it changed, notifications). */
  notice(body: BatchNotice): void;
  /** The connection dropped: notices may be missed until it is back. */
  lost(): void;
  /** The connection is back: what was waited on must be checked again (notices sent meanwhile were lost). */
  resumed(): void;
}

/**
 * The store's LISTEN connection to its NOTIFY channel: hears other servers' commits (its own,
 * marked with `origin`, are skipped), and re-opens itself with backoff when it drops (a server
 * restart, the network). Long polls and timers keep working on their own wake times meanwhile.
 */
export class NotifyListener {
  #client: pg.Client | undefined;
  #closed = false;

  constructor(private readonly config: pg.ClientConfig, readonly channel: string, private readonly origin: string,
    private readonly events: ListenerEvents) {}

  /** Opens the connection and starts listening. */
  async open(): Promise<void> {
    const client = new pg.Client({ ...this.config, application_name: 'steadfast-listener' });
    client.on('notification', (msg) => {
      // This store's own notices (every batch it commits) are skipped unparsed.
      if (msg.channel !== this.channel || !msg.payload || isNoticeFrom(this.origin, msg.payload)) return;
      this.events.notice(JSON.parse(msg.payload) as BatchNotice);
    });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    await client.connect();
    await client.query(`LISTEN ${quoteIdent(this.channel)}`);
    // Closed while this (re)opened: the connection is not kept, or it would hold the process open.
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#client?.end().catch(() => {});
  }

  #lost(client: pg.Client, attempt = 0): void {
    if (this.#closed || (this.#client !== client && attempt === 0)) return;
    this.#client = undefined;
    this.events.lost();
    client.end().catch(() => {});
    const delay = Math.min(100 * 2 ** attempt, 5000);
    setTimeout(() => {
      if (this.#closed) return;
      this.open().then(() => this.events.resumed(), () => this.#lost(client, attempt + 1));
    }, delay).unref();
  }
}
