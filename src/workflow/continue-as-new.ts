import { brandClass, SteadfastError, ValidationError } from '../errors/index.ts';
import { activator } from './current-run.ts';
import { headerField, outbound } from './interceptors.ts';
import { optionKeys, refuseUnknownKeys } from '../common/option-keys.ts';
import { optionalPositiveDuration, optionalRecord, optionalString } from '../common/validate.ts';
import type { Duration } from '../retry/duration.ts';
import type { CommandAttributes } from '../history/commands.ts';
import type { Workflow } from '../common/workflow-types.ts';
import { searchAttributesToCommand, type SearchAttributesOption } from './search-attribute-options.ts';

/**
 * Thrown by {@link continueAsNew}: not a failure but a request to close this run and start a
 * new one of the same chain (ContinueAsNewWorkflowExecution). Let it propagate.
 */
export class ContinueAsNew extends SteadfastError {
  constructor(readonly attributes: CommandAttributes['ContinueAsNewWorkflowExecution']) {
    super('Workflow continued as new');
  }
}
brandClass(ContinueAsNew, 'ContinueAsNew');

/** Options of the next run started by continue-as-new. Unset fields keep the current run's. */
export interface ContinueAsNewOptions {
  /** @default the current workflow type */
  workflowType?: string;
  /** @default the current task queue */
  taskQueue?: string;
  workflowRunTimeout?: Duration;
  workflowTaskTimeout?: Duration;
  memo?: Record<string, unknown>;
  /**
   * The new run's custom search attributes, replacing this run's (`{}` for none); the same
   * values as `upsertSearchAttributes` takes. @default this run's current attributes, upserts included
   */
  searchAttributes?: SearchAttributesOption;
}

const CONTINUE_AS_NEW_OPTION_KEYS = optionKeys<ContinueAsNewOptions>({
  workflowType: true, taskQueue: true, workflowRunTimeout: true, workflowTaskTimeout: true, memo: true, searchAttributes: true,
});

/**
 * Makes a function that closes this run and continues as a new run with the given
 * arguments; typed by the workflow it continues as.
 */
export function makeContinueAsNewFunc<F extends Workflow>(options: ContinueAsNewOptions = {}): (...args: Parameters<F>) => Promise<never> {
  if (optionalRecord('continueAsNew options', options) === undefined) throw new ValidationError('continueAsNew options', 'must be an object', options);
  refuseUnknownKeys('continueAsNew', options, CONTINUE_AS_NEW_OPTION_KEYS);
  const workflowType = optionalString('continueAsNew.workflowType', options.workflowType);
  const taskQueue = optionalString('continueAsNew.taskQueue', options.taskQueue);
  const workflowRunTimeoutMs = optionalPositiveDuration('continueAsNew.workflowRunTimeout', options.workflowRunTimeout);
  const workflowTaskTimeoutMs = optionalPositiveDuration('continueAsNew.workflowTaskTimeout', options.workflowTaskTimeout);
  const memo = optionalRecord('continueAsNew.memo', options.memo);
  const searchAttributes = options.searchAttributes === undefined ? undefined
    : searchAttributesToCommand('continueAsNew.searchAttributes', options.searchAttributes);
  return (...args: Parameters<F>): Promise<never> => {
    const attributes: CommandAttributes['ContinueAsNewWorkflowExecution'] = { args };
    if (workflowType !== undefined) attributes.workflowType = workflowType;
    if (taskQueue !== undefined) attributes.taskQueue = taskQueue;
    if (workflowRunTimeoutMs !== undefined) attributes.workflowRunTimeoutMs = workflowRunTimeoutMs;
    if (workflowTaskTimeoutMs !== undefined) attributes.workflowTaskTimeoutMs = workflowTaskTimeoutMs;
    if (memo !== undefined) attributes.memo = memo;
    if (searchAttributes !== undefined) attributes.searchAttributes = searchAttributes;
    const { args: _args, ...rest } = attributes;
    return outbound(activator().interceptors, 'continueAsNew', (input) => Promise.reject(new ContinueAsNew({
      ...input.options, args: input.args, ...headerField(input.headers),
    })))({ args, headers: {}, options: rest });
  };
}

/**
 * Closes this run and starts a new run of the same workflow with `args` and a fresh history.
 * Never resolves: it rejects with {@link ContinueAsNew}, which must propagate out of the workflow.
 */
export function continueAsNew<F extends Workflow>(...args: Parameters<F>): Promise<never> {
  return makeContinueAsNewFunc<F>()(...args);
}
