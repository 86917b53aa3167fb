import type { WorkflowExecutionStatus } from '../history/events.ts';

/** Every workflow status, in the order the list's chips show them. */
export const STATUSES: readonly WorkflowExecutionStatus[] = ['Running', 'Completed', 'Failed', 'Canceled', 'Terminated', 'ContinuedAsNew', 'TimedOut'];

/** A status as a coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge s-${status}`} data-status={status}>{status}</span>;
}
