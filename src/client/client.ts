import { hostname } from 'node:os';
import { tracingClientInterceptor } from './tracing.ts';
import { workflowClientInterceptorsOf, type ClientInterceptors, type WorkflowClientInterceptor } from './interceptors.ts';
import { composeInterceptors } from '../common/interceptors.ts';
import { headersToWire } from '../common/headers.ts';
import { DEFAULT_NAMESPACE } from '../common/ids.ts';
import { optionalInt, optionalString, requireOneOf } from '../common/validate.ts';
import type { Workflow, WorkflowResult } from '../common/workflow-types.ts';
import { WORKFLOW_STATUSES, type WorkflowExecutionStatus } from '../history/events.ts';
import type { ListWorkflowExecutionsResponse, WorkflowService } from '../protocol/index.ts';
import { toExecutionInfo, type WorkflowExecutionInfo } from './describe.ts';
import { ValidationError } from '../errors/index.ts';
import { HttpWorkflowService } from './http-service.ts';
import type { ConnectionOptions } from './connection.ts';
import { connectionKeyOf, reserveEagerWorker, startWithEagerWorker } from './eager-workers.ts';
import { resolveCallRetry, type ClientRetryOptions } from './call-retry.ts';
import { messageNameOf, type SignalDefinition, type UpdateDefinition } from '../common/message-definitions.ts';
import type { WorkflowUpdateHandle } from './messages.ts';
import {
  updateWithStart, type StartUpdateWithStartOptions, type UpdateWithStartContext, type UpdateWithStartOptions,
} from './update-with-start.ts';
import { toStartRequest, WORKFLOW_START_OPTION_KEYS, type WorkflowStartOptions } from './start-options.ts';
import { payloadOf } from './request-limits.ts';
import {
  optionKeys, refuseUnknownKeys,
} from '../common/option-keys.ts';
import { WorkflowHandle } from './workflow-handle.ts';
import { ScheduleClient } from './schedule-client.ts';
import { parseQuery } from '../visibility/parser.ts';
import { SearchAttributeClient } from './search-attribute-client.ts';
import { NamespaceClient } from './namespace-client.ts';
import { TaskQueueClient } from './task-queue-client.ts';
import { AsyncCompletionClient } from './async-completion-client.ts';
import { runBulk, type BulkOptions, type BulkResult } from './bulk.ts';
import { codecChainOf } from '../codec/codec-chain.ts';
import { withPayloadCodecs } from '../codec/codec-service.ts';
import type { DataConverter } from '../codec/payload-codec.ts';
import { stderrWaitLogger, Waits, type WaitLogger } from './waits.ts';

/** Options of {@link Client}: an `address` to talk HTTP, or a `connection` in-process. */
export type ClientOptions = {
  /** @default "default" */
  namespace?: string;
  /** Recorded in history as who started or cancelled. @default `client@<hostname>:<pid>` */
  identity?: string;
  /**
   * How calls over `address` are retried while the server is unavailable (a restart, an outage);
   * `false` turns retries off. Ignored for an in-process `connection`, which cannot be unreachable.
   * @default retried with backoff for up to 90 s (see ClientRetryOptions)
   */
  retry?: ClientRetryOptions | false;
  /**
   * Payload codecs every payload sent passes through (and every payload received, in reverse), as
   * Temporal's `dataConverter.payloadCodecs`; the server then stores only their output.
   * @default no codecs: payloads travel and are stored as plain JSON
   */
  dataConverter?: DataConverter;
  /**
   * Where the client says why a call keeps waiting: a `result()` or an update whose run's
   * workflow task keeps failing (`… is still waiting: the run's workflow task is failing: attempt
   * 5, BadCommand: …; see describe`), once when it sees the failure and again when it changes.
   * Any logger with `warn` fits; `false` says nothing.
   * @default one line on stderr each
   */
  logger?: WaitLogger | false;
  /**
   * Interceptors of the client's calls, as Temporal's `interceptors: { workflow: [...] }`
   * (interceptors.ts). The built-in tracing runs after them, nearest the service.
   * @default none
   */
  interceptors?: ClientInterceptors;
} & ConnectionOptions & ({ address: string; connection?: never } | { connection: WorkflowService; address?: never });

/** Every key of {@link ClientOptions}; the compiler fails when the type gains one this lacks. */
const CLIENT_OPTION_KEYS = optionKeys<ClientOptions>({
  address: true, connection: true, namespace: true, identity: true, retry: true, dataConverter: true, apiKey: true, headers: true, tls: true,
  logger: true, interceptors: true,
});

