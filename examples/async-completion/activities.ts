import { EventEmitter } from 'node:events';
import { activityInfo, CompleteAsyncError } from 'steadfast/activity';

/** Approval requests going out; in a real system, an email whose link carries the token. */
export const approvalRequests = new EventEmitter();

/** Asks a person to approve an expense. The answer comes later, from another process. */
export async function requestApproval(expenseId: string): Promise<string> {
  approvalRequests.emit('request', expenseId, activityInfo().taskToken);
  throw new CompleteAsyncError(); // the worker moves on; the activity stays open
}
