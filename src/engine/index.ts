/** The durable engine service. */
export { Engine, type EngineOptions, type EngineOpenOptions } from './engine.ts';
export { returnsUndeliveredTasks, type UndeliveredTask, type UndeliveredTaskReturn } from './tasks/undelivered-tasks.ts';
export { consoleLogger, type Logger } from './core/logger.ts';
export { DEFAULT_WORKFLOW_TASK_TIMEOUT_MS, MAX_TIMEOUT_MS } from './core/requests.ts';
export { composeFeatures, type FeatureOptions } from './features.ts';
export type { Feature, FeatureRegistry } from './core/feature.ts';
export { workflowTaskRetryDelayMs, MAX_WORKFLOW_TASK_RETRY_DELAY_MS } from './workflow-task/workflow-tasks.ts';
export { TASK_LEASE_MS } from './core/queue-book.ts';
export { TIMER_LEASE_MS } from './core/timer-loop.ts';
export { historySizeOf } from './core/state.ts';
export { DEFAULT_LIMITS, LimitExceededError, type EngineLimits } from './core/limits.ts';
export { DEFAULT_MESSAGE_LIMITS, SIGNAL_DEDUP_WINDOW, type MessageLimits } from './messages/message-state.ts';
export { parseTaskTokenKeys, taskTokenNamespace, TaskTokens, type TaskTokenData, type TaskTokenKey } from './core/task-token.ts';
