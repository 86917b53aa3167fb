import { parseQuery } from '../visibility/parser.ts';
import { ServiceError } from '../common/errors.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { optionalInt, optionalString, requireOneOf, requireString } from '../common/validate.ts';
import { ValidationError } from '../errors/index.ts';
import type { WorkflowClient } from './client.ts';
import type { WorkflowHandle } from './workflow-handle.ts';
import { optionalReapplyExcludeTypes } from './reset-options.ts';
import type { ResetReapplyExcludeType } from '../protocol/index.ts';

/** Asks every matched run to cancel (`handle.cancel(reason)`). */
export interface BulkCancel {
  type: 'cancel';
  reason?: string;
}

/** Terminates every matched run (`handle.terminate(reason)`). */
export interface BulkTerminate {
  type: 'terminate';
  /** @default "terminated by bulk operation" */
  reason?: string;
}

/** Sends one signal to every matched run (`handle.signal(signalName, ...args)`). */
export interface BulkSignal {
  type: 'signal';
  signalName: string;
  /** The signal's arguments. @default [] */
  args?: unknown[];
}

/** Resets every matched workflow to its first or last workflow task (`handle.reset({ type })`). */
export interface BulkReset {
  type: 'reset';
  resetType: 'FirstWorkflowTask' | 'LastWorkflowTask';
  reason?: string;
  /** false: re-apply no signal or update after the reset point (`handle.reset`'s option). @default true */
  reapplySignals?: boolean;
  /** Kinds of events after the reset point not re-applied: `Signal`, `Update` (`handle.reset`'s option). @default [] */
  resetReapplyExcludeTypes?: ResetReapplyExcludeType[];
}

/** What {@link WorkflowClient.bulk} does to each run its query matches. */
export type BulkOperation = BulkCancel | BulkTerminate | BulkSignal | BulkReset;

/** Options of {@link WorkflowClient.bulk}. */
export interface BulkOptions {
  /** The runs to act on, in the filter language of `list` (docs/visibility.md); must not be empty nor group. */
  query: string;
  operation: BulkOperation;
  /** Calls in flight at once, 1 to 100. @default 8 */
  concurrency?: number;
  /**
   * Called after each run is handled: `processed` counts done, skipped and failed runs so far;
   * `total` is what `count({ query })` answered before the first call (raised if more runs turn
   * up while paging). An exception it throws stops the operation once the calls in flight end.
   */
  onProgress?: (processed: number, total: number) => void;
}

/** A run the operation failed on. */
export interface BulkError {
  workflowId: string;
  runId: string;
  message: string;
}

/** What {@link WorkflowClient.bulk} did. */
export interface BulkResult {
  /** What `count({ query })` answered before the operation began. */
  total: number;
  /** Runs the query yielded while paging (done + skipped + failed). */
  matched: number;
  /** Runs the operation succeeded on. */
  done: number;
  /**
   * Runs left alone: already closed (for cancel, terminate and signal: when listed, or closed
   * by the time the call reached them), or an older run of a workflow already reset.
   */
  skipped: number;
  /** Runs the operation failed on; `errors` holds the first {@link MAX_BULK_ERRORS}. */
  failed: number;
  errors: BulkError[];
}

/** How many failures a {@link BulkResult} keeps in `errors`; `failed` counts them all. */
export const MAX_BULK_ERRORS = 100;

/** Every key of {@link BulkOptions}; the compiler fails when the type gains one this lacks. */
const BULK_OPTION_KEYS = optionKeys<BulkOptions>({ query: true, operation: true, concurrency: true, onProgress: true });

type OperationType = BulkOperation['type'];
type OperationOf<K extends OperationType> = Extract<BulkOperation, { type: K }>;

/** One entry per operation: its keys, whether closed runs are skipped, and the call it makes. */
interface OperationSpec<K extends OperationType> {
  keys: { [P in keyof Required<OperationOf<K>>]: true };
  /** A closed run is skipped (and a FailedPrecondition answer, a run closed meanwhile, counts as skipped). */
  skipsClosed: boolean;
  /** Checks the operation's fields; throws a ValidationError naming `operation.<field>`. */
  validate(op: OperationOf<K>): void;
  apply(handle: WorkflowHandle, op: OperationOf<K>): Promise<unknown>;
}