/** Filters of {@link WorkflowClient.list}. */
/** Keys of `client.workflow.signalWithStart()` options: the start options and the signal. */
const SIGNAL_WITH_START_OPTION_KEYS = [...WORKFLOW_START_OPTION_KEYS, ...optionKeys<{ signal: unknown; signalArgs?: unknown }>({ signal: true, signalArgs: true })];

export interface ListOptions {
  /**
   * The filter language (docs/visibility.md): `WorkflowType = 'order' AND ExecutionStatus = 'Running'
   * ORDER BY StartTime DESC`. The other filters are shorthands for it and cannot be combined with it.
   * @default "" (every run, newest first)
   */
  query?: string;
  workflowType?: string;
  status?: WorkflowExecutionStatus;
  workflowIdPrefix?: string;
  startTimeFrom?: Date | string;
  startTimeTo?: Date | string;
  closeTimeFrom?: Date | string;
  closeTimeTo?: Date | string;
  /** Executions fetched per request. @default 100 */
  pageSize?: number;
}

const COUNT_OPTION_KEYS = optionKeys<{ query?: string }>({ query: true });

const LIST_OPTION_KEYS = optionKeys<ListOptions>({
  workflowType: true, status: true, workflowIdPrefix: true, startTimeFrom: true, startTimeTo: true, closeTimeFrom: true, closeTimeTo: true,
  pageSize: true, query: true,
});

/** The answer of {@link WorkflowClient.count}, in Temporal's `CountWorkflowExecution` shape. */
export interface CountWorkflowExecution {
  /** All the runs the query selects. */
  count: number;
  /**
   * With GROUP BY, one entry per value, ordered by value, runs without a value last (value null);
   * empty without GROUP BY.
   */
  groups: {
    count: number;
    /** The group's value, as Temporal gives it: one per GROUP BY attribute. */
    groupValues: (string | number | boolean | null)[];
    /** The same value, alone. */
    value: string | number | boolean | null;
  }[];
}

function isoOf(field: string, value: Date | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) throw new ValidationError(field, 'must be a Date or an ISO time', value);
  return d.toISOString();
}

/** Starts workflows and finds them again. */
export class WorkflowClient {
  /** @internal */
  constructor(
    private readonly service: WorkflowService,
    readonly namespace: string,
    private readonly identity: string,
    private readonly waits: Waits,
    /** The user's workflow interceptors, then the built-in tracing. */
    private readonly interceptors: readonly WorkflowClientInterceptor[] = [],
    /** The client's connection, as eager starts find the workers of this process that share it. */
    private readonly connectionKey?: string,
  ) {}

  /** Starts a workflow and returns a handle to it without waiting for the result. */
  async start<W extends Workflow>(workflow: W | string, options: WorkflowStartOptions<W>): Promise<WorkflowHandle<W>> {
    const type = workflowTypeOf(workflow);
    const req = toStartRequest(type, options as WorkflowStartOptions, this.namespace, this.identity);
    const { workflowType: _type, ...startOptions } = req;
    let eagerlyStarted = false;
    const start = composeInterceptors(this.interceptors, 'start', async (input) => {
      const header = headersToWire(input.headers);
      const request = { ...input.options, workflowType: input.workflowType, ...(header ? { header } : {}) };
      const worker = options.requestEagerStart === true ? reserveEagerWorker(this.connectionKey, this.namespace, input.options.taskQueue) : undefined;
      const answer = await startWithEagerWorker(this.service, request, worker);
      eagerlyStarted = answer.eagerlyStarted;
      return answer.runId;
    });
    const runId = await start({ workflowType: type, headers: {}, options: startOptions });
    return new WorkflowHandle<W>(this.service, this.namespace, req.workflowId, undefined, this.identity, this.waits, runId, this.interceptors, eagerlyStarted);
  }

