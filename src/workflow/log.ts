import { ValidationError } from '../errors/index.ts';
import type { SandboxHost } from './activation.ts';
import { currentActivator } from './current-run.ts';
import { logAttributes } from './interceptors.ts';

/** A level of the workflow {@link log}. */
export type WorkflowLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** Temporal's workflow logger: each call goes to the worker's logger with the run's ids. */
export interface WorkflowLogger {
  trace(message: string, attrs?: Record<string, unknown>): void;
  debug(message: string, attrs?: Record<string, unknown>): void;
  info(message: string, attrs?: Record<string, unknown>): void;
  warn(message: string, attrs?: Record<string, unknown>): void;
  error(message: string, attrs?: Record<string, unknown>): void;
}

let host: SandboxHost | undefined;

/** Connects the workflow log to the worker (the realm's entry, once). */
export function setLogHost(h: SandboxHost): void {
  host = h;
}

/** Copies `attrs` as plain JSON data, so nothing of the realm crosses to the worker. */
function plainAttrs(attrs: unknown): Record<string, unknown> | undefined {
  if (attrs === undefined) return undefined;
  if (typeof attrs !== 'object' || attrs === null || Array.isArray(attrs)) throw new ValidationError('attrs', 'must be an object or undefined', attrs);
  try {
    return JSON.parse(JSON.stringify(attrs)) as Record<string, unknown>;
  } catch (err) {
    throw new ValidationError('attrs', `must be JSON-serializable (${(err as Error).message})`, attrs);
  }
}

/** Sends one line to the worker's logger unless the run is replaying; outside a run it is dropped. */
export function workflowLog(level: WorkflowLogLevel, message: string, attrs?: Record<string, unknown>): void {
  const run = currentActivator();
  if (!run || run.isReplaying || !host) return;
  const shaped = logAttributes(run.interceptors, plainAttrs(attrs) ?? {});
  host.log(level, typeof message === 'string' ? message : String(message), run.info, Object.keys(shaped).length ? plainAttrs(shaped) : undefined);
}

/**
 * The workflow logger (Temporal's `log` of @temporalio/workflow): lines go to the worker's
 * logger (its `logger` option, else `Runtime.install({ logger })`'s) with the run's
 * namespace, taskQueue, workflowId, runId and workflowType as fields, and are not written
 * again while the run's history is replayed.
 */
export const log: WorkflowLogger = Object.freeze({
  trace: (message: string, attrs?: Record<string, unknown>) => workflowLog('trace', message, attrs),
  debug: (message: string, attrs?: Record<string, unknown>) => workflowLog('debug', message, attrs),
  info: (message: string, attrs?: Record<string, unknown>) => workflowLog('info', message, attrs),
  warn: (message: string, attrs?: Record<string, unknown>) => workflowLog('warn', message, attrs),
  error: (message: string, attrs?: Record<string, unknown>) => workflowLog('error', message, attrs),
});
