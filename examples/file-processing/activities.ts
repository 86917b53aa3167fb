import { activityInfo, heartbeat } from 'steadfast/activity';

/** Items processed per file; a real activity would read them from the file. */
export const ITEMS = 10;

/** Items processed by each attempt, for the example's output and its test. */
export const processedByAttempt = new Map<number, number[]>();

/**
 * Processes the items of a file one by one, heartbeating the index of each finished item.
 * The first attempt crashes after item 5; the retry resumes from the last heartbeat instead
 * of starting over, as the Cadence retry seed describes.
 */
export async function processFile(fileName: string): Promise<number> {
  const info = activityInfo();
  const resumeFrom = typeof info.heartbeatDetails === 'number' ? info.heartbeatDetails + 1 : 0;
  const done: number[] = [];
  processedByAttempt.set(info.attempt, done);
  for (let i = resumeFrom; i < ITEMS; i++) {
    done.push(i);
    heartbeat(i);
    if (info.attempt === 1 && i === 5) throw new Error(`worker lost while processing ${fileName} at item ${i}`);
  }
  return ITEMS - resumeFrom;
}
