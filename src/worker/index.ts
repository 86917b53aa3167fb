/**
 * steadfast/worker: the Worker that polls a task queue, replays workflow code in a
 * deterministic sandbox and runs activities.
 */
export { Worker, type WorkerState } from './worker.ts';
export type { WorkerOptions } from './worker-options.ts';
export { consoleLogger, type Logger } from './logger.ts';
export { jsonLogger, type JsonLoggerOptions } from '../common/logger.ts';
export { DefaultLogger, Runtime, type LogEntry, type LogLevel, type RuntimeOptions } from './runtime.ts';
export { bundleWorkflows, WorkflowBundleError, type WorkflowBundle } from './bundler.ts';
export { bundleWorkflowCode, type BundleOptions, type WorkflowBundleOption } from './workflow-bundle.ts';
export { WorkflowTaskFailedError } from './workflow-run.ts';
export type { HistoryAndWorkflowId, ReplayResult, ReplayWorkerOptions, ReplayableHistory } from './replay.ts';
export { DeterminismViolationError } from '../common/errors.ts';
export type {
  WorkerInterceptors, ActivityInterceptorsFactory, ActivityInboundCallsInterceptor, ActivityOutboundCallsInterceptor, ActivityExecuteInput,
  Headers, Next,
} from './interceptors.ts';