  /**
   * Signals the open run of `options.workflowId`, or starts a new run (under the id reuse
   * policy) that receives the signal before its first workflow task.
   */
  async signalWithStart<W extends Workflow, SA extends unknown[]>(
    workflow: W | string, options: WorkflowStartOptions<W> & { signal: SignalDefinition<SA> | string; signalArgs?: SA },
  ): Promise<WorkflowHandle<W>> {
    const type = workflowTypeOf(workflow);
    const { signal, signalArgs, ...start } = options;
    if ((start as { requestEagerStart?: unknown }).requestEagerStart !== undefined) {
      throw new ValidationError('requestEagerStart', 'is not supported by signalWithStart: only start() starts a run eagerly', start.requestEagerStart);
    }
    const signalName = messageNameOf('signal', signal, 'signal');
    if (signalArgs !== undefined && !Array.isArray(signalArgs)) throw new ValidationError('signalArgs', 'must be an array', signalArgs);
    const req = toStartRequest(type, start as WorkflowStartOptions, this.namespace, this.identity, 'signalWithStart', SIGNAL_WITH_START_OPTION_KEYS);
    const sent = payloadOf('signalArgs', signalArgs ?? []);
    const { workflowType: _type, ...startOptions } = req;
    const signalWithStart = composeInterceptors(this.interceptors, 'signalWithStart', async (input) => {
      const header = headersToWire(input.headers);
      return (await this.service.signalWithStartWorkflowExecution({
        ...input.options, workflowType: input.workflowType, signalName: input.signalName, signalArgs: input.signalArgs, ...(header ? { header } : {}),
      })).runId;
    });
    const runId = await signalWithStart({ workflowType: type, signalName, signalArgs: sent, headers: {}, options: startOptions });
    return new WorkflowHandle<W>(this.service, this.namespace, req.workflowId, undefined, this.identity, this.waits, runId, this.interceptors);
  }

  /**
   * Update-with-start, then the update's result (Temporal's `executeUpdateWithStart`): one call
   * that, atomically, starts the operation's workflow (or, with USE_EXISTING, takes its running
   * run) and admits the update, which the run's next workflow task validates and runs. The
   * workflow's handle is `startWorkflowOperation.workflowHandle()`, whether or not the update succeeds.
   * @throws WorkflowUpdateFailedError when the validator rejects the update or its handler fails (the run stays started).
   * @throws WorkflowExecutionAlreadyStartedError when the policies refuse the start (FAIL and a running run); nothing is written then.
   */
  async executeUpdateWithStart<W extends Workflow, Ret, Args extends unknown[]>(
    update: UpdateDefinition<Ret, Args> | string, options: UpdateWithStartOptions<W, Args>,
  ): Promise<Ret> {
    const handle = await updateWithStart(this.#updateContext(), update as UpdateDefinition<unknown, unknown[]>,
      options as unknown as UpdateWithStartOptions, 'executeUpdateWithStart');
    return handle.result() as Promise<Ret>;
  }

  /**
   * Update-with-start, returning once the update is accepted (Temporal's `startUpdateWithStart`,
   * `waitForStage: WorkflowUpdateStage.ACCEPTED`): the handle's `result()` waits for the outcome,
   * and throws WorkflowUpdateFailedError when the validator rejected the update or its handler failed.
   * @throws WorkflowExecutionAlreadyStartedError when the policies refuse the start; nothing is written then.
   */
  startUpdateWithStart<W extends Workflow, Ret, Args extends unknown[]>(
    update: UpdateDefinition<Ret, Args> | string, options: StartUpdateWithStartOptions<W, Args>,
  ): Promise<WorkflowUpdateHandle<Ret>> {
    return updateWithStart(this.#updateContext(), update as UpdateDefinition<unknown, unknown[]>,
      options as unknown as StartUpdateWithStartOptions, 'startUpdateWithStart') as Promise<WorkflowUpdateHandle<Ret>>;
  }

