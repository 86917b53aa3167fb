import { proxyLocalActivities } from 'steadfast/workflow';
import type * as activities from './activities.ts';

const { reserve, charge } = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '10s' });

export async function checkout(orderId: string, cents: number): Promise<string> {
  const reservation = await reserve(orderId);
  return charge(reservation, cents);
}
