import { proxyActivities } from 'steadfast/workflow';
import type * as activities from './activities.ts';

const { processFile } = proxyActivities<typeof activities>({
  startToCloseTimeout: '1m',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '1s', maximumAttempts: 3 },
});

/** Processes a file; a crashed attempt resumes from its last heartbeat. */
export async function fileProcessing(fileName: string): Promise<number> {
  return processFile(fileName);
}
