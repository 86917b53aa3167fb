import type { WorkflowService, WorkflowTask } from '../../src/protocol/index.ts';

/**
 * The service, with every workflow task a poll answers passed through `each` (to record it, or to
 * give the worker another one). Methods are bound to the service, whose private fields a bare
 * Proxy would not reach.
 */
export function onWorkflowPolls(service: WorkflowService, each: (task: WorkflowTask) => WorkflowTask): WorkflowService {
  return new Proxy(service, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== 'pollWorkflowTaskQueue') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<WorkflowService['pollWorkflowTaskQueue']>) => {
        const task = await target.pollWorkflowTaskQueue(...args);
        return task ? each(task) : task;
      };
    },
  });
}
