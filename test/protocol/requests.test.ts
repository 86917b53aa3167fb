import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ValidationError } from '../../src/errors/index.ts';
import { parseRequest, schemaOf } from '../../src/protocol/parse.ts';
import { checkRequestText } from '../../src/protocol/request-text.ts';
import { optional, text } from '../../src/protocol/fields.ts';
import { startWorkflowExecutionRequestSchema } from '../../src/protocol/schemas/executions.ts';
import { pollRequestSchema, respondActivityTaskFailedRequestSchema } from '../../src/protocol/schemas/tasks.ts';
import { createScheduleRequestSchema, patchScheduleRequestSchema } from '../../src/protocol/schemas/schedules.ts';
import { MAX_IDENTITY_LENGTH, MAX_LONG_POLL_MS } from '../../src/protocol/limits.ts';

/** The ValidationError a request gets, with its field, rule and message. */
function refusal(schema: z.ZodType, input: unknown): ValidationError {
  try {
    parseRequest(schema, input);
  } catch (err) {
    assert.ok(err instanceof ValidationError, String(err));
    return err;
  }
  assert.fail(`accepted ${JSON.stringify(input)}`);
}

const start = { workflowId: 'w', workflowType: 't', taskQueue: 'q' };

test('a refused field is named by its path, with the rule and the value given', () => {
  const cases: [z.ZodType, unknown, string, string][] = [
    [pollRequestSchema, { taskQueue: 'q', identity: 'w', pollTimeoutMs: 700_000 }, 'pollTimeoutMs', `pollTimeoutMs must be <= ${MAX_LONG_POLL_MS}, got 700000`],
    [pollRequestSchema, { taskQueue: 'q', identity: 'w', maxTasks: 1.5 }, 'maxTasks', 'maxTasks must be an integer, got 1.5'],
    [pollRequestSchema, { taskQueue: '', identity: 'w' }, 'taskQueue', 'taskQueue must be a non-empty string, got ""'],
    [startWorkflowExecutionRequestSchema, { ...start, workflowIdReusePolicy: 'Sometimes' }, 'workflowIdReusePolicy',
      'workflowIdReusePolicy must be one of AllowDuplicate, AllowDuplicateFailedOnly, RejectDuplicate, TerminateIfRunning, got "Sometimes"'],
    [startWorkflowExecutionRequestSchema, { ...start, memo: 'x' }, 'memo', 'memo must be an object, got "x"'],
    [respondActivityTaskFailedRequestSchema, { taskToken: 't', identity: 'w', failure: { kind: 'Oops', message: 'm' } }, 'failure.kind',
      'failure.kind must be one of Application, Timeout, Canceled, Terminated, Activity, ChildWorkflow, Server, got "Oops"'],
    [patchScheduleRequestSchema, { scheduleId: 's', backfill: [{ startTime: 0, endTime: 1 }, { startTime: 0, endTime: 'x' }] }, 'backfill[1].endTime',
      'backfill[1].endTime must be an integer, got "x"'],
    [patchScheduleRequestSchema, { scheduleId: 's', backfill: [{ startTime: 86_400_000, endTime: 0 }] }, 'backfill[0].endTime',
      'backfill[0].endTime must not be before startTime (1970-01-02T00:00:00.000Z), got 0'],
    [patchScheduleRequestSchema, { scheduleId: 's', pause: 'a', unpause: 'b' }, 'unpause', 'unpause cannot be given with pause, got "b"'],
  ];
  for (const [schema, input, field, message] of cases) {
    const err = refusal(schema, input);
    assert.equal(err.field, field);
    assert.equal(err.message, message);
  }
});

test('an over-long name shows its first characters and its length, not the whole value', () => {
  const err = refusal(pollRequestSchema, { taskQueue: 'q', identity: 'x'.repeat(MAX_IDENTITY_LENGTH + 1) });
  assert.equal(err.message, `identity must be at most ${MAX_IDENTITY_LENGTH} characters, got "${'x'.repeat(20)}... (${MAX_IDENTITY_LENGTH + 1} characters)"`);
});

