import type {
  PollUpdateRequest, QueryTask, QueryWorkflowRequest, QueryWorkflowResponse, RespondQueryTaskCompletedRequest,
  SignalWithStartRequest, SignalWorkflowRequest, UpdateWithStartRequest, UpdateWithStartResponse, UpdateWorkflowRequest, UpdateWorkflowResponse,
  CallOptions, PollRequest, StartWorkflowExecutionResponse,
} from '../../protocol/index.ts';
import type { EngineCore } from '../core/engine-core.ts';
import type { MessageLimits } from './message-state.ts';
import { QueryRouter } from './queries.ts';
import { SignalBatcher, signalWorkflow } from './signal-batch.ts';
import { signalWithStart } from './signals.ts';
import { UpdateService } from './updates.ts';
import { updateWithStart } from './update-with-start.ts';

/** The engine's service calls of signals, queries and updates. */
export class Messages {
  readonly limits: MessageLimits;
  readonly #core: EngineCore;
  readonly #queries: QueryRouter;
  readonly #updates: UpdateService;
  readonly #signals: SignalBatcher;

  /** @param limits resolved (resolveMessageLimits), the same the messages feature was built with */
  constructor(core: EngineCore, limits: MessageLimits) {
    this.#core = core;
    this.limits = limits;
    this.#queries = new QueryRouter(core, this.limits);
    this.#updates = new UpdateService(core, this.limits, this.#queries);
    this.#signals = new SignalBatcher(core, this.limits);
  }

  signal(req: SignalWorkflowRequest): Promise<void> {
    return signalWorkflow(this.#signals, req);
  }

  signalWithStart(req: SignalWithStartRequest): Promise<StartWorkflowExecutionResponse> {
    return signalWithStart(this.#core, this.limits, req);
  }

  query(req: QueryWorkflowRequest): Promise<QueryWorkflowResponse> {
    return this.#queries.query(req);
  }

  pollQuery(req: PollRequest, opts?: CallOptions): Promise<QueryTask | null> {
    return this.#queries.poll(req, opts);
  }

  respondQuery(req: RespondQueryTaskCompletedRequest): Promise<void> {
    return this.#queries.respond(req);
  }

  update(req: UpdateWorkflowRequest): Promise<UpdateWorkflowResponse> {
    return this.#updates.update(req);
  }

  updateWithStart(req: UpdateWithStartRequest): Promise<UpdateWithStartResponse> {
    return updateWithStart(this.#core, this.limits, this.#updates, req);
  }

  pollUpdate(req: PollUpdateRequest, opts?: CallOptions): Promise<UpdateWorkflowResponse> {
    return this.#updates.poll(req, opts);
  }

}
