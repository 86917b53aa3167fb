import { ServiceError } from '../../common/errors.ts';
import type {
  ActivityByIdRequest, RecordHeartbeatByIdRequest, RecordHeartbeatResponse, RespondActivityTaskCanceledByIdRequest,
  RespondActivityTaskCompletedByIdRequest, RespondActivityTaskFailedByIdRequest,
} from '../../protocol/index.ts';
import { parseRequest } from '../../protocol/parse.ts';
import {
  recordHeartbeatByIdRequestSchema, respondActivityTaskCanceledByIdRequestSchema, respondActivityTaskCompletedByIdRequestSchema,
  respondActivityTaskFailedByIdRequestSchema,
} from '../../protocol/schemas/tasks.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { atKey } from '../core/queue-book.ts';
import { resolveRun } from '../core/resolve-run.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import { cancelActivity, completeActivity, failActivity, heartbeatActivity } from './activities.ts';
import type { ActivityInfo } from './activity-state.ts';

/**
 * The activity calls that name an activity by workflow id, run id and activity id instead of a
 * task token (Temporal's `…ById` calls, used by `client.activity` to complete an activity
 * asynchronously). Each acts on the activity's current attempt exactly as the token call does on
 * the attempt its token names: a heartbeat pushes the heartbeat deadline back, a completion or a
 * failure closes the attempt (a failure may be retried by the policy).
 */
export class ActivitiesById {
  constructor(private readonly core: EngineCore) {}

  async recordActivityTaskHeartbeatById(input: RecordHeartbeatByIdRequest): Promise<RecordHeartbeatResponse> {
    const req = parseRequest(recordHeartbeatByIdRequestSchema, input);
    const cancelRequested = await this.#onActivity(req, (b, act) => heartbeatActivity(b, act, req.details));
    return { cancelRequested };
  }

  async respondActivityTaskCompletedById(input: RespondActivityTaskCompletedByIdRequest): Promise<void> {
    const req = parseRequest(respondActivityTaskCompletedByIdRequestSchema, input);
    await this.#onActivity(req, (b, act) => completeActivity(b, act, req.result, req.identity), true);
  }

  async respondActivityTaskFailedById(input: RespondActivityTaskFailedByIdRequest): Promise<void> {
    const req = parseRequest(respondActivityTaskFailedByIdRequestSchema, input);
    await this.#onActivity(req, (b, act) => failActivity(b, act, req.failure, req.identity, req.lastHeartbeatDetails), true);
  }

  async respondActivityTaskCanceledById(input: RespondActivityTaskCanceledByIdRequest): Promise<void> {
    const req = parseRequest(respondActivityTaskCanceledByIdRequestSchema, input);
    await this.#onActivity(req, (b, act) => cancelActivity(b, act, req.details, req.identity), true);
  }

  /**
   * Runs `fn` on the started attempt of the run's pending activity with the request's id.
   * @throws WorkflowNotFoundError when no such run; ServiceError NotFound when the run is closed
   *   or has no started activity with that id (never scheduled, closed, or waiting for its next attempt).
   */
  async #onActivity<T>(ref: ActivityByIdRequest, fn: (b: TransitionBuilder, act: ActivityInfo) => T, closes = false): Promise<T> {
    const rec = await resolveRun(this.core.store, ref);
    const what = `activity ${ref.activityId} of workflow ${ref.workflowId} run ${rec.runId}`;
    return this.core.mutate(rec.runId, (b) => {
      if (b.closed) throw new ServiceError('NotFound', `${what} is not pending: the run is already ${b.record.status}`);
      const act = Object.values(b.state.activities).find((a) => a.activityId === ref.activityId);
      if (!act) throw new ServiceError('NotFound', `${what} is not pending`);
      if (act.state !== 'Started') throw new ServiceError('NotFound', `${what} has not started: attempt ${act.attempt} is ${act.state}`);
      // The worker's answer to this attempt is no longer awaited once another caller closes it.
      if (closes) this.core.inFlight.delete(atKey({ runId: rec.runId, scheduledEventId: act.scheduledEventId, attempt: act.attempt }));
      return fn(b, act);
    });
  }
}