test('an unknown field of a schedule action is named with its value, as a misspelt option would otherwise be lost', () => {
  const action = { workflowType: 't', taskQueue: 'q', workflowId: 'w', workflowTimeout: 5 };
  const err = refusal(createScheduleRequestSchema, { scheduleId: 's', spec: {}, action });
  assert.equal(err.field, 'action.workflowTimeout');
  assert.match(err.message, /^action\.workflowTimeout is not an action field \(use workflowType, .*\), got 5$/);
  assert.equal(refusal(createScheduleRequestSchema, { scheduleId: 's', spec: {} }).message,
    'action is required: { workflowType, taskQueue, workflowId, ... }, got undefined');
});

test('checks that lower layers own run inside the schema and keep their messages', () => {
  const retry = refusal(startWorkflowExecutionRequestSchema, { ...start, retryPolicy: { maximumAttempts: -1 } });
  assert.equal(retry.field, 'retryPolicy.maximumAttempts');
  assert.match(retry.message, /^retryPolicy\.maximumAttempts must be >= 0.*-1/);
  const payload = refusal(startWorkflowExecutionRequestSchema, { ...start, args: [10n] });
  assert.equal(payload.field, 'args[0]');
  const text = refusal(startWorkflowExecutionRequestSchema, { ...start, workflowId: 'a\u0000b' });
  assert.equal(text.message, 'workflowId must not contain NUL (U+0000), got "a\\u0000b"');
});

test('a request that is not an object is refused as a whole', () => {
  for (const input of [null, 'poll', [1], 3]) assert.equal(refusal(pollRequestSchema, input).field, 'request');
});

test('null is taken as left out, and defaults fill what is left out', () => {
  const poll = parseRequest(pollRequestSchema, { taskQueue: 'q', identity: 'w', namespace: null, pollTimeoutMs: null });
  assert.deepEqual(poll, { namespace: 'default', taskQueue: 'q', identity: 'w', pollTimeoutMs: 30_000, maxTasks: 1 });
  const s = parseRequest(startWorkflowExecutionRequestSchema, { ...start, requestId: null });
  assert.equal(s.requestId, undefined);
  assert.deepEqual(s.args, []);
  assert.equal(s.workflowIdReusePolicy, 'AllowDuplicate');
});

test('a schema that leaves out a field of its type, or adds one, does not compile', () => {
  interface Two { a: string; b?: string | undefined }
  // @ts-expect-error: `b` is missing from the schema
  schemaOf<Two>()(z.object({ a: text() }));
  // @ts-expect-error: `c` is not a field of the type
  schemaOf<Two>()(z.object({ a: text(), b: optional(text()), c: text() }));
  // @ts-expect-error: `b` is a number in the schema
  schemaOf<Two>()(z.object({ a: text(), b: optional(z.number()) }));
  assert.ok(schemaOf<Two>()(z.object({ a: text(), b: optional(text()) })));
});

test('a bad text deep in a request is named by its whole path; texts in payload fields are left alone', () => {
  const refused = (request: Record<string, unknown>, message: string) =>
    assert.throws(() => checkRequestText(request), (err: unknown) => err instanceof ValidationError && err.message === message);
  refused({ commands: [{ attributes: {} }, { attributes: { taskQueue: 'q\u0000' } }] },
    'commands[1].attributes.taskQueue must not contain NUL (U+0000), got "q\\u0000"');
  refused({ namespace: 'ns', tags: [['ok', 'b\uD800']] }, 'tags[0][1] must not contain a lone surrogate (U+D800 at index 1), got "b\\ud800"');
  refused({ workflowId: 'w\uDC00' }, 'workflowId must not contain a lone surrogate (U+DC00 at index 1), got "w\\udc00"');
  assert.equal(checkRequestText({ workflowId: 'w', args: ['a\u0000', { k: '\uD800' }], commands: [{ attributes: { result: '\u0000' } }] }), false);
  assert.equal(checkRequestText({ workflowId: 'w', memo: null, commands: [{ attributes: { x: null } }] }), true);
});
