/** The durable engine service. */
export { Engine, type EngineOptions } from './engine.ts';
export { returnsUndeliveredTasks, type UndeliveredTask, type UndeliveredTaskReturn } from './undelivered-tasks.ts';
export { consoleLogger, type Logger } from './core.ts';
export { DEFAULT_WORKFLOW_TASK_TIMEOUT_MS, MAX_TIMEOUT_MS } from './requests.ts';
export { COMMAND_HANDLERS } from './commands.ts';
export { workflowTaskRetryDelayMs, MAX_WORKFLOW_TASK_RETRY_DELAY_MS } from './workflow-tasks.ts';
export { TASK_LEASE_MS } from './task-service.ts';
export { TIMER_LEASE_MS } from './timer-loop.ts';
export { DEFAULT_LIMITS, LimitExceededError, type EngineLimits } from './limits.ts';
export { DEFAULT_MESSAGE_LIMITS, SIGNAL_DEDUP_WINDOW, type MessageLimits } from './message-state.ts';
export { parseTaskTokenKeys, taskTokenNamespace, TaskTokens, type TaskTokenData, type TaskTokenKey } from './task-token.ts';
