import { encodePayload } from '../../common/payload.ts';
import { optionalArray, optionalRecord, optionalString } from '../../common/validate.ts';
import { optionalHeader, optionalRetryPolicy, optionalTimeout, requireDurationMs } from '../core/requests.ts';
import { continueAsNew } from '../core/runs.ts';
import { mergeSearchAttributes } from '../../history/search-attribute-values.ts';
import type { SearchAttributeValue } from '../../visibility/attributes.ts';
import { commandSearchAttributes } from '../visibility/search-attributes.ts';
import { runTimer, type Feature } from '../core/feature.ts';

// Needs visibility/: the new run's search attributes are checked against the namespace's definitions.

/**
 * Continue-as-new (and the chain it shares with retries and cron): the command, the
 * WorkflowBackoff timer that ends a new run's first backoff, describe's links along the chain.
 * Its state slice is `continuedFromRunId` / `continuedAsNewToRunId`; runs.ts builds the runs.
 */
export const continueAsNewFeature = {
  commands: {
    ContinueAsNewWorkflowExecution({ b, completedEventId, field, definitions }, a) {
      const args = optionalArray(`${field}.args`, a.args);
      encodePayload(`${field}.args`, args);
      const memo = optionalRecord(`${field}.memo`, a.memo);
      const retryPolicy = optionalRetryPolicy(`${field}.retryPolicy`, a.retryPolicy);
      const workflowType = optionalString(`${field}.workflowType`, a.workflowType);
      const taskQueue = optionalString(`${field}.taskQueue`, a.taskQueue);
      const workflowRunTimeoutMs = optionalTimeout(`${field}.workflowRunTimeoutMs`, a.workflowRunTimeoutMs);
      const workflowTaskTimeoutMs = optionalTimeout(`${field}.workflowTaskTimeoutMs`, a.workflowTaskTimeoutMs);
      const searchAttributes = a.searchAttributes === undefined ? undefined
        : mergeSearchAttributes<SearchAttributeValue>(undefined, commandSearchAttributes(definitions, b.record.namespace, a.searchAttributes, 'continueAsNew.searchAttributes')) ?? {};
      const header = optionalHeader(`${field}.header`, a.header);
      const backoff = a.backoffStartIntervalMs === undefined ? 0 : requireDurationMs(`${field}.backoffStartIntervalMs`, a.backoffStartIntervalMs, 0);
      continueAsNew(b, {
        initiator: 'Workflow', backoffMs: backoff, attempt: 1, args, workflowTaskCompletedEventId: completedEventId,
        ...(memo ? { memo } : {}), ...(searchAttributes ? { searchAttributes } : {}), ...(retryPolicy ? { retryPolicy } : {}), ...(workflowType ? { workflowType } : {}),
        ...(taskQueue ? { taskQueue } : {}), ...(workflowRunTimeoutMs !== undefined ? { workflowRunTimeoutMs } : {}),
        ...(workflowTaskTimeoutMs !== undefined ? { workflowTaskTimeoutMs } : {}), ...(header ? { header } : {}),
      });
    },
  },
  timers: {
    WorkflowBackoff: runTimer((b) => {
      if (!b.closed) b.ensureWorkflowTask();
    }),
  },
  describe(s, d) {
    if (s.continuedFromRunId) d.continuedFromRunId = s.continuedFromRunId;
    if (s.continuedAsNewToRunId) d.continuedAsNewToRunId = s.continuedAsNewToRunId;
  },
} satisfies Feature;
