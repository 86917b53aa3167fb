import { ValidationError } from '../retry/errors.ts';

/**
 * What a task token names: a run, and within it a workflow task (by sequence number) or an
 * activity (by scheduled event id), with the attempt it was handed out for, so a response
 * from an earlier attempt is recognized and rejected.
 */
export type TaskTokenData =
  | { kind: 'workflow'; namespace: string; runId: string; seq: number; attempt: number }
  | { kind: 'activity'; namespace: string; runId: string; scheduledEventId: number; attempt: number };

/** Encodes a task token (opaque to workers: base64url JSON). */
export function encodeTaskToken(t: TaskTokenData): string {
  const body = t.kind === 'workflow' ? ['w', t.namespace, t.runId, t.seq, t.attempt] : ['a', t.namespace, t.runId, t.scheduledEventId, t.attempt];
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/**
 * Decodes a task token.
 * @throws ValidationError naming `taskToken` when it is not one this engine made.
 */
export function decodeTaskToken(token: unknown, expected: 'workflow' | 'activity'): TaskTokenData {
  if (typeof token !== 'string' || token.length === 0 || token.length > 2000) {
    throw new ValidationError('taskToken', 'must be a task token from a poll', token);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    body = undefined;
  }
  if (!Array.isArray(body) || body.length !== 5 || typeof body[1] !== 'string' || typeof body[2] !== 'string'
    || !Number.isInteger(body[3]) || !Number.isInteger(body[4])) {
    throw new ValidationError('taskToken', 'must be a task token from a poll', token);
  }
  const [k, namespace, runId, n, attempt] = body as [string, string, string, number, number];
  if (k === 'w' && expected === 'workflow') return { kind: 'workflow', namespace, runId, seq: n, attempt };
  if (k === 'a' && expected === 'activity') return { kind: 'activity', namespace, runId, scheduledEventId: n, attempt };
  throw new ValidationError('taskToken', `must be a token of ${expected === 'workflow' ? 'a workflow' : 'an activity'} task`, token);
}
