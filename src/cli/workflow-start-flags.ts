import { WORKFLOW_ID_CONFLICT_POLICIES, WorkflowIdConflictPolicy, type WorkflowIdConflictPolicyOption } from '../history/id-conflict-policy.ts';
import { readFileSync } from 'node:fs';
import type { WorkflowStartOptions } from '../client/index.ts';
import { toStartRequest } from '../client/start-options.ts';
import { goDurationMs, toMs, type Duration } from '../retry/duration.ts';
import { ValidationError } from '../errors/index.ts';
import { parseCronSchedule } from '../schedule/index.ts';
import { parseIntFlag, refuseTogether, UsageError } from './args.ts';
import { asFlagErrorOf } from './flag-errors.ts';

/** The flags of `steadfast workflow start` / `execute` (Temporal CLI's names), and the input flags of signal, query and update. */
export const START_FLAGS = {
  'workflow-id': { type: 'string', short: 'w' }, id: { type: 'string' }, 'task-queue': { type: 'string', short: 't' },
  input: { type: 'string', multiple: true, short: 'i' }, 'input-file': { type: 'string', multiple: true },
  args: { type: 'string' }, 'args-file': { type: 'string' },
  'retry-initial-interval': { type: 'string' }, 'retry-backoff-coefficient': { type: 'string' },
  'retry-maximum-interval': { type: 'string' }, 'retry-maximum-attempts': { type: 'string' },
  'retry-non-retryable-error-types': { type: 'string' },
  'execution-timeout': { type: 'string' }, 'run-timeout': { type: 'string' }, 'task-timeout': { type: 'string' },
  'id-reuse-policy': { type: 'string' }, 'id-conflict-policy': { type: 'string' }, 'start-delay': { type: 'string' }, cron: { type: 'string' },
  memo: { type: 'string', multiple: true }, 'search-attribute': { type: 'string', multiple: true },
  'static-summary': { type: 'string' }, 'static-details': { type: 'string' },
} as const;

/** The values the start flags parse to. */
interface StartFlagValues {
  'workflow-id'?: string; id?: string; 'task-queue'?: string;
  input?: string[]; 'input-file'?: string[]; args?: string; 'args-file'?: string;
  'retry-initial-interval'?: string; 'retry-backoff-coefficient'?: string; 'retry-maximum-interval'?: string;
  'retry-maximum-attempts'?: string; 'retry-non-retryable-error-types'?: string;
  'execution-timeout'?: string; 'run-timeout'?: string; 'task-timeout'?: string;
  'id-reuse-policy'?: string; 'id-conflict-policy'?: string; 'start-delay'?: string; cron?: string; memo?: string[]; 'search-attribute'?: string[];
  'static-summary'?: string; 'static-details'?: string;
}

/** The flag that sets each start option, so the client's validation errors name the flag a person typed. */
const FLAG_OF_FIELD: Record<string, string> = {
  workflowId: 'workflow-id', taskQueue: 'task-queue', args: 'input',
  'retry.initialInterval': 'retry-initial-interval', 'retry.backoffCoefficient': 'retry-backoff-coefficient',
  'retry.maximumInterval': 'retry-maximum-interval', 'retry.maximumAttempts': 'retry-maximum-attempts',
  'retry.nonRetryableErrorTypes': 'retry-non-retryable-error-types',
  workflowExecutionTimeout: 'execution-timeout', workflowRunTimeout: 'run-timeout', workflowTaskTimeout: 'task-timeout',
  workflowIdReusePolicy: 'id-reuse-policy', workflowIdConflictPolicy: 'id-conflict-policy', startDelay: 'start-delay', cronSchedule: 'cron', memo: 'memo', searchAttributes: 'search-attribute',
  staticSummary: 'static-summary', staticDetails: 'static-details',
};

function parseJson(flag: string, text: string, example: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag} must be JSON, e.g. ${example}: ${(err as Error).message}`);
  }
}

function readFlagFile(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag} cannot be read: ${(err as Error).message}`);
  }
}

/**
 * The workflow's (or message's) arguments: one JSON value per `--input` or per `--input-file`
 * (Temporal's flags, repeatable), or a JSON array in `--args` or `--args-file`; none given is `[]`.
 */