const OPERATIONS: { [K in OperationType]: OperationSpec<K> } = {
  cancel: {
    keys: { type: true, reason: true },
    skipsClosed: true,
    validate: (op) => void optionalString('operation.reason', op.reason, 10_000),
    apply: (h, op) => h.cancel(op.reason),
  },
  terminate: {
    keys: { type: true, reason: true },
    skipsClosed: true,
    validate: (op) => void optionalString('operation.reason', op.reason, 10_000),
    apply: (h, op) => h.terminate(op.reason ?? 'terminated by bulk operation'),
  },
  signal: {
    keys: { type: true, signalName: true, args: true },
    skipsClosed: true,
    validate: (op) => {
      requireString('operation.signalName', op.signalName);
      if (op.args !== undefined && !Array.isArray(op.args)) throw new ValidationError('operation.args', 'must be an array', op.args);
    },
    apply: (h, op) => h.signal(op.signalName, ...(op.args ?? [])),
  },
  reset: {
    keys: { type: true, resetType: true, reason: true, reapplySignals: true, resetReapplyExcludeTypes: true },
    skipsClosed: false,
    validate: (op) => {
      requireOneOf('operation.resetType', op.resetType, ['FirstWorkflowTask', 'LastWorkflowTask'] as const);
      optionalString('operation.reason', op.reason, 10_000);
      if (op.reapplySignals !== undefined && typeof op.reapplySignals !== 'boolean') {
        throw new ValidationError('operation.reapplySignals', 'must be a boolean', op.reapplySignals);
      }
      optionalReapplyExcludeTypes('operation.resetReapplyExcludeTypes', op.resetReapplyExcludeTypes);
    },
    apply: (h, op) => h.reset({
      type: op.resetType, ...(op.reason !== undefined ? { reason: op.reason } : {}), ...(op.reapplySignals !== undefined ? { reapplySignals: op.reapplySignals } : {}),
      ...(op.resetReapplyExcludeTypes !== undefined ? { resetReapplyExcludeTypes: op.resetReapplyExcludeTypes } : {}),
    }),
  },
};

function specOf(operation: unknown): OperationSpec<OperationType> {
  if (typeof operation !== 'object' || operation === null) {
    throw new ValidationError('operation', 'must be an object such as { type: \'terminate\', reason }', operation);
  }
  const type = requireOneOf('operation.type', (operation as { type?: unknown }).type, Object.keys(OPERATIONS) as OperationType[]);
  const spec = OPERATIONS[type] as unknown as OperationSpec<OperationType>;
  refuseUnknownKeys(`bulk ${type}`, operation, Object.keys(spec.keys));
  spec.validate(operation as BulkOperation);
  return spec;
}

/**
 * Applies `options.operation` to every run `options.query` matches (see WorkflowClient.bulk).
 * Runs are listed page by page (keyset paging on the query's order, StartTime DESC by default),
 * so each run is visited once when the order's keys are ones the operation does not change.
 * A reset acts once per workflow id: resetting an older run again would replace the new run.
 */
export async function runBulk(workflows: WorkflowClient, options: BulkOptions): Promise<BulkResult> {
  if (typeof options !== 'object' || options === null) throw new ValidationError('bulk options', 'must be an object with query and operation', options);
  refuseUnknownKeys('bulk', options, BULK_OPTION_KEYS);
  const query = requireString('query', options.query, 100_000);
  const spec = specOf(options.operation);
  const operation = options.operation;
  const concurrency = optionalInt('concurrency', options.concurrency, 1, 100) ?? 8;
  const onProgress = options.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new ValidationError('onProgress', 'must be a function', onProgress);

  if (parseQuery(query).groupBy.length > 0) throw new ValidationError('query', 'must not group (GROUP BY) in a bulk operation', query);
  const counted = await workflows.count({ query });
  const result: BulkResult = { total: counted.count, matched: 0, done: 0, skipped: 0, failed: 0, errors: [] };
  const resetWorkflows = new Set<string>();
  let progressError: { error: unknown } | undefined;

  const handleOne = async (run: { workflowId: string; runId: string; status: string }): Promise<void> => {
    try {
      if (spec.skipsClosed && run.status !== 'Running') {
        result.skipped++;
      } else if (operation.type === 'reset' && resetWorkflows.has(run.workflowId)) {
        result.skipped++;
      } else {
        if (operation.type === 'reset') resetWorkflows.add(run.workflowId);
        await spec.apply(workflows.getHandle(run.workflowId, run.runId), operation);
        result.done++;
      }
    } catch (err) {
      if (spec.skipsClosed && err instanceof ServiceError && err.code === 'FailedPrecondition') {
        result.skipped++;
      } else {
        result.failed++;
        if (result.errors.length < MAX_BULK_ERRORS) {
          result.errors.push({ workflowId: run.workflowId, runId: run.runId, message: err instanceof Error ? err.message : String(err) });
        }
      }
    }
    try {
      onProgress?.(result.done + result.skipped + result.failed, Math.max(result.total, result.matched));
    } catch (error) {
      progressError ??= { error };
    }
  };

  const inFlight = new Set<Promise<void>>();
  for await (const run of workflows.list({ query, pageSize: 500 })) {
    if (progressError) break;
    result.matched++;
    const call: Promise<void> = handleOne(run).finally(() => inFlight.delete(call));
    inFlight.add(call);
    if (inFlight.size >= concurrency) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (progressError) throw progressError.error;
  return result;
}
