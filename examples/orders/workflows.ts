import { proxyActivities } from 'steadfast/workflow';
import type * as activities from './activities.ts';

const { chargeCard, markPaid } = proxyActivities<typeof activities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: ['CardDeclined'],
  },
});

/** Charges the card (retried with exponential backoff) and records the payment. */
export async function order(orderId: string, amountCents: number): Promise<string> {
  const chargeId = await chargeCard(orderId, amountCents);
  await markPaid(orderId, chargeId);
  return chargeId;
}
