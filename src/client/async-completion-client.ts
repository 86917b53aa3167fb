import { NamespaceNotFoundError, ServiceError } from '../common/errors.ts';
import { toFailureInfo } from '../common/failure.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { optionalString, requireString } from '../common/validate.ts';
import { brandClass, SteadfastError, ValidationError } from '../errors/index.ts';
import { MAX_ID_LENGTH } from '../protocol/limits.ts';
import type { WorkflowService } from '../protocol/index.ts';
import { payloadOf } from './request-limits.ts';

/**
 * An activity named by its workflow and id instead of a task token (Temporal's `FullActivityId`):
 * the call acts on the current attempt of the run's pending activity with that id.
 */
export interface FullActivityId {
  workflowId: string;
  /** @default the workflow id's latest run */
  runId?: string;
  activityId: string;
}

const FULL_ACTIVITY_ID_KEYS = optionKeys<FullActivityId>({ workflowId: true, runId: true, activityId: true });

/**
 * The activity a call named is not waiting for a completion, as Temporal's error of the name: the
 * token was not signed by this service (forged or altered), names an attempt that is over (the
 * activity completed, timed out or moved on to a retry), or no pending, started activity has the id.
 */
export class ActivityNotFoundError extends SteadfastError {}
brandClass(ActivityNotFoundError, 'ActivityNotFoundError');

/** The service refused to complete or heartbeat the activity for a reason other than its being gone; `cause` is the service's error. */
export class ActivityCompletionError extends SteadfastError {}
brandClass(ActivityCompletionError, 'ActivityCompletionError');

/**
 * Thrown by {@link AsyncCompletionClient.heartbeat} when the workflow asked to cancel the activity,
 * as Temporal's: the heartbeat was recorded; the activity should stop and report the cancellation.
 */
export class ActivityCancelledError extends SteadfastError {}
brandClass(ActivityCancelledError, 'ActivityCancelledError');

/** What the calls take: an attempt's `activityInfo().taskToken`, or a {@link FullActivityId}. */
type Target = { taskToken: string } | { namespace: string; workflowId: string; runId?: string; activityId: string };

/**
 * Completes, fails, cancels and heartbeats activities from outside the worker (`client.activity`),
 * as Temporal's `AsyncCompletionClient`: for an activity that threw `CompleteAsyncError` and left
 * its attempt to be finished by another process. Each call names the attempt by its task token
 * (`activityInfo().taskToken`), or the activity by {@link FullActivityId}.
 */
export class AsyncCompletionClient {
  /** @internal */
  constructor(private readonly service: WorkflowService, readonly namespace: string, private readonly identity: string) {}

  /**
   * Completes the activity with `result`.
   * @throws ActivityNotFoundError when the activity is not waiting for a completion.
   */
  async complete(taskTokenOrFullActivityId: Uint8Array | FullActivityId, result?: unknown): Promise<void> {
    const target = this.#target(taskTokenOrFullActivityId);
    const sent = payloadOf('result', result === undefined ? null : result);
    const identity = this.identity;
    await this.#call(() => ('taskToken' in target
      ? this.service.respondActivityTaskCompleted({ taskToken: target.taskToken, result: sent, identity })
      : this.service.respondActivityTaskCompletedById({ ...target, result: sent, identity })));
  }

  /**
   * Fails the attempt with `err` (an ApplicationFailure keeps its type, details and
   * nonRetryable); the activity's retry policy decides whether another attempt follows.
   * @throws ActivityNotFoundError when the activity is not waiting for a completion.
   */
  async fail(taskTokenOrFullActivityId: Uint8Array | FullActivityId, err: unknown): Promise<void> {
    const target = this.#target(taskTokenOrFullActivityId);
    const failure = payloadOf('err', toFailureInfo(err));
    const identity = this.identity;
    await this.#call(() => ('taskToken' in target
      ? this.service.respondActivityTaskFailed({ taskToken: target.taskToken, failure, identity })
      : this.service.respondActivityTaskFailedById({ ...target, failure, identity })));
  }

  /**
   * Reports that the activity stopped on the cancellation the workflow asked for; the workflow
   * sees it canceled, with `details`.
   * @throws ActivityNotFoundError when the activity is not waiting for a completion.
   */
  async reportCancellation(taskTokenOrFullActivityId: Uint8Array | FullActivityId, details?: unknown): Promise<void> {
    const target = this.#target(taskTokenOrFullActivityId);
    const sent = details === undefined ? undefined : payloadOf('details', details);
    const identity = this.identity;
    await this.#call(() => ('taskToken' in target
      ? this.service.respondActivityTaskCanceled({ taskToken: target.taskToken, identity, ...(sent !== undefined ? { details: sent } : {}) })
      : this.service.respondActivityTaskCanceledById({ ...target, identity, ...(sent !== undefined ? { details: sent } : {}) })));
  }

  /**
   * Records a heartbeat of the attempt, with `details` for a later attempt to resume from; it
   * pushes the heartbeat timeout back exactly as a worker's heartbeat does.
   * @throws ActivityCancelledError when the workflow asked to cancel the activity.
   * @throws ActivityNotFoundError when the activity is not waiting for a completion.
   */
  async heartbeat(taskTokenOrFullActivityId: Uint8Array | FullActivityId, details?: unknown): Promise<void> {
    const target = this.#target(taskTokenOrFullActivityId);
    const sent = details === undefined ? undefined : payloadOf('details', details);
    const identity = this.identity;
    const { cancelRequested } = await this.#call(() => ('taskToken' in target
      ? this.service.recordActivityTaskHeartbeat({ taskToken: target.taskToken, identity, ...(sent !== undefined ? { details: sent } : {}) })
      : this.service.recordActivityTaskHeartbeatById({ ...target, identity, ...(sent !== undefined ? { details: sent } : {}) })));
    if (cancelRequested) throw new ActivityCancelledError('the workflow asked to cancel the activity');
  }

  #target(given: unknown): Target {
    const field = 'taskTokenOrFullActivityId';
    if (given instanceof Uint8Array) {
      if (given.length === 0) throw new ValidationError(field, 'must be a non-empty task token', 'empty Uint8Array');
      return { taskToken: Buffer.from(given.buffer, given.byteOffset, given.byteLength).toString('utf8') };
    }
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw new ValidationError(field, 'must be a task token (activityInfo().taskToken, a Uint8Array) or { workflowId, runId?, activityId }', given);
    }
    refuseUnknownKeys('full activity id', given, FULL_ACTIVITY_ID_KEYS, { field });
    const id = given as Record<string, unknown>;
    const runId = optionalString(`${field}.runId`, id.runId, MAX_ID_LENGTH);
    return {
      namespace: this.namespace,
      workflowId: requireString(`${field}.workflowId`, id.workflowId, MAX_ID_LENGTH),
      ...(runId !== undefined ? { runId } : {}),
      activityId: requireString(`${field}.activityId`, id.activityId, MAX_ID_LENGTH),
    };
  }

  /** Runs a call, answering a refusal in Temporal's terms. */
  async #call<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (err instanceof NamespaceNotFoundError) throw err;
      // Refusals of the token itself (not signed here, or naming another namespace) and of an attempt that is over.
      const gone = (err instanceof ValidationError && err.field === 'taskToken')
        || (err instanceof ServiceError && (err.code === 'NotFound' || err.code === 'FailedPrecondition'));
      if (gone) throw new ActivityNotFoundError(`activity not found: ${(err as Error).message}`, { cause: err });
      if (err instanceof ServiceError) throw new ActivityCompletionError(err.message, { cause: err });
      throw err;
    }
  }
}
