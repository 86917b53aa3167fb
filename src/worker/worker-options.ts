import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { hostname } from 'node:os';
import { ValidationError } from '../errors/index.ts';
import { systemClock, type Clock } from '../retry/clock.ts';
import type { Duration } from '../retry/duration.ts';
import { DEFAULT_NAMESPACE } from '../common/ids.ts';
import { optionalBoolean, optionalDuration, optionalInt, optionalString, requireString } from '../common/validate.ts';
import type { ActivityFunction } from '../common/workflow-types.ts';
import type { WorkflowService } from '../protocol/index.ts';
import { jsonLogger } from '../common/logger.ts';
import type { Registry } from 'prom-client';
import { codecChainOf, type CodecChain } from '../codec/codec-chain.ts';
import type { DataConverter } from '../codec/payload-codec.ts';
import type { ConnectionOptions } from '../client/connection.ts';
import type { Logger } from './logger.ts';
import { resolveWorkerInterceptors, type ResolvedWorkerInterceptors, type WorkerInterceptors } from './interceptors.ts';
import { Runtime } from './runtime.ts';
import type { WorkflowBundleOption } from './workflow-bundle.ts';
import { requireErrorCode, toExceptionMap, type ErrorCodeConfig, type ExceptionMapper } from '../retry/error-codes.ts';

/**
 * Options of {@link Worker.create}. Exactly one of `address` and `connection` is required;
 * `apiKey`, `headers` and `tls` (ConnectionOptions) apply to an `address`.
 */
export interface WorkerOptions extends ConnectionOptions {
  /** URL of a steadfast server, e.g. `http://127.0.0.1:7233`. */
  address?: string;
  /** A WorkflowService to use directly, e.g. an in-process Engine. */
  connection?: WorkflowService;
  /** @default "default" */
  namespace?: string;
  /** The task queue polled for workflow and activity tasks. */
  taskQueue: string;
  /** Module exporting the workflow functions; bundled for the sandbox. Omit for an activity-only worker. */
  workflowsPath?: string;
  /**
   * A bundle made ahead of time by `bundleWorkflowCode` (`{ code }`, or `{ codePath }` of the file
   * it was written to), instead of `workflowsPath`: the worker starts without bundling.
   */
  workflowBundle?: WorkflowBundleOption;
  /** Activity functions by type name. Omit for a workflow-only worker. */
  activities?: Record<string, ActivityFunction> | object;
  /** Activities run at once, at most. @default 100 */
  maxConcurrentActivityTaskExecutions?: number;
  /** Workflow tasks processed at once, at most. @default 40 */
  maxConcurrentWorkflowTaskExecutions?: number;
  /** Local activity attempts run at once, at most (they wait for a free slot). @default 100 */
  maxConcurrentLocalActivityExecutions?: number;
  /**
   * Long polls for workflow tasks kept open at once (never more than
   * maxConcurrentWorkflowTaskExecutions). @default 10
   */
  maxConcurrentWorkflowTaskPolls?: number;
  /**
   * Long polls for activity tasks kept open at once (never more than
   * maxConcurrentActivityTaskExecutions). @default 10
   */
  maxConcurrentActivityTaskPolls?: number;
  /** Running workflows kept in memory between tasks (LRU); 0 replays every task from history. @default 1000 */
  maxCachedWorkflows?: number;
  /**
   * Run every workflow of this worker in one shared `vm` context (true), each run with its own
   * module state, time, randomness and globals; or give each run a context of its own (false:
   * full isolation of built-in objects too, at about 1 ms and a few hundred KB more per run).
   * @default true
   */
  reuseV8Context?: boolean;
  /** Names this worker in history events. @default "<pid>@<hostname>" */
  identity?: string;
  /** The build of the code this worker runs, logged at start and shutdown. @default none */
  buildId?: string;
  /**
   * The most activity tasks per second the server hands out on this task queue, across all its
   * workers (Temporal's option; the last poll's value holds). Eager activities are off with it.
   * @default no limit
   */
  maxTaskQueueActivitiesPerSecond?: number;
  /**
   * The most activities per second this worker starts (Temporal's option): its activity polls
   * are spaced to this rate, one task each. Eager activities are off with it. @default no limit
   */
  maxActivitiesPerSecond?: number;
  /** How long shutdown waits for running activities before aborting them. @default "10s" */
  shutdownGraceTime?: Duration;
  /**
   * Where the worker logs, workflow and activity `log` included; `consoleLogger` gives the earlier plain console lines.
   * @default the logger of `Runtime.install({ logger })`, else JSON lines on stderr, info and above (jsonLogger)
   */
  logger?: Logger;
  /** Time source for heartbeat throttling, deadlines, poll backoff and the grace period. @default systemClock */
  clock?: Clock;
  /**
   * Registers the worker's Prometheus series (task slots, sticky cache, poll outcomes, activity
   * latency) in this prom-client registry, which the application serves where it serves its own
   * metrics (the worker opens no port). @default no metrics
   */
  metrics?: { registry: Registry };
  /**
   * Payload codecs, as Temporal's `dataConverter.payloadCodecs`: payloads the worker receives are
   * decoded before activation and activity execution, and everything it sends is encoded. Give it
   * the same codecs as the clients.
   * @default no codecs
   */
  dataConverter?: DataConverter;
  /**
   * horsies' global exception mapper for this worker's activities: the exact class of an error an
   * activity throws → its UPPER_SNAKE_CASE error code (`[[TimeoutError, 'TIMEOUT']]` or a Map).
   * After the activity's own (`proxyActivities`' `exceptionMapper`), before any default code.
   * @default the process's (`setGlobalExceptionMapper`), else none
   */
  exceptionMapper?: ExceptionMapper;
  /**
   * horsies' global default code for an error no mapper names, after the activity's own
   * `defaultUnhandledErrorCode`. @default the process's, else UNHANDLED_EXCEPTION
   */
  defaultUnhandledErrorCode?: string;
  /**
   * Interceptors, as Temporal's `WorkerOptions.interceptors`: `workflowModules` (module paths
   * bundled with the workflows, each exporting `interceptors`) and `activity` (factories).
   * @default none (the built-in tracing runs regardless)
   */
  interceptors?: WorkerInterceptors;
}