  #updateContext(): UpdateWithStartContext {
    return { service: this.service, namespace: this.namespace, identity: this.identity, waits: this.waits, interceptors: this.interceptors };
  }

  /** Starts a workflow and waits for its result (following retries and continue-as-new). */
  async execute<W extends Workflow>(workflow: W | string, options: WorkflowStartOptions<W>): Promise<WorkflowResult<W>> {
    const handle = await this.start(workflow, options);
    return handle.result();
  }

  /** A handle to an existing workflow: its latest run, or the run given. */
  getHandle<W extends Workflow = Workflow>(workflowId: string, runId?: string): WorkflowHandle<W> {
    if (typeof workflowId !== 'string' || workflowId.length === 0) {
      throw new ValidationError('workflowId', 'must be a non-empty string', workflowId);
    }
    return new WorkflowHandle<W>(this.service, this.namespace, workflowId, optionalString('runId', runId), this.identity, this.waits, undefined,
      this.interceptors);
  }

  /**
   * Lists executions, newest first, fetching pages as the loop goes; each in the shape of
   * Temporal's `WorkflowExecutionInfo` (see {@link WorkflowExecutionInfo}).
   */
  async *list(options: ListOptions = {}): AsyncIterable<WorkflowExecutionInfo> {
    let nextPageToken: string | undefined;
    do {
      const page = await this.listPage(options, nextPageToken);
      for (const e of page.executions) yield toExecutionInfo(e);
      nextPageToken = page.nextPageToken;
    } while (nextPageToken);
  }

  /** One page of {@link list} as the service answers it (entries as on the wire), for callers that page by hand (a UI). */
  listPage(options: ListOptions = {}, nextPageToken?: string): Promise<ListWorkflowExecutionsResponse> {
    if (typeof options !== 'object' || options === null) throw new ValidationError('list options', 'must be an object', options);
    refuseUnknownKeys('list', options, LIST_OPTION_KEYS);
    const status = options.status === undefined ? undefined : requireOneOf('status', options.status, WORKFLOW_STATUSES);
    const query = optionalQuery(options.query);
    const req = {
      namespace: this.namespace,
      ...(query !== undefined ? { query } : {}),
      ...(options.workflowType ? { workflowType: options.workflowType } : {}),
      ...(status ? { status } : {}),
      ...(options.workflowIdPrefix ? { workflowIdPrefix: options.workflowIdPrefix } : {}),
      ...(options.startTimeFrom ? { startTimeFrom: isoOf('startTimeFrom', options.startTimeFrom) } : {}),
      ...(options.startTimeTo ? { startTimeTo: isoOf('startTimeTo', options.startTimeTo) } : {}),
      ...(options.closeTimeFrom ? { closeTimeFrom: isoOf('closeTimeFrom', options.closeTimeFrom) } : {}),
      ...(options.closeTimeTo ? { closeTimeTo: isoOf('closeTimeTo', options.closeTimeTo) } : {}),
      pageSize: optionalInt('pageSize', options.pageSize, 1, 1000) ?? 100,
      ...(nextPageToken ? { nextPageToken } : {}),
    };
    return this.service.listWorkflowExecutions(req);
  }

  /**
   * Counts the runs a query selects, as Temporal's `count(query)`: the query string, or
   * `{ query }`. `GROUP BY ExecutionStatus` (or another Keyword, Int or Bool attribute) also
   * answers the count of each value in `groups`; without it `groups` is empty.
   */
  async count(query?: string | { query?: string }): Promise<CountWorkflowExecution> {
    let text: unknown = query;
    if (typeof query === 'object' && query !== null) {
      refuseUnknownKeys('count', query, COUNT_OPTION_KEYS);
      text = query.query;
    } else if (query !== undefined && typeof query !== 'string') {
      throw new ValidationError('query', 'must be a visibility query string or { query }', query);
    }
    const checked = optionalQuery(text);
    const res = await this.service.countWorkflowExecutions({ namespace: this.namespace, ...(checked !== undefined ? { query: checked } : {}) });
    return { count: res.count, groups: (res.groups ?? []).map((g) => ({ count: g.count, groupValues: [g.value], value: g.value })) };
  }

  /**
   * Cancels, terminates, signals or resets every run a query matches: counts them first (the
   * `total` of `onProgress`), then pages through `list({ query })` applying the operation with at
   * most `concurrency` calls in flight. Runs already closed are skipped for cancel, terminate and
   * signal; failures are counted, not thrown. Resolves with the counts and the first errors.
   * @example await client.workflow.bulk({ query: "WorkflowType = 'order' AND ExecutionStatus = 'Running'", operation: { type: 'terminate', reason: 'bad deploy' } })
   */
  bulk(options: BulkOptions): Promise<BulkResult> {
    return runBulk(this, options);
  }
}

/** A query's text, parsed here so a syntax error is thrown (with its column) before any call. */
function optionalQuery(query: unknown): string | undefined {
  if (query === undefined) return undefined;
  parseQuery(query as string);
  return query as string;
}

/** The workflow type name of a workflow function (its name) or of a string. */
export function workflowTypeOf(workflow: Workflow | string): string {
  if (typeof workflow === 'string' && workflow.length > 0) return workflow;
  if (typeof workflow === 'function' && workflow.name) return workflow.name;
  throw new ValidationError('workflow', 'must be a named workflow function or a workflow type name', workflow);
}

