import type {
  PollUpdateRequest, QueryTask, QueryWorkflowRequest, QueryWorkflowResponse, RespondQueryTaskCompletedRequest,
  SignalWithStartRequest, SignalWorkflowRequest, UpdateWorkflowRequest, UpdateWorkflowResponse,
} from '../protocol/index.ts';
import type { CallOptions, PollRequest, StartWorkflowExecutionResponse } from '../protocol/index.ts';
import type { TimerRecord } from '../store/types.ts';
import type { EngineCore } from './core.ts';
import { resolveMessageLimits, type MessageLimits } from './message-state.ts';
import { QueryRouter } from './queries.ts';
import {
  applySignalExternalCommand, deliverExternalSignal, signalWithStart, signalWorkflow, SIGNAL_EXTERNAL_TIMER,
} from './signals.ts';
import { applyCompleteUpdateCommand, UpdateService } from './updates.ts';

/** Command handlers of signals and updates, spread into COMMAND_HANDLERS. */
export const MESSAGE_COMMAND_HANDLERS = {
  SignalExternalWorkflowExecution: applySignalExternalCommand,
  CompleteWorkflowExecutionUpdate: applyCompleteUpdateCommand,
};

/** True for timer kinds {@link Messages.fireTimer} handles (they act on another run). */
export function isMessageTimer(kind: string): boolean {
  return kind === SIGNAL_EXTERNAL_TIMER;
}

/** The engine's service calls of signals, queries and updates. */
export class Messages {
  readonly limits: MessageLimits;
  readonly #core: EngineCore;
  readonly #queries: QueryRouter;
  readonly #updates: UpdateService;

  constructor(core: EngineCore, limits?: Partial<MessageLimits>) {
    this.#core = core;
    this.limits = resolveMessageLimits(limits);
    this.#queries = new QueryRouter(core, this.limits);
    this.#updates = new UpdateService(core, this.limits, this.#queries);
  }

  signal(req: SignalWorkflowRequest): Promise<void> {
    return signalWorkflow(this.#core, this.limits, req);
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

  pollUpdate(req: PollUpdateRequest, opts?: CallOptions): Promise<UpdateWorkflowResponse> {
    return this.#updates.poll(req, opts);
  }

  /** Fires a message timer; failures are logged and the timer retried when its lease ends. */
  async fireTimer(timer: TimerRecord): Promise<void> {
    try {
      await this.#core.tracked(() => deliverExternalSignal(this.#core, this.limits, timer));
    } catch (err) {
      this.#core.logger.error(`timer ${timer.kind} of run ${timer.runId} failed to fire; it is retried when its lease ends`, { err: String(err) });
    }
  }
}
