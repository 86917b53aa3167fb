import { z } from 'zod';
import { int, namespace, optional, text } from '../fields.ts';
import { MAX_LIST_PAGE_SIZE } from '../limits.ts';
import { schemaOf } from '../parse.ts';
import type { DescribeTaskQueueRequest, DescribeTaskQueueResponse, ListTaskQueuesRequest, ListTaskQueuesResponse } from '../task-queues.ts';

/* The schemas of the task queue calls (task-queues.ts). */

/** Schema of {@link DescribeTaskQueueRequest}. */
export const describeTaskQueueRequestSchema = schemaOf<DescribeTaskQueueRequest>()(z.object({ namespace, taskQueue: text() }));

/** Schema of {@link ListTaskQueuesRequest}. */
export const listTaskQueuesRequestSchema = schemaOf<ListTaskQueuesRequest>()(z.object({
  namespace,
  pageSize: optional(int(1, MAX_LIST_PAGE_SIZE)).default(100),
}));

const str = z.string();
const num = z.number();
const iso = z.iso.datetime();
const kindStatus = z.strictObject({
  pollers: z.array(z.strictObject({ identity: str, lastAccessTime: iso, ratePerSecond: num })),
  backlogCount: num, backlogAgeMs: num.optional(),
  scheduleToStart: z.strictObject({ p50: num, p99: num, samples: num }).optional(),
});

/** Schema of {@link DescribeTaskQueueResponse}. */
export const describeTaskQueueResponseSchema = schemaOf<DescribeTaskQueueResponse>()(z.strictObject({
  namespace: str, taskQueue: str, workflow: kindStatus, activity: kindStatus, lastPollTime: iso.optional(),
}));

/** Schema of {@link ListTaskQueuesResponse}. */
export const listTaskQueuesResponseSchema = schemaOf<ListTaskQueuesResponse>()(z.strictObject({
  taskQueues: z.array(z.strictObject({ name: str, pollerCount: num, lastPollTime: iso.optional() })),
}));
