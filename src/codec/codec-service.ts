import type { FailureInfo } from '../common/failure.ts';
import type { UpdateOutcome } from '../history/message-types.ts';
import type {
  CallOptions, ListWorkflowExecutionsResponse, ScheduleActionData, WorkflowExecutionDescription, WorkflowExecutionInfo, WorkflowService,
} from '../protocol/index.ts';
import type { CodecChain } from './codec-chain.ts';
import { walkArgs, walkEvents, walkFailure, walkOutcome, walkRecord, type PayloadMap } from './payload-walk.ts';

type Req<M extends keyof WorkflowService> = Parameters<NonNullable<WorkflowService[M]>>[0];

function opt<T>(value: T | undefined, f: PayloadMap, walk: (v: T, f: PayloadMap) => T): T | undefined {
  return value === undefined ? undefined : walk(value, f);
}

function withFields<T extends object>(req: T, f: PayloadMap, args: (keyof T)[], one: (keyof T)[] = [], records: (keyof T)[] = [],
  failures: (keyof T)[] = []): T {
  const out = { ...req };
  for (const k of args) if (out[k] !== undefined) out[k] = walkArgs(out[k] as unknown[], f) as T[keyof T];
  for (const k of one) if (out[k] !== undefined) out[k] = f(out[k]) as T[keyof T];
  for (const k of records) if (out[k] !== undefined) out[k] = walkRecord(out[k] as Record<string, unknown>, f) as T[keyof T];
  for (const k of failures) if (out[k] !== undefined) out[k] = walkFailure(out[k] as FailureInfo, f) as T[keyof T];
  return out;
}

const walkAction = (a: ScheduleActionData, f: PayloadMap): ScheduleActionData => withFields(a, f, ['args'], [], ['memo']);
const walkInfo = (e: WorkflowExecutionInfo, f: PayloadMap): WorkflowExecutionInfo => withFields(e, f, [], [], ['memo']);
const walkOptOutcome = <R extends { outcome?: UpdateOutcome | undefined }>(r: R, f: PayloadMap): R => ({ ...r, outcome: opt(r.outcome, f, walkOutcome) });

/**
 * A {@link WorkflowService} that encodes every payload a client or worker sends through a codec
 * chain and decodes every payload it receives, so the server sees and stores only envelopes.
 * Polls for workflow, activity and query tasks, and workflow task completions, pass as they are:
 * the worker decodes and encodes those itself, so that a codec's error fails that one task.
 * Search attributes, ids, types and names are never encoded: the server indexes and routes by them.
 */
