import type { Clock } from '../retry/clock.ts';
import type { WorkflowService } from '../protocol/index.ts';
import type { Logger } from './logger.ts';
import { deliverReport } from './report.ts';

/** Throttle without a heartbeat timeout, ms. @default 30 000 (Temporal's default) */
const DEFAULT_HEARTBEAT_THROTTLE_MS = 30_000;

/** 0.8 × the heartbeat timeout, or 30 s without one: the heartbeat never misses its timeout. */
export function heartbeatThrottleMs(heartbeatTimeoutMs: number | undefined): number {
  return heartbeatTimeoutMs ? Math.max(1, Math.floor(heartbeatTimeoutMs * 0.8)) : DEFAULT_HEARTBEAT_THROTTLE_MS;
}

/**
 * Sends one activity attempt's heartbeats: the first at once, then at most one per throttle
 * interval, each carrying the latest details given. A heartbeat the service could not take
 * (Unavailable) is tried again with backoff, with the latest details, until the attempt's
 * deadline or its end. An answer with `cancelRequested`, or the service no longer knowing the
 * attempt, calls `onCancel`.
 */
export class Heartbeater {
  #latest: unknown;
  #has = false;
  #pending = false;
  #cooling = false;
  /** A heartbeat is on its way (or being retried); a new one waits for it. */
  #sending = false;
  #stopped = new AbortController();

  constructor(
    private readonly service: WorkflowService,
    private readonly taskToken: string,
    private readonly identity: string,
    private readonly throttleMs: number,
    private readonly clock: Clock,
    /** Clock time after which a heartbeat is no longer retried, ms. */
    private readonly deadline: number,
    private readonly onCancel: (reason: 'cancelRequested' | 'gone') => void,
    private readonly logger: Logger,
  ) {}

  /** Details of the latest heartbeat call, sent or not; undefined when there was none. */
  get latestDetails(): unknown {
    return this.#latest;
  }

  get hasDetails(): boolean {
    return this.#has;
  }

  heartbeat(details: unknown): void {
    if (this.#stopped.signal.aborted) return;
    this.#latest = details;
    this.#has = true;
    if (this.#cooling || this.#sending) this.#pending = true;
    else this.#send();
  }

  /** No more heartbeats for this attempt. */
  stop(): void {
    this.#stopped.abort('attempt finished'); // a plain reason: no DOMException to build
  }

  #send(): void {
    this.#pending = false;
    this.#cooling = true;
    this.#sending = true;
    const send = () => this.service.recordActivityTaskHeartbeat({ taskToken: this.taskToken, details: this.#latest, identity: this.identity })
      .catch((err: { code?: string }) => {
        if (err?.code === 'NotFound' || err?.code === 'FailedPrecondition') this.onCancel('gone');
        throw err;
      });
    void deliverReport(send, {
      clock: this.clock, logger: this.logger, what: 'a heartbeat', meta: {}, deadline: this.deadline,
      signal: this.#stopped.signal, refusedLevel: 'debug',
    }).then((outcome) => {
      this.#sending = false;
      if (outcome.delivered && outcome.value.cancelRequested) this.onCancel('cancelRequested');
      if (this.#pending && !this.#cooling && !this.#stopped.signal.aborted) this.#send();
    });
    this.clock.sleep(this.throttleMs, this.#stopped.signal).then(() => {
      this.#cooling = false;
      if (this.#pending && !this.#sending) this.#send();
    }, () => undefined);
  }
}