/** {@link WorkerOptions} validated, with defaults filled. */
export interface ResolvedWorkerOptions {
  address: string | undefined;
  /** Credentials and TLS of the `address`. */
  connectionOptions: ConnectionOptions;
  connection: WorkflowService | undefined;
  namespace: string;
  taskQueue: string;
  workflowsPath: string | undefined;
  workflowBundle: WorkflowBundleOption | undefined;
  activities: Record<string, ActivityFunction>;
  maxConcurrentActivityTaskExecutions: number;
  maxConcurrentWorkflowTaskExecutions: number;
  maxConcurrentLocalActivityExecutions: number;
  maxConcurrentWorkflowTaskPolls: number;
  maxConcurrentActivityTaskPolls: number;
  maxCachedWorkflows: number;
  reuseV8Context: boolean;
  identity: string;
  buildId: string | undefined;
  maxTaskQueueActivitiesPerSecond: number | undefined;
  maxActivitiesPerSecond: number | undefined;
  shutdownGraceTimeMs: number;
  logger: Logger;
  clock: Clock;
  metricsRegistry: Registry | undefined;
  /** The payload codecs; undefined without any. */
  codec: CodecChain | undefined;
  /** The worker's exception mapper and default code; empty when it sets neither. */
  errorCodes: ErrorCodeConfig;
  /** The interceptors, checked. */
  interceptors: ResolvedWorkerInterceptors;
}

/** Long polls per task kind when not configured; see {@link WorkerOptions.maxConcurrentWorkflowTaskPolls}. */
const DEFAULT_POLLS = 10;

const KEYS = optionKeys<WorkerOptions>({
  apiKey: true, headers: true, tls: true, address: true, connection: true, namespace: true, taskQueue: true, workflowsPath: true, workflowBundle: true, activities: true,
  maxConcurrentActivityTaskExecutions: true, maxConcurrentWorkflowTaskExecutions: true, maxConcurrentWorkflowTaskPolls: true,
  maxConcurrentLocalActivityExecutions: true,
  maxConcurrentActivityTaskPolls: true, maxCachedWorkflows: true, reuseV8Context: true, identity: true, shutdownGraceTime: true, logger: true,
  buildId: true, maxTaskQueueActivitiesPerSecond: true, maxActivitiesPerSecond: true,
  clock: true, metrics: true, dataConverter: true, exceptionMapper: true, defaultUnhandledErrorCode: true, interceptors: true,
});

/**
 * Checks every worker option; each error names the option, the rule and the value.
 * @throws ValidationError
 */
