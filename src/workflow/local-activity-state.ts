import { ActivityFailure, CancelledFailure, fromFailureInfo, toFailureInfo } from '../common/failure.ts';
import { CancellationScope } from './cancellation-scope.ts';
import type { ActivationResult, SandboxCommand } from './activation.ts';
import {
  LOCAL_ACTIVITY_MARKER, type LocalActivityMarkerDetails, type LocalActivityOutcome, type LocalActivityRequest,
} from './local-activity-types.ts';
import type { UserMetadata } from '../history/user-metadata.ts';

/** What {@link LocalActivityState} needs from the run's runtime (the Activator). */
interface LocalActivityHost {
  readonly now: number;
  pushCommand(command: SandboxCommand): void;
  startTimer(ms: number): Promise<void>;
  readonly messages: { track(key: string, what: string): void; untrack(key: string): void };
}

interface Pending {
  request: LocalActivityRequest;
  /** The call's summary, for its marker. */
  userMetadata: UserMetadata | undefined;
  resolve(outcome: LocalActivityOutcome): void;
  reject(reason: unknown): void;
}

/** What an activation changed about the run's local activity calls. */
export type LocalActivityChanges = Pick<ActivationResult,
  'localActivities' | 'cancelledLocalActivities' | 'abandonedLocalActivities' | 'cancelRequestedLocalActivities'>;

/** A local activity call's options as the request carries them. */
export type LocalActivityCallInput = Omit<LocalActivityRequest, 'seq' | 'attempt' | 'originalScheduleTime' | 'activityId'> & { activityId?: string };

/**
 * The run's local activity calls, inside the sandbox. A call becomes a request to the worker
 * (taken with the activation's result); the worker's outcome comes back as a
 * `resolveLocalActivity` job, which records the call's marker and settles it. Replays get the
 * same jobs from the markers of the history, so a completed call never runs again. A retry
 * whose wait reaches `localRetryThreshold` is recorded (a marker with the failure), waits on a
 * durable timer, and runs as a new call with the next attempt.
 */
export class LocalActivityState {
  #seq = 0;
  readonly #pending = new Map<number, Pending>();
  #requests: LocalActivityRequest[] = [];
  #cancels: number[] = [];
  #abandons: number[] = [];
  #cancelRequests: number[] = [];
  readonly #host: LocalActivityHost;

  constructor(host: LocalActivityHost) {
    this.#host = host;
  }

  /**
   * Runs the call to its end: through every retry, timers included. Rejects with an
   * ActivityFailure. `userMetadata` (the call's summary) goes on each of its markers.
   */
  async call(input: LocalActivityCallInput, userMetadata?: UserMetadata): Promise<unknown> {
    const originalScheduleTime = this.#host.now;
    let attempt = 1;
    let activityId = input.activityId;
    for (;;) {
      const outcome = await this.#request({ ...input, attempt, originalScheduleTime, activityId }, userMetadata);
      if (outcome.backoffMs === undefined) {
        if (outcome.failure) throw fromFailureInfo(outcome.failure);
        return outcome.result;
      }
      activityId ??= String(outcome.seq);
      await this.#host.startTimer(Math.max(1, outcome.backoffMs));
      attempt = outcome.attempt + 1;
    }
  }

  #request(
    input: Omit<LocalActivityRequest, 'seq' | 'activityId'> & { activityId: string | undefined }, userMetadata: UserMetadata | undefined,
  ): Promise<LocalActivityOutcome> {
    const scope = CancellationScope.current();
    const seq = ++this.#seq;
    const request: LocalActivityRequest = { ...input, seq, activityId: input.activityId ?? String(seq) };
    const cancelled = (cause: unknown) => new ActivityFailure(
      `local activity ${request.activityType} (${request.activityId}) cancelled`, request.activityType, request.activityId, 'CancelRequested',
      cause instanceof Error ? cause : new CancelledFailure('Activity cancelled'),
    );
    if (scope.consideredCancelled) return scope.cancelRequested.catch((reason) => Promise.reject(cancelled(reason)));
    return new Promise((resolve, reject) => {
      this.#pending.set(seq, { request, userMetadata, resolve, reject });
      this.#requests.push(request);
      this.#host.messages.track(`local:${seq}`, `local activity ${request.activityType} (${request.activityId})`);
      if (!scope.cancellable) return;
      scope.cancelRequested.catch((reason: unknown) => {
        if (!this.#pending.has(seq)) return;
        const type = request.cancellationType ?? 'TRY_CANCEL';
        if (type === 'WAIT_CANCELLATION_COMPLETED') {
          // The worker aborts the call and reports how it ended; the marker records that outcome.
          this.#cancelRequests.push(seq);
          return;
        }
        const failure = cancelled(reason);
        // Recorded like any outcome: a replay takes the same path without asking the worker again.
        this.resolve({ seq, attempt: request.attempt, failure: toFailureInfo(failure) });
        (type === 'ABANDON' ? this.#abandons : this.#cancels).push(seq);
      });
    });
  }

  /** The worker's (or the history's) outcome of call `seq`: records its marker and settles the call. */
  resolve(outcome: LocalActivityOutcome): void {
    const pending = this.#pending.get(outcome.seq);
    if (!pending) return;
    this.#pending.delete(outcome.seq);
    this.#host.messages.untrack(`local:${outcome.seq}`);
    const { request, userMetadata } = pending;
    const details: LocalActivityMarkerDetails = {
      seq: outcome.seq, activityId: request.activityId, activityType: request.activityType, attempt: outcome.attempt,
      originalScheduleTime: request.originalScheduleTime,
    };
    if (outcome.failure === undefined) details.result = outcome.result ?? null;
    if (outcome.backoffMs !== undefined) details.backoffMs = outcome.backoffMs;
    this.#host.pushCommand({
      commandType: 'RecordMarker',
      attributes: {
        markerName: LOCAL_ACTIVITY_MARKER, details: { ...details }, ...(outcome.failure ? { failure: outcome.failure } : {}),
        ...(userMetadata ? { userMetadata } : {}),
      },
    });
    pending.resolve(outcome);
  }

  /** The requests and cancellations made since the last call, for the activation's result. */
  take(): LocalActivityChanges {
    const out: LocalActivityChanges = {};
    const requests = this.#requests.filter((r) => this.#pending.has(r.seq));
    if (requests.length) out.localActivities = requests;
    if (this.#cancels.length) out.cancelledLocalActivities = this.#cancels;
    if (this.#abandons.length) out.abandonedLocalActivities = this.#abandons;
    const waited = this.#cancelRequests.filter((seq) => this.#pending.has(seq));
    if (waited.length) out.cancelRequestedLocalActivities = waited;
    this.#requests = [];
    this.#cancels = [];
    this.#abandons = [];
    this.#cancelRequests = [];
    return out;
  }
}