export function readInputs(values: Pick<StartFlagValues, 'input' | 'input-file' | 'args' | 'args-file'>): unknown[] {
  refuseTogether(values, ['args', 'args-file']);
  refuseTogether(values, ['input', 'input-file']);
  if ((values.input || values['input-file']) && (values.args !== undefined || values['args-file'] !== undefined)) {
    throw new UsageError('use --input/--input-file (one JSON value each) or --args/--args-file (one JSON array), not both');
  }
  if (values.input) return values.input.map((text) => parseJson('--input', text, `--input '"o-1"' --input 100`));
  if (values['input-file']) {
    return values['input-file'].map((file) => parseJson(`--input-file ${file}`, readFlagFile('--input-file', file), 'a file holding "o-1" or {"id": 1}'));
  }
  const file = values['args-file'];
  const flag = file === undefined ? '--args' : `--args-file ${file}`;
  const text = file === undefined ? values.args : readFlagFile('--args-file', file);
  if (text === undefined) return [];
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag} must hold a JSON array, e.g. '["o-1", 2]': ${(err as Error).message}`);
  }
  if (!Array.isArray(args)) throw new UsageError(`${flag} must hold a JSON array, e.g. '["o-1", 2]'`);
  return args;
}

/**
 * Milliseconds of a duration flag, in Go's form as Temporal's CLI reads it (`1h30m`, `90s`) or
 * the `ms` form the client takes (`1.5h`, `2 minutes`, a bare number of ms). Must be > 0.
 */
function durationFlag(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  let ms = goDurationMs(text.trim(), { days: true });
  if (ms === undefined) {
    try {
      ms = toMs(text as Duration, flag);
    } catch {
      throw new UsageError(`--${flag} must be a duration such as 90s, 1h30m, 1.5h or 2 days, got "${text}"`);
    }
  }
  if (!(ms > 0)) throw new UsageError(`--${flag} must be greater than 0, got "${text}"`);
  return ms;
}

/** `key=<json>` pairs of a repeatable flag, as an object; undefined when the flag is not given. */
function keyedJson(flag: string, items: string[] | undefined, example: string): Record<string, unknown> | undefined {
  if (!items) return undefined;
  const out: Record<string, unknown> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`--${flag} must be key=<json value>, e.g. ${example}, got "${item}"`);
    const key = item.slice(0, eq);
    if (Object.hasOwn(out, key)) throw new UsageError(`--${flag} must give each key once, got "${key}" twice`);
    out[key] = parseJson(`--${flag} ${key}`, item.slice(eq + 1), example);
  }
  return out;
}

function searchAttributesOf(items: string[] | undefined): WorkflowStartOptions['searchAttributes'] {
  const given = keyedJson('search-attribute', items, `CustomerId='"c-9"'`);
  if (!given) return undefined;
  for (const [key, value] of Object.entries(given)) {
    const ok = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    if (!ok) throw new UsageError(`--search-attribute ${key} must be a JSON string, number, boolean or array of strings, got ${JSON.stringify(value)}`);
  }
  return given as WorkflowStartOptions['searchAttributes'];
}

function retryOf(v: StartFlagValues): WorkflowStartOptions['retry'] {
  const retry: NonNullable<WorkflowStartOptions['retry']> = {};
  const initial = durationFlag('retry-initial-interval', v['retry-initial-interval']);
  if (initial !== undefined) retry.initialInterval = initial;
  const maximum = durationFlag('retry-maximum-interval', v['retry-maximum-interval']);
  if (maximum !== undefined) retry.maximumInterval = maximum;
  const coefficient = v['retry-backoff-coefficient'];
  if (coefficient !== undefined) {
    const n = Number(coefficient);
    if (coefficient.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--retry-backoff-coefficient must be a number, got "${coefficient}"`);
    retry.backoffCoefficient = n;
  }
  const attempts = parseIntFlag('retry-maximum-attempts', v['retry-maximum-attempts'], 0);
  if (attempts !== undefined) retry.maximumAttempts = attempts;
  const types = v['retry-non-retryable-error-types'];
  if (types !== undefined) {
    const list = types.split(',').map((t) => t.trim());
    if (list.some((t) => t === '')) throw new UsageError(`--retry-non-retryable-error-types must be a comma-separated list of error types, got "${types}"`);
    retry.nonRetryableErrorTypes = list;
  }
  return Object.keys(retry).length ? retry : undefined;
}

