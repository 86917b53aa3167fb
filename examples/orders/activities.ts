import { activityInfo, ApplicationFailure } from 'steadfast/activity';

/**
 * Charges an order. The payment provider is flaky: the first two attempts fail with a
 * transient error and the third succeeds. Orders whose id starts with "declined" are refused
 * for good with a CardDeclined failure, which the workflow's policy never retries.
 */
export async function chargeCard(orderId: string, amountCents: number): Promise<string> {
  if (orderId.startsWith('declined')) {
    throw ApplicationFailure.create({ message: `card declined for ${orderId}`, type: 'CardDeclined' });
  }
  const { attempt } = activityInfo();
  if (attempt < 3) {
    throw ApplicationFailure.create({ message: `payment gateway timed out (attempt ${attempt})`, type: 'GatewayTimeout' });
  }
  return `charge-${orderId}-${amountCents}`;
}

/** Marks the order as paid in the order system. */
export async function markPaid(orderId: string, chargeId: string): Promise<void> {
  void orderId;
  void chargeId;
}