export function withPayloadCodecs(service: WorkflowService, chain: CodecChain): WorkflowService {
  const s = service;
  const c = chain;
  const wrapped: WorkflowService = {
    startWorkflowExecution: async (req, opts) => s.startWorkflowExecution(await c.encode(req, (r, f) => withFields(r, f, ['args'], [], ['memo'])), opts),
    signalWithStartWorkflowExecution: async (req) =>
      s.signalWithStartWorkflowExecution(await c.encode(req, (r, f) => withFields(r, f, ['args', 'signalArgs'], [], ['memo']))),
    describeWorkflowExecution: async (req) => c.decode(await s.describeWorkflowExecution(req), walkDescription),
    getWorkflowExecutionHistory: async (req, opts?: CallOptions) => {
      const page = await s.getWorkflowExecutionHistory(req, opts);
      return c.decode(page, (p, f) => ({ ...p, events: walkEvents(p.events, f) }));
    },
    listWorkflowExecutions: async (req) =>
      c.decode(await s.listWorkflowExecutions(req), (p: ListWorkflowExecutionsResponse, f) => ({ ...p, executions: p.executions.map((e) => walkInfo(e, f)) })),
    requestCancelWorkflowExecution: (req) => s.requestCancelWorkflowExecution(req),
    terminateWorkflowExecution: async (req) => s.terminateWorkflowExecution(await c.encode(req, (r, f) => withFields(r, f, [], ['details']))),
    resetWorkflowExecution: (req) => s.resetWorkflowExecution(req),
    pollWorkflowTaskQueue: (req, opts) => s.pollWorkflowTaskQueue(req, opts),
    respondWorkflowTaskCompleted: (req) => s.respondWorkflowTaskCompleted(req),
    respondWorkflowTaskFailed: async (req) => s.respondWorkflowTaskFailed(await c.encode(req, (r, f) => withFields(r, f, [], [], [], ['failure']))),
    pollActivityTaskQueue: (req, opts) => s.pollActivityTaskQueue(req, opts),
    recordActivityTaskHeartbeat: async (req) => s.recordActivityTaskHeartbeat(await c.encode(req, (r, f) => withFields(r, f, [], ['details']))),
    respondActivityTaskCompleted: async (req) => s.respondActivityTaskCompleted(await c.encode(req, (r, f) => withFields(r, f, [], ['result']))),
    respondActivityTaskFailed: async (req) =>
      s.respondActivityTaskFailed(await c.encode(req, (r, f) => withFields(r, f, [], ['lastHeartbeatDetails'], [], ['failure']))),
    respondActivityTaskCanceled: async (req) => s.respondActivityTaskCanceled(await c.encode(req, (r, f) => withFields(r, f, [], ['details']))),
    recordActivityTaskHeartbeatById: async (req) => s.recordActivityTaskHeartbeatById(await c.encode(req, (r, f) => withFields(r, f, [], ['details']))),
    respondActivityTaskCompletedById: async (req) => s.respondActivityTaskCompletedById(await c.encode(req, (r, f) => withFields(r, f, [], ['result']))),
    respondActivityTaskFailedById: async (req) =>
      s.respondActivityTaskFailedById(await c.encode(req, (r, f) => withFields(r, f, [], ['lastHeartbeatDetails'], [], ['failure']))),
    respondActivityTaskCanceledById: async (req) => s.respondActivityTaskCanceledById(await c.encode(req, (r, f) => withFields(r, f, [], ['details']))),
    describeTaskQueue: (req) => s.describeTaskQueue(req),
    listTaskQueues: (req) => s.listTaskQueues(req),
    signalWorkflowExecution: async (req) => s.signalWorkflowExecution(await c.encode(req, (r, f) => withFields(r, f, ['args']))),
    queryWorkflow: async (req) => {
      const res = await s.queryWorkflow(await c.encode(req, (r, f) => withFields(r, f, ['args'])));
      return c.decode(res, (r, f) => withFields(r, f, [], ['result'], [], ['failure']));
    },
    pollQueryTaskQueue: (req, opts) => s.pollQueryTaskQueue(req, opts),
    respondQueryTaskCompleted: async (req) =>
      s.respondQueryTaskCompleted(await c.encode(req, (r, f) => withFields(r, f, [], ['result'], [], ['failure']))),
    updateWorkflowExecution: async (req) => {
      const res = await s.updateWorkflowExecution(await c.encode(req, (r, f) => withFields(r, f, ['args'])));
      return c.decode(res, walkOptOutcome);
    },
    updateWithStartWorkflowExecution: async (req) => {
      const res = await s.updateWithStartWorkflowExecution(await c.encode(req, (r, f) => withFields(r, f, ['args', 'updateArgs'], [], ['memo'])));
      return { ...res, update: await c.decode(res.update, walkOptOutcome) };
    },
    pollWorkflowExecutionUpdate: async (req, opts) => c.decode(await s.pollWorkflowExecutionUpdate(req, opts), walkOptOutcome),
    createSchedule: async (req) => s.createSchedule(await c.encode(req, (r, f) => ({ ...r, action: walkAction(r.action, f) }))),
    describeSchedule: async (req) => c.decode(await s.describeSchedule(req), (d, f) => ({
      ...d, action: walkAction(d.action, f), info: { ...d.info, lastFailure: opt(d.info.lastFailure, f, walkFailure) },
    })),
    updateSchedule: async (req) => s.updateSchedule(await c.encode(req, (r, f) => ({ ...r, action: walkAction(r.action, f) }))),
    patchSchedule: (req) => s.patchSchedule(req),
    deleteSchedule: (req) => s.deleteSchedule(req),
    listSchedules: (req) => s.listSchedules(req),
    countWorkflowExecutions: (req) => s.countWorkflowExecutions(req),
    createSearchAttribute: (req) => s.createSearchAttribute(req),
    listSearchAttributes: (req) => s.listSearchAttributes(req),
    deleteWorkflowExecution: (req) => s.deleteWorkflowExecution(req),
    removeSearchAttributes: (req) => s.removeSearchAttributes(req),
    registerNamespace: (req) => s.registerNamespace(req),
    describeNamespace: (req) => s.describeNamespace(req),
    listNamespaces: (req) => s.listNamespaces(req),
    updateNamespace: (req) => s.updateNamespace(req),
    deleteNamespace: (req) => s.deleteNamespace(req),
  };
  if (s.shutdownWorker) wrapped.shutdownWorker = (req: Req<'shutdownWorker'>) => s.shutdownWorker!(req);
  return wrapped;
}

/** The payloads of a description: the memo, pending activities' heartbeat details and last failures. */
function walkDescription(d: WorkflowExecutionDescription, f: PayloadMap): WorkflowExecutionDescription {
  return {
    ...d,
    execution: walkInfo(d.execution, f),
    pendingActivities: d.pendingActivities.map((a) => withFields(a, f, [], ['heartbeatDetails'], [], ['lastFailure'])),
  };
}