/**
 * The start options the flags give, checked as `client.workflow.start` checks them; a bad value is
 * a UsageError naming the flag and the rule (`--retry-backoff-coefficient must be >= 1, got 0.5`).
 */
export function startOptionsFromFlags(v: StartFlagValues): WorkflowStartOptions {
  refuseTogether(v as Record<string, unknown>, ['workflow-id', 'id']);
  const taskQueue = v['task-queue'];
  if (!taskQueue) throw new UsageError('--task-queue is required (the queue your worker polls, e.g. --task-queue orders)');
  const workflowId = v['workflow-id'] ?? v.id;
  if (v.cron !== undefined) parseCronSchedule(v.cron, '--cron');
  const retry = retryOf(v);
  const exec = durationFlag('execution-timeout', v['execution-timeout']);
  const run = durationFlag('run-timeout', v['run-timeout']);
  const task = durationFlag('task-timeout', v['task-timeout']);
  const memo = keyedJson('memo', v.memo, `customer='"c-9"'`);
  const searchAttributes = searchAttributesOf(v['search-attribute']);
  const options: WorkflowStartOptions = {
    taskQueue, args: readInputs(v),
    ...(workflowId !== undefined ? { workflowId } : {}),
    ...(retry ? { retry } : {}),
    ...(exec !== undefined ? { workflowExecutionTimeout: exec } : {}),
    ...(run !== undefined ? { workflowRunTimeout: run } : {}),
    ...(task !== undefined ? { workflowTaskTimeout: task } : {}),
    ...(v['id-reuse-policy'] !== undefined ? { workflowIdReusePolicy: v['id-reuse-policy'] as NonNullable<WorkflowStartOptions['workflowIdReusePolicy']> } : {}),
    ...(v['id-conflict-policy'] !== undefined ? { workflowIdConflictPolicy: conflictPolicyFlag(v['id-conflict-policy']) } : {}),
    ...(v['start-delay'] !== undefined ? { startDelay: durationFlag('start-delay', v['start-delay'])! } : {}),
    ...(v.cron !== undefined ? { cronSchedule: v.cron } : {}),
    ...(memo ? { memo } : {}),
    ...(searchAttributes ? { searchAttributes } : {}),
    ...(v['static-summary'] !== undefined ? { staticSummary: v['static-summary'] } : {}),
    ...(v['static-details'] !== undefined ? { staticDetails: v['static-details'] } : {}),
  };
  try {
    toStartRequest('check', options, 'default', 'cli');
  } catch (err) {
    throw asFlagError(err, v);
  }
  return options;
}

/**
 * A start option's ValidationError retold with the flag's name and its text; other errors as they
 * are. Also for the server's answer: it checks search attributes against the namespace's registry.
 */
export function asFlagError(err: unknown, v: StartFlagValues): unknown {
  if (!(err instanceof ValidationError)) return err;
  if (err.field.startsWith('searchAttributes.')) return new UsageError(err.message.replace(/^searchAttributes\./, '--search-attribute '));
  return asFlagErrorOf(err, FLAG_OF_FIELD, v, (rule) => rule.replace(/\binitialInterval\b/, '--retry-initial-interval'));
}

/**
 * `--id-conflict-policy` in any case (`use-existing`, `UseExisting`, `USE_EXISTING`), as the
 * Temporal CLI takes it; a value no spelling matches is passed on, so the error lists them.
 */
function conflictPolicyFlag(text: string): WorkflowIdConflictPolicyOption {
  const squash = (s: string) => s.replace(/[-_]/g, '').toLowerCase();
  const hit = [...WORKFLOW_ID_CONFLICT_POLICIES, ...Object.keys(WorkflowIdConflictPolicy)].find((n) => squash(n) === squash(text));
  return (hit ?? text) as WorkflowIdConflictPolicyOption;
}
