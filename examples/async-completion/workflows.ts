import { proxyActivities } from 'steadfast/workflow';
import type * as activities from './activities.ts';

const { requestApproval } = proxyActivities<typeof activities>({ startToCloseTimeout: '7 days' });

export async function expense(expenseId: string): Promise<string> {
  return `expense ${expenseId}: ${await requestApproval(expenseId)}`;
}
