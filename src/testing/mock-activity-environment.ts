import { EventEmitter } from 'node:events';
import { Context, runInActivityContext, type ActivityInfo, type ActivityLogger } from '../activity/context.ts';
import { CancelledFailure } from '../common/failure.ts';
import type { Logger } from '../common/logger.ts';
import { ValidationError } from '../errors/index.ts';

/** Options of {@link MockActivityEnvironment}. */
export interface MockActivityEnvironmentOptions {
  /** Where the activity's `log` lines go. @default dropped */
  logger?: Logger;
}

/** The info an activity sees in a {@link MockActivityEnvironment} unless given other fields (Temporal's defaults). */
export function defaultActivityInfo(now = Date.now()): ActivityInfo {
  const at = new Date(now);
  return {
    namespace: 'default', activityNamespace: 'default', workflowNamespace: 'default',
    activityId: 'test', activityType: 'unknown', workflowId: 'test', runId: 'dead-beef',
    workflowExecution: { workflowId: 'test', runId: 'dead-beef' }, workflowType: 'test', taskQueue: 'test',
    attempt: 1, isLocal: false, scheduledTime: at, scheduledTimestampMs: now, currentAttemptScheduledTime: at,
    currentAttemptScheduledTimestampMs: now, startedTime: at, heartbeatDetails: undefined,
    heartbeatTimeoutMs: undefined, startToCloseTimeoutMs: 1000, scheduleToCloseTimeoutMs: 1000,
    taskToken: Buffer.from('test'), base64TaskToken: Buffer.from('test').toString('base64'),
  };
}

function loggerOf(logger: Logger | undefined, info: ActivityInfo): ActivityLogger {
  const fields = {
    sdkComponent: 'activity', isLocal: info.isLocal, attempt: info.attempt, namespace: info.namespace, workflowId: info.workflowId,
    workflowRunId: info.runId, workflowType: info.workflowType, activityId: info.activityId, activityType: info.activityType, taskQueue: info.taskQueue,
  };
  const at = (level: 'trace' | 'debug' | 'info' | 'warn' | 'error') => (message: string, attrs?: Record<string, unknown>) => {
    if (!logger) return;
    const trace = (logger as Logger & { trace?: Logger['debug'] }).trace;
    if (level === 'trace') (typeof trace === 'function' ? trace.bind(logger) : logger.debug.bind(logger))(message, { ...fields, ...attrs });
    else logger[level](message, { ...fields, ...attrs });
  };
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/**
 * Runs an activity function outside a worker, for unit tests (Temporal's MockActivityEnvironment):
 * `Context.current()`, `activityInfo()`, `heartbeat()`, `sleep()`, `cancelled()` and
 * `cancellationSignal()` work inside `run`; each heartbeat is emitted as a 'heartbeat' event
 * with its details, and `cancel()` cancels the activity as the workflow would.
 */
export class MockActivityEnvironment extends EventEmitter {
  readonly context: Context;
  readonly #controller = new AbortController();

  constructor(info?: Partial<ActivityInfo>, options: MockActivityEnvironmentOptions = {}) {
    super();
    if (info !== undefined && (typeof info !== 'object' || info === null)) throw new ValidationError('info', 'must be an object or undefined', info);
    if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be an object', options);
    if (options.logger !== undefined && typeof options.logger?.info !== 'function') {
      throw new ValidationError('options.logger', 'must have debug, info, warn and error methods', options.logger);
    }
    const full = { ...defaultActivityInfo(), ...info };
    if (info?.workflowExecution === undefined && (info?.workflowId !== undefined || info?.runId !== undefined)) {
      full.workflowExecution = { workflowId: full.workflowId, runId: full.runId };
    }
    this.context = new Context(full, this.#controller.signal, (details?: unknown) => {
      this.emit('heartbeat', details);
    }, loggerOf(options.logger, full));
  }

  /** Cancels the activity: its cancellation signal aborts and `cancelled()` rejects with a CancelledFailure. */
  cancel(reason: unknown = 'CANCELLED'): void {
    if (this.#controller.signal.aborted) return;
    this.#controller.abort(new CancelledFailure(typeof reason === 'string' ? reason : String(reason)));
  }

  /** Calls `fn(...args)` as an activity, in this environment's context. */
  run<P extends unknown[], R>(fn: (...args: P) => R | Promise<R>, ...args: P): Promise<R> {
    if (typeof fn !== 'function') throw new ValidationError('fn', 'must be a function', fn);
    return runInActivityContext(this.context, async () => fn(...args));
  }
}
