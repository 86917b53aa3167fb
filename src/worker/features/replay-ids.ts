import { DeterminismViolationError } from '../../common/errors.ts';

/**
 * What a replaying run remembers of the commands it matched, for the events that refer back to
 * them by event id: activities by their ActivityTaskScheduled, children by their
 * StartChildWorkflowExecutionInitiated, external cancels by their Initiated event.
 */
export class ReplayIds {
  readonly #activities = new Map<number, { activityId: string; activityType: string }>();
  readonly #scheduledIds = new Map<string, number>();
  /** Child sequence numbers by the id of their StartChildWorkflowExecutionInitiated event. */
  readonly #children = new Map<number, number>();
  /** Controls of external cancel requests by the id of their Initiated event. */
  readonly #cancelRequests = new Map<number, string>();

  /** Notes the ActivityTaskScheduled event of an activity. */
  addActivity(scheduledEventId: number, activityId: string, activityType: string): void {
    this.#activities.set(scheduledEventId, { activityId, activityType });
    this.#scheduledIds.set(activityId, scheduledEventId);
  }

  /**
   * Activity id and type of the ActivityTaskScheduled event with this id.
   * @throws DeterminismViolationError when this run did not schedule it.
   */
  activity(scheduledEventId: number): { activityId: string; activityType: string } {
    const found = this.#activities.get(scheduledEventId);
    if (!found) {
      throw new DeterminismViolationError(
        `history refers to activity scheduled at event ${scheduledEventId}, which this run did not schedule`, scheduledEventId);
    }
    return found;
  }

  /** Id of the ActivityTaskScheduled event of an activity id; undefined when not scheduled yet. */
  scheduledEventId(activityId: string): number | undefined {
    return this.#scheduledIds.get(activityId);
  }

  /** Notes the sequence number (the command's `control`) of a child's Initiated event. */
  addChild(initiatedEventId: number, seq: number): void {
    this.#children.set(initiatedEventId, seq);
  }

  /**
   * The child's sequence number in the run (its command's `control`).
   * @throws DeterminismViolationError when this run did not start it.
   */
  child(initiatedEventId: number): number {
    const seq = this.#children.get(initiatedEventId);
    if (seq === undefined) {
      throw new DeterminismViolationError(
        `history refers to a child workflow initiated at event ${initiatedEventId}, which this run did not start`, initiatedEventId);
    }
    return seq;
  }

  /** Notes the `control` of an external cancel request's Initiated event. */
  addCancelRequest(initiatedEventId: number, control: string): void {
    this.#cancelRequests.set(initiatedEventId, control);
  }

  /**
   * The `control` of the RequestCancelExternalWorkflowExecutionInitiated event with this id: the
   * sequence number of an external handle's cancel(); undefined for a child's cancellation.
   */
  cancelRequest(initiatedEventId: number): string | undefined {
    return this.#cancelRequests.get(initiatedEventId);
  }
}
