import { proxyActivities } from 'steadfast/workflow';
import type * as activities from './activities.ts';

const { processFile } = proxyActivities<typeof activities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

/** Processes a file; a crashed attempt resumes from its last heartbeat. */
export async function fileProcessing(fileName: string): Promise<number> {
  return processFile(fileName);
}
