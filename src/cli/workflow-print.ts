import type { WorkflowExecutionDescription } from '../client/index.ts';
import type { HistoryEvent } from '../history/events.ts';
import type { WorkflowExecutionInfo } from '../protocol/index.ts';
import type { FailureInfo } from '../common/failure.ts';
import { formatMs } from '../retry/duration.ts';
import { renderTable } from './table.ts';
import { markEncoded } from './encoded.ts';
import { colourOn, paint, STATUS_COLOUR } from './colour.ts';
import { workflowTaskLines } from './workflow-task-lines.ts';
import { printOutput } from './output.ts';

/** Prints `value` as JSON for scripts, or the human text. */
export function print(json: boolean, value: unknown, human: () => string): void {
  printOutput(json, value, human);
}

/**
 * The table of `steadfast workflow list`; statuses in colour when `colour` is on. A SUMMARY column
 * (the start's `staticSummary`) comes last when a run of the page has one.
 */
export function executionRows(list: WorkflowExecutionInfo[], colour = colourOn()): string {
  const summaries = list.some((e) => e.userMetadata?.summary !== undefined);
  return renderTable(
    ['WORKFLOW ID', 'TYPE', 'STATUS', 'STARTED', 'CLOSED', 'RUN ID', ...(summaries ? ['SUMMARY'] : [])],
    list.map((e) => [
      e.workflowId, e.workflowType, e.status, e.startTime, e.closeTime ?? '', e.runId, ...(summaries ? [oneLine(e.userMetadata?.summary ?? '')] : []),
    ]),
    colour ? (_, column, value) => (column === 2 ? STATUS_COLOUR[value] : undefined) : undefined,
  );
}

/** A text on one line, for a table cell. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

/** One event as a row of the history table: id, time, type, and its attributes cut to 90 characters. */
function eventRow(e: HistoryEvent): (string | number)[] {
  const details = JSON.stringify(e.attributes, markEncoded);
  return [e.eventId, e.eventTime, e.eventType, details.length > 90 ? `${details.slice(0, 87)}...` : details];
}

const EVENT_HEADERS = ['ID', 'TIME', 'TYPE', 'DETAILS'];

/** The table of `steadfast workflow history`. */
export function eventRows(events: HistoryEvent[]): string {
  return renderTable(EVENT_HEADERS, events.map(eventRow));
}

/**
 * One event as a line of `history --follow`, in fixed columns: the table's widths cannot be
 * known before the last event, so ids are padded to 6, times are ISO (fixed width) and types to 40.
 */
export function eventLine(e: HistoryEvent): string {
  const [id, time, type, details] = eventRow(e);
  return `${String(id).padStart(6)}  ${time}  ${String(type).padEnd(40)}  ${details}`.trimEnd();
}

/** The header of `history --follow`, aligned with {@link eventLine}. */
export function eventLineHeader(): string {
  return `${'ID'.padStart(6)}  ${'TIME'.padEnd(24)}  ${'TYPE'.padEnd(40)}  DETAILS`;
}

