import type { HistoryEvent } from '../../history/events.ts';
import type { ActivityTask } from '../../protocol/index.ts';
import type { ExecutionRecord } from '../../store/types.ts';
import type { WorkflowTaskInfo } from './state.ts';

/**
 * A workflow task started inside another transition for a waiting poll, handed over while that
 * transition commits: the poll reads the history before `firstEventId` (committed earlier) and
 * sends the transition's own `events` with it.
 */
export interface HandedWorkflowTask {
  kind: 'workflow';
  wt: WorkflowTaskInfo;
  rec: ExecutionRecord;
  previousStartedEventId: number;
  timeoutMs: number;
  /** The first event the starting transition appends (the run's next event id before it). */
  firstEventId: number;
  /** The events the starting transition appends. */
  events: readonly HistoryEvent[];
}

/** An activity attempt started inside another transition for a waiting poll. */
export interface HandedActivityTask {
  kind: 'activity';
  task: ActivityTask;
}

/** What a transition hands to a waiting poll (see eager-dispatch.ts for when). */
export type HandedTask = HandedWorkflowTask | HandedActivityTask;

/** One reserved place in an offer: the reserving transition delivers its task or releases it. */
export interface Reservation {
  readonly identity: string;
  deliver(task: HandedTask): void;
  release(): void;
}

const RESERVED = 'reserved';

/**
 * One waiting long poll's offer to take up to `room` tasks started for it. Reserving the first
 * place aborts `reserved` (ending the poll's wait); transitions that build while the first one
 * commits may reserve the rest (their commits share the group commit on SQLite), so one answer
 * carries several tasks under load, as a poll that claims rows does.
 */
export class Offer {
  /** Aborted when a transition reserves the first place. */
  readonly reserved = new AbortController();
  readonly #outcomes: Promise<HandedTask | null>[] = [];

  constructor(readonly key: string, readonly identity: string, public room: number) {}

  /** Takes one place; the caller must deliver or release it. */
  reserve(): Reservation {
    let settle!: (task: HandedTask | null) => void;
    this.#outcomes.push(new Promise((resolve) => (settle = resolve)));
    this.room--;
    // A plain reason: abort() without one builds a DOMException (and its stack) every time.
    this.reserved.abort(RESERVED);
    return { identity: this.identity, deliver: (task) => settle(task), release: () => settle(null) };
  }

  /** Settles when the first reserving transition has committed or failed. */
  first(): Promise<unknown> {
    return this.#outcomes[0] ?? Promise.resolve();
  }

  /** The tasks delivered, once every reserving transition has settled. */
  async outcome(): Promise<HandedTask[]> {
    return (await Promise.all(this.#outcomes)).filter((t): t is HandedTask => t !== null);
  }
}

/**
 * Long polls of this process that wait for a task queue and accept tasks started for them
 * directly (eager dispatch), per queue key, longest waiting first.
 */
export class Handoffs {
  #offers = new Map<string, Offer[]>();

  /** Registers a waiting poll that takes up to `room` tasks; end it with {@link Handoffs.withdraw}. */
  offer(key: string, identity: string, room: number): Offer {
    const o = new Offer(key, identity, room);
    let list = this.#offers.get(key);
    if (!list) this.#offers.set(key, (list = []));
    list.push(o);
    return o;
  }

  /** Reserves a place in the longest-waiting poll of `key`, if any. */
  take(key: string): Reservation | undefined {
    const list = this.#offers.get(key);
    const o = list?.[0];
    if (!o) return undefined;
    const r = o.reserve();
    if (o.room <= 0) this.#remove(o);
    return r;
  }

  /** True when some poll waits here. */
  hasAny(): boolean {
    return this.#offers.size > 0;
  }

  /**
   * Ends an offer: nothing when nothing reserved it; else, once its first transition settled
   * (later ones may still join meanwhile), the tasks of all its reservations.
   */
  async withdraw(o: Offer): Promise<HandedTask[]> {
    if (o.reserved.signal.aborted) await o.first();
    this.#remove(o);
    return o.outcome();
  }

  #remove(o: Offer): void {
    const list = this.#offers.get(o.key);
    const i = list ? list.indexOf(o) : -1;
    if (i < 0) return;
    list!.splice(i, 1);
    if (list!.length === 0) this.#offers.delete(o.key);
  }
}
