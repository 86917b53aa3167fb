import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { optionalInt, requireString } from '../common/validate.ts';
import { MAX_NAME_LENGTH } from '../protocol/limits.ts';
import type { DescribeTaskQueueResponse, TaskQueueSummary, WorkflowService } from '../protocol/index.ts';

const LIST_KEYS = optionKeys<{ pageSize?: number }>({ pageSize: true });

/**
 * Task queues as an operator sees them (`client.taskQueue`): who polls a queue, what waits on it
 * and how long tasks wait before a worker takes them.
 */
export class TaskQueueClient {
  /** @internal */
  constructor(private readonly service: WorkflowService, private readonly namespace: string) {}

  /**
   * A queue's pollers (identity, last poll, rate) and, for workflow and activity tasks, the
   * backlog, the age of its oldest task and schedule-to-start p50/p99 over the last minutes.
   * @throws ValidationError when the name is empty or too long.
   */
  describe(name: string): Promise<DescribeTaskQueueResponse> {
    return this.service.describeTaskQueue({ namespace: this.namespace, taskQueue: requireString('name', name, MAX_NAME_LENGTH) });
  }

  /** The namespace's queues that have pollers or tasks, in name order. */
  async list(options: { pageSize?: number } = {}): Promise<TaskQueueSummary[]> {
    refuseUnknownKeys('task queue list', options, LIST_KEYS);
    const pageSize = optionalInt('pageSize', options.pageSize, 1, 1000);
    return (await this.service.listTaskQueues({ namespace: this.namespace, ...(pageSize !== undefined ? { pageSize } : {}) })).taskQueues;
  }
}