/** The text of `steadfast workflow describe`; the status in colour when `colour` is on. */
export function describeText(d: WorkflowExecutionDescription, colour = colourOn(), outcome: RunOutcome = {}): string {
  const size = d.historySize === undefined ? '' : `, ${d.historySize} bytes`;
  const config = d.raw.config;
  const lines = [
    `Workflow ${d.workflowId}  (${d.type}, run ${d.runId})`,
    `  status     ${paint(colour, STATUS_COLOUR[d.status], d.status)}`,
    `  started    ${d.startTime.toISOString()}${d.closeTime ? `\n  closed     ${d.closeTime.toISOString()}` : ''}`,
    `  task queue ${d.taskQueue}`,
    `  history    ${d.historyLength} events${size}, attempt ${d.attempt}`,
  ];
  const timeouts = [
    config.workflowExecutionTimeoutMs !== undefined ? `execution ${formatMs(config.workflowExecutionTimeoutMs)}` : '',
    config.workflowRunTimeoutMs !== undefined ? `run ${formatMs(config.workflowRunTimeoutMs)}` : '',
    `task ${formatMs(config.workflowTaskTimeoutMs)}`,
  ].filter(Boolean);
  lines.push(`  timeouts   ${timeouts.join(', ')}`);
  const metadata = d.raw.execution.userMetadata;
  if (metadata?.summary !== undefined) lines.push(`  summary    ${oneLine(metadata.summary)}`);
  if (metadata?.details !== undefined) lines.push(`  details    ${metadata.details.split('\n').join('\n             ')}`);
  if ('result' in outcome) lines.push(`  result     ${JSON.stringify(outcome.result, markEncoded) ?? 'undefined'}`);
  if (outcome.failure) lines.push(`  failure    ${failureText(outcome.failure)}`);
  if (outcome.reason !== undefined) lines.push(`  reason     ${outcome.reason}`);
  const r = config.retryPolicy;
  if (r) {
    lines.push(`  retry      initial ${formatMs(r.initialIntervalMs)}, coefficient ${r.backoffCoefficient}, maximum ${formatMs(r.maximumIntervalMs)}, `
      + `${r.maximumAttempts === 0 ? 'unlimited attempts' : `at most ${r.maximumAttempts} attempts`}`
      + `${r.nonRetryableErrorTypes.length ? `, non-retryable ${r.nonRetryableErrorTypes.join(', ')}` : ''}`);
  }
  if (d.cronSchedule !== undefined) lines.push(`  cron       ${d.cronSchedule} (this run scheduled for ${d.executionTime.toISOString()})`);
  if (d.parentExecution) lines.push(`  parent     ${d.parentExecution.workflowId} (run ${d.parentExecution.runId})`);
  if (d.memo && Object.keys(d.memo).length) lines.push(`  memo       ${JSON.stringify(d.memo, markEncoded)}`);
  if (d.searchAttributes) lines.push(`  search attributes ${JSON.stringify(d.searchAttributes)}`);
  if (d.pendingActivities.length) {
    lines.push('', 'Pending activities:', renderTable(
      ['ID', 'TYPE', 'STATE', 'ATTEMPT', 'NEXT ATTEMPT', 'SUMMARY', 'LAST FAILURE'],
      d.pendingActivities.map((a) => [a.activityId, a.activityType, a.state, a.attempt, a.nextAttemptScheduleTime ?? '', a.summary ?? '', a.lastFailure?.message ?? '']),
    ));
  }
  if (d.pendingLocalActivities.length) {
    lines.push('', 'Running local activities (as the worker last reported them):', renderTable(
      ['ID', 'TYPE', 'ATTEMPT', 'ATTEMPT STARTED', 'WORKER', 'LAST FAILURE'],
      d.pendingLocalActivities.map((a) => [a.activityId, a.activityType, a.attempt, a.lastStartedTime ?? '', a.lastWorkerIdentity, a.lastFailure?.message ?? '']),
    ));
  }
  if (d.pendingChildren.length) {
    lines.push('', 'Pending children:', renderTable(
      ['WORKFLOW ID', 'TYPE', 'RUN', 'PARENT CLOSE POLICY'],
      d.pendingChildren.map((c) => [c.workflowId, c.workflowType, c.runId ?? '', c.parentClosePolicy]),
    ));
  }
  lines.push(...workflowTaskLines(d));
  return lines.join('\n');
}

/**
 * A workflow's failure on one line, its causes joined by `: `:
 * `activity charge failed: card declined (CardDeclined, non-retryable)`.
 */
export function failureText(failure: FailureInfo | undefined): string {
  const parts: string[] = [];
  let said = '';
  for (let f = failure; f; f = f.cause) {
    const tags = [f.type, f.nonRetryable ? 'non-retryable' : ''].filter(Boolean).join(', ');
    const message = f.message.replace(/\s*\n\s*/g, ' ');
    // A message that repeats what an outer one already said is said once, with its tags.
    const text = message !== '' && said.includes(message) ? '' : message;
    said += ` ${message}`;
    if (text || tags) parts.push(`${text}${tags ? `${text ? ' ' : ''}(${tags})` : ''}`);
  }
  return parts.join(': ');
}

/** How a closed run ended, from its close event: what `workflow describe` shows of it. */
export interface RunOutcome {
  result?: unknown;
  failure?: FailureInfo;
  reason?: string;
}

/** The outcome a run's close event records; empty for an open run. */
export function outcomeOf(close: HistoryEvent | undefined): RunOutcome {
  if (!close) return {};
  const a = close.attributes as { result?: unknown; failure?: FailureInfo; reason?: string; details?: unknown };
  switch (close.eventType) {
    case 'WorkflowExecutionCompleted': return { result: a.result };
    case 'WorkflowExecutionFailed': return a.failure ? { failure: a.failure } : {};
    case 'WorkflowExecutionTerminated': return { reason: a.reason ?? '' };
    case 'WorkflowExecutionTimedOut': return { reason: 'the workflow timed out' };
    default: return {};
  }
}
