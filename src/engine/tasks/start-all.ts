import type { TaskRecord } from '../../store/types.ts';

/**
 * Starts claimed tasks concurrently; the first started one carries the others in `moreTasks`.
 * A task whose start failed stays claimable once its lease ends; the error is thrown only when
 * no task could be started, so tasks already started are never dropped.
 */
export async function startAll<T extends { moreTasks?: T[] | undefined }>(claimed: TaskRecord[], start: (task: TaskRecord) => Promise<T | null>): Promise<T | null> {
  if (claimed.length === 1) return start(claimed[0]!);
  const settled = await Promise.allSettled(claimed.map(start));
  const started: T[] = [];
  for (const s of settled) if (s.status === 'fulfilled' && s.value) started.push(s.value);
  const failed = settled.find((s) => s.status === 'rejected');
  if (started.length === 0) {
    if (failed) throw failed.reason;
    return null;
  }
  const [head, ...rest] = started;
  if (rest.length > 0) head!.moreTasks = rest;
  return head!;
}