/**
 * The entry point for applications: `new Client({ address: 'http://127.0.0.1:7233' })`, or
 * `new Client({ connection: engine })` in-process.
 */
export class Client {
  /** Namespaces: create, describe, list, update; `client.namespace.name` is the namespace this client's calls name. */
  readonly namespace: NamespaceClient;
  readonly workflow: WorkflowClient;
  /** Schedules: create, getHandle, list. */
  readonly schedule: ScheduleClient;
  /** Registers and lists the namespace's custom search attributes. */
  readonly searchAttributes: SearchAttributeClient;
  /** Task queues: describe (pollers, backlog, schedule-to-start) and list. */
  readonly taskQueue: TaskQueueClient;
  /** Completes, fails, cancels and heartbeats activities that throw CompleteAsyncError (Temporal's `client.activity`). */
  readonly activity: AsyncCompletionClient;
  /** The service calls go to; an HttpWorkflowService when made from an address. */
  readonly connection: WorkflowService;
  readonly #ownsConnection: boolean;
  readonly #waits: Waits;

  constructor(options: ClientOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ValidationError('options', 'must be { address } or { connection }', options);
    }
    refuseUnknownKeys('client', options, CLIENT_OPTION_KEYS);
    const namespace = optionalString('namespace', options.namespace) ?? DEFAULT_NAMESPACE;
    const identity = optionalString('identity', options.identity) ?? `client@${hostname()}:${process.pid}`;
    if (options.connection) {
      resolveCallRetry(options.retry);
      this.connection = options.connection;
      this.#ownsConnection = false;
    } else if (options.address !== undefined) {
      this.connection = new HttpWorkflowService({
        address: options.address, retry: options.retry ?? {}, apiKey: options.apiKey, headers: options.headers, tls: options.tls,
      });
      this.#ownsConnection = true;
    } else {
      throw new ValidationError('address', 'must be given (or a connection)', undefined);
    }
    const chain = codecChainOf(options.dataConverter);
    const service = chain ? withPayloadCodecs(this.connection, chain) : this.connection;
    const logger = options.logger;
    if (logger !== undefined && logger !== false && typeof (logger as Partial<WaitLogger> | null)?.warn !== 'function') {
      throw new ValidationError('logger', 'must be false or an object with a warn(message) method', logger);
    }
    this.#waits = new Waits(service, logger === false ? undefined : logger ?? stderrWaitLogger);
    this.namespace = new NamespaceClient(this.connection, namespace);
    const interceptors = [...workflowClientInterceptorsOf(options.interceptors), tracingClientInterceptor(namespace)];
    this.workflow = new WorkflowClient(service, namespace, identity, this.#waits, interceptors, connectionKeyOf(options));
    this.schedule = new ScheduleClient(service, namespace);
    this.searchAttributes = new SearchAttributeClient(this.connection, namespace);
    this.taskQueue = new TaskQueueClient(this.connection, namespace);
    this.activity = new AsyncCompletionClient(service, namespace, identity);
  }

  /**
   * Runs `fn`; the waits of the calls it makes through this client end at `deadline` (a Date, or
   * ms since the epoch), as Temporal's `client.withDeadline`. An update that has not completed by
   * then throws WorkflowUpdateRPCTimeoutOrCancelledError (saying why, when the run's workflow task
   * keeps failing); the update itself goes on. Nested scopes end at the earliest deadline.
   */
  withDeadline<R>(deadline: number | Date, fn: () => Promise<R>): Promise<R> {
    const at = deadline instanceof Date ? deadline.getTime() : deadline;
    if (typeof at !== 'number' || !Number.isFinite(at)) throw new ValidationError('deadline', 'must be a Date or ms since the epoch', deadline);
    return this.#waits.within(AbortSignal.timeout(Math.max(0, at - Date.now())), fn);
  }

  /** Runs `fn`; the waits of the calls it makes through this client end when `signal` aborts (Temporal's `client.withAbortSignal`), as {@link withDeadline}. */
  withAbortSignal<R>(signal: AbortSignal, fn: () => Promise<R>): Promise<R> {
    if (!(signal instanceof AbortSignal)) throw new ValidationError('signal', 'must be an AbortSignal', signal);
    return this.#waits.within(signal, fn);
  }

  /** Closes the HTTP connections this client opened. */
  close(): void {
    if (this.#ownsConnection) (this.connection as HttpWorkflowService).close();
  }
}
