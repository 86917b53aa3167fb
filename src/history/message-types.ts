import type { FailureInfo } from '../common/failure.ts';
import type { WireHeaders } from '../common/headers.ts';

/**
 * History events and commands of signals and updates. Kept apart from events.ts / commands.ts,
 * which extend these interfaces; their service calls are in protocol/messages.ts.
 */

/** How an update ended: its handler's result, or the failure it threw. */
export type UpdateOutcome = { result: unknown; failure?: never } | { failure: FailureInfo; result?: never };

/** Why a signal to another workflow was not delivered. */
export type SignalExternalFailedCause = 'ExternalWorkflowExecutionNotFound' | 'SignalCountLimitExceeded';

/** Event attributes of signals and updates. */
export interface MessageEventAttributes {
  /** A signal reached the run (from a client, signal-with-start, or another workflow). */
  WorkflowExecutionSignaled: {
    signalName: string;
    args: unknown[];
    identity?: string;
    /** Deduplicates a repeated signal request. */
    requestId?: string;
    /** Set when another workflow sent the signal. */
    externalWorkflowExecution?: { namespace: string; workflowId: string; runId: string };
    /** Headers the call carried (Temporal's `Headers`, in wire form): interceptors read them. */
    header?: WireHeaders;
  };
  /** The run asked to signal another workflow (SignalExternalWorkflowExecution command). */
  SignalExternalWorkflowExecutionInitiated: {
    /** Per-run sequence number the workflow code gave the signal; links the result events. */
    signalId: string;
    namespace: string;
    workflowId: string;
    runId?: string;
    signalName: string;
    args: unknown[];
    workflowTaskCompletedEventId: number;
    /** Headers the call carried (Temporal's `Headers`, in wire form): interceptors read them. */
    header?: WireHeaders;
  };
  /** The signal of an Initiated event reached its target. */
  ExternalWorkflowExecutionSignaled: { initiatedEventId: number; signalId: string; namespace: string; workflowId: string; runId: string };
  /** The signal of an Initiated event could not be delivered. */
  SignalExternalWorkflowExecutionFailed: {
    initiatedEventId: number;
    signalId: string;
    namespace: string;
    workflowId: string;
    runId?: string;
    cause: SignalExternalFailedCause;
    message: string;
  };
  /** An update passed admission and validation; its handler runs in the next workflow task. */
  WorkflowExecutionUpdateAccepted: { updateId: string; updateName: string; args: unknown[]; identity?: string; header?: WireHeaders };
  /**
   * An update-with-start admitted the update in the same transition that started (or chose) the
   * run: the workflow task that delivers it runs the validator, then the handler; a rejection is
   * the update's CompleteWorkflowExecutionUpdate with the validator's failure.
   */
  WorkflowExecutionUpdateAdmitted: { updateId: string; updateName: string; args: unknown[]; identity?: string; header?: WireHeaders };
  /** An update's handler finished (CompleteWorkflowExecutionUpdate command). */
  WorkflowExecutionUpdateCompleted: {
    updateId: string;
    acceptedEventId: number;
    outcome: UpdateOutcome;
    workflowTaskCompletedEventId: number;
  };
}

/** Command attributes of external signals and updates. */
export interface MessageCommandAttributes {
  /** Signals another workflow; answered by ExternalWorkflowExecutionSignaled or SignalExternalWorkflowExecutionFailed. */
  SignalExternalWorkflowExecution: {
    /** Per-run sequence number chosen by the workflow code. */
    signalId: string;
    /** @default the run's namespace */
    namespace?: string;
    workflowId: string;
    /** @default the target's latest run */
    runId?: string;
    signalName: string;
    args: unknown[];
    /** Headers of the signal (Temporal's `Headers`, in wire form). */
    header?: WireHeaders;
  };
  /** An accepted update's handler finished. */
  CompleteWorkflowExecutionUpdate: { updateId: string; acceptedEventId: number; outcome: UpdateOutcome };
}