export function resolveWorkerOptions(options: WorkerOptions): ResolvedWorkerOptions {
  if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be an object', options);
  if ('reuseContext' in options) {
    throw new ValidationError('reuseContext', 'was renamed reuseV8Context, Temporal\'s name for the same option: write reuseV8Context',
      (options as { reuseContext?: unknown }).reuseContext);
  }
  refuseUnknownKeys('worker', options, KEYS);
  const address = optionalString('address', options.address);
  const connection = options.connection;
  if ((address === undefined) === (connection === undefined)) {
    throw new ValidationError('address', 'or connection must be given, not both', address ?? connection,
      `exactly one of address and connection must be given, got ${address === undefined ? 'neither' : 'both'}`);
  }
  if (address !== undefined && !/^https?:\/\/[^/]+/.test(address)) {
    throw new ValidationError('address', 'must be a URL such as http://127.0.0.1:7233', address);
  }
  if (connection !== undefined && (typeof connection !== 'object' || typeof connection.pollWorkflowTaskQueue !== 'function')) {
    throw new ValidationError('connection', 'must be a WorkflowService (e.g. an Engine)', connection);
  }
  const activities: Record<string, ActivityFunction> = {};
  if (options.activities !== undefined && options.activities !== null) {
    if (typeof options.activities !== 'object') throw new ValidationError('activities', 'must be an object of functions', options.activities);
    for (const [name, fn] of Object.entries(options.activities)) {
      if (typeof fn === 'function') activities[name] = fn as ActivityFunction;
    }
  }
  const workflowsPath = optionalString('workflowsPath', options.workflowsPath, 4096);
  const workflowBundle = checkBundleOption(options.workflowBundle);
  if (workflowsPath !== undefined && workflowBundle !== undefined) {
    throw new ValidationError('workflowBundle', 'cannot be given with workflowsPath (the bundle already holds the workflows)', undefined,
      'workflowBundle cannot be given with workflowsPath: give one of them');
  }
  if (workflowsPath === undefined && workflowBundle === undefined && Object.keys(activities).length === 0) {
    throw new ValidationError('workflowsPath', 'or activities must be given', undefined,
      'a worker needs workflowsPath (or workflowBundle), activities, or both; none was given');
  }
  const logger = options.logger ?? Runtime.installedLogger() ?? jsonLogger({ component: 'worker' });
  for (const m of ['debug', 'info', 'warn', 'error'] as const) {
    if (typeof (logger as unknown as Record<string, unknown>)[m] !== 'function') {
      throw new ValidationError(`logger.${m}`, 'must be a function', (logger as unknown as Record<string, unknown>)[m]);
    }
  }
  const clock = options.clock ?? systemClock;
  if (typeof clock.now !== 'function' || typeof clock.sleep !== 'function') {
    throw new ValidationError('clock', 'must have now() and sleep()', clock);
  }
  const metrics = options.metrics;
  if (metrics !== undefined && (typeof metrics !== 'object' || metrics === null || typeof metrics.registry?.registerMetric !== 'function')) {
    throw new ValidationError('metrics.registry', 'must be a prom-client Registry', metrics?.registry);
  }
  return {
    address,
    connection,
    connectionOptions: { apiKey: options.apiKey, headers: options.headers, tls: options.tls },
    namespace: optionalString('namespace', options.namespace) ?? DEFAULT_NAMESPACE,
    taskQueue: requireString('taskQueue', options.taskQueue),
    workflowsPath,
    workflowBundle,
    activities,
    maxConcurrentActivityTaskExecutions: optionalInt('maxConcurrentActivityTaskExecutions', options.maxConcurrentActivityTaskExecutions, 1) ?? 100,
    maxConcurrentWorkflowTaskExecutions: optionalInt('maxConcurrentWorkflowTaskExecutions', options.maxConcurrentWorkflowTaskExecutions, 1) ?? 40,
    maxConcurrentLocalActivityExecutions: optionalInt('maxConcurrentLocalActivityExecutions', options.maxConcurrentLocalActivityExecutions, 1) ?? 100,
    maxConcurrentWorkflowTaskPolls: optionalInt('maxConcurrentWorkflowTaskPolls', options.maxConcurrentWorkflowTaskPolls, 1, 1000) ?? DEFAULT_POLLS,
    maxConcurrentActivityTaskPolls: optionalInt('maxConcurrentActivityTaskPolls', options.maxConcurrentActivityTaskPolls, 1, 1000) ?? DEFAULT_POLLS,
    maxCachedWorkflows: optionalInt('maxCachedWorkflows', options.maxCachedWorkflows, 0) ?? 1000,
    reuseV8Context: optionalBoolean('reuseV8Context', options.reuseV8Context) ?? true,
    identity: optionalString('identity', options.identity) ?? `${process.pid}@${hostname()}`,
    buildId: optionalString('buildId', options.buildId),
    maxTaskQueueActivitiesPerSecond: positiveRate('maxTaskQueueActivitiesPerSecond', options.maxTaskQueueActivitiesPerSecond),
    maxActivitiesPerSecond: positiveRate('maxActivitiesPerSecond', options.maxActivitiesPerSecond),
    shutdownGraceTimeMs: optionalDuration('shutdownGraceTime', options.shutdownGraceTime) ?? 10_000,
    logger,
    clock,
    metricsRegistry: metrics?.registry,
    codec: codecChainOf(options.dataConverter),
    interceptors: resolveWorkerInterceptors(options.interceptors),
    errorCodes: {
      ...(options.exceptionMapper !== undefined ? { exceptionMapper: toExceptionMap('exceptionMapper', options.exceptionMapper) } : {}),
      ...(options.defaultUnhandledErrorCode !== undefined
        ? { defaultUnhandledErrorCode: requireErrorCode('defaultUnhandledErrorCode', options.defaultUnhandledErrorCode) } : {}),
    },
  };
}

/** An optional rate: a finite number > 0. */
function positiveRate(field: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new ValidationError(field, 'must be a number greater than 0', v);
  return v;
}

/** `workflowBundle` as given: `{ code }` or `{ codePath }`, nothing else. */
function checkBundleOption(value: unknown): WorkflowBundleOption | undefined {
  if (value === undefined) return undefined;
  const o = value as Record<string, unknown> | null;
  const ok = typeof o === 'object' && o !== null && (typeof o.code === 'string') !== (typeof o.codePath === 'string') && Object.keys(o).length === 1;
  if (!ok) throw new ValidationError('workflowBundle', 'must be { code } from bundleWorkflowCode or { codePath } of the file it was written to', value);
  return o as WorkflowBundleOption;
}
