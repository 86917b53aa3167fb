import { ValidationError } from '../errors/index.ts';
import { MAX_CURRENT_DETAILS_LENGTH } from '../history/user-metadata.ts';
import { activator } from './activator.ts';

/**
 * Says what the run is doing now (Temporal's `setCurrentDetails`): any text, Temporal markdown
 * included, at most 20,000 characters. It is kept in the worker, not in history, and answered
 * by the built-in `__temporal_workflow_metadata` query (`currentDetails`), which the web UI's
 * workflow page shows; a run replayed in another worker sets it again as its code runs.
 * @throws ValidationError naming `details` when it is not a string or is too long.
 * @example setCurrentDetails(`Waiting for approval from ${approver}`)
 */
export function setCurrentDetails(details: string): void {
  if (typeof details !== 'string') throw new ValidationError('details', 'must be a string', details);
  if (details.length > MAX_CURRENT_DETAILS_LENGTH) {
    throw new ValidationError('details', `must be at most ${MAX_CURRENT_DETAILS_LENGTH} characters`, `${details.slice(0, 20)}... (${details.length} characters)`);
  }
  activator().currentDetails = details;
}

/** The run's current details, as {@link setCurrentDetails} last set them; `''` before. */
export function getCurrentDetails(): string {
  return activator().currentDetails;
}
