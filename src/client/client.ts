import { hostname } from 'node:os';
import { DEFAULT_NAMESPACE } from '../common/ids.ts';
import { optionalInt, optionalString, requireOneOf } from '../common/validate.ts';
import type { Workflow, WorkflowResult } from '../common/workflow-types.ts';
import { WORKFLOW_STATUSES, type WorkflowExecutionStatus } from '../history/events.ts';
import type { WorkflowExecutionInfo, WorkflowService } from '../history/service.ts';
import { ValidationError } from '../retry/errors.ts';
import { HttpWorkflowService } from './http-service.ts';
import { messageNameOf, type SignalDefinition } from '../common/message-definitions.ts';
import { toStartRequest, type WorkflowStartOptions } from './start-options.ts';
import { WorkflowHandle } from './workflow-handle.ts';

/** Options of {@link Client}: an `address` to talk HTTP, or a `connection` in-process. */
export type ClientOptions = {
  /** @default "default" */
  namespace?: string;
  /** Recorded in history as who started or cancelled. @default `client@<hostname>:<pid>` */
  identity?: string;
} & ({ address: string; connection?: never } | { connection: WorkflowService; address?: never });

/** Filters of {@link WorkflowClient.list}. */
export interface ListOptions {
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
  ) {}

  /** Starts a workflow and returns a handle to it without waiting for the result. */
  async start<W extends Workflow>(workflow: W | string, options: WorkflowStartOptions<W>): Promise<WorkflowHandle<W>> {
    const type = workflowTypeOf(workflow);
    const req = toStartRequest(type, options as WorkflowStartOptions, this.namespace, this.identity);
    const { runId } = await this.service.startWorkflowExecution(req);
    return new WorkflowHandle<W>(this.service, this.namespace, req.workflowId, undefined, this.identity, runId);
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
    const signalName = messageNameOf('signal', signal, 'signal');
    if (signalArgs !== undefined && !Array.isArray(signalArgs)) throw new ValidationError('signalArgs', 'must be an array', signalArgs);
    const req = toStartRequest(type, start as WorkflowStartOptions, this.namespace, this.identity);
    const { runId } = await this.service.signalWithStartWorkflowExecution({ ...req, signalName, signalArgs: signalArgs ?? [] });
    return new WorkflowHandle<W>(this.service, this.namespace, req.workflowId, undefined, this.identity, runId);
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
    return new WorkflowHandle<W>(this.service, this.namespace, workflowId, optionalString('runId', runId), this.identity);
  }

  /** Lists executions, newest first, fetching pages as the loop goes. */
  async *list(options: ListOptions = {}): AsyncIterable<WorkflowExecutionInfo> {
    let nextPageToken: string | undefined;
    do {
      const page = await this.listPage(options, nextPageToken);
      yield* page.executions;
      nextPageToken = page.nextPageToken;
    } while (nextPageToken);
  }

  /** One page of {@link list}, for callers that page by hand (a UI, the CLI). */
  listPage(options: ListOptions = {}, nextPageToken?: string) {
    const status = options.status === undefined ? undefined : requireOneOf('status', options.status, WORKFLOW_STATUSES);
    const req = {
      namespace: this.namespace,
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
  readonly namespace: string;
  readonly workflow: WorkflowClient;
  /** The service calls go to; an HttpWorkflowService when made from an address. */
  readonly connection: WorkflowService;
  readonly #ownsConnection: boolean;

  constructor(options: ClientOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ValidationError('options', 'must be { address } or { connection }', options);
    }
    this.namespace = optionalString('namespace', options.namespace) ?? DEFAULT_NAMESPACE;
    const identity = optionalString('identity', options.identity) ?? `client@${hostname()}:${process.pid}`;
    if (options.connection) {
      this.connection = options.connection;
      this.#ownsConnection = false;
    } else if (options.address !== undefined) {
      this.connection = new HttpWorkflowService({ address: options.address });
      this.#ownsConnection = true;
    } else {
      throw new ValidationError('address', 'must be given (or a connection)', undefined);
    }
    this.workflow = new WorkflowClient(this.connection, this.namespace, identity);
  }

  /** Closes the HTTP connections this client opened. */
  close(): void {
    if (this.#ownsConnection) (this.connection as HttpWorkflowService).close();
  }
}
