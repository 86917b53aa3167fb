import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { authServer, KEYS, post } from './auth-helpers.ts';

/**
 * A task token with one character changed is refused naming `taskToken`, saying it is not a
 * token this service signed, with the token given; on a server with authentication a change in
 * the token's middle part (which names the namespace the call is authorized against) was refused
 * with "taskToken must be a task token from a poll, got undefined".
 */

let server: Awaited<ReturnType<typeof authServer>>;
let token: string;
before(async () => {
  server = await authServer();
  const started = await post(server.http.address, 'startWorkflowExecution', { workflowId: 'tok', workflowType: 'wf', taskQueue: 'tok-q' }, KEYS.writer);
  assert.equal(started.status, 200, JSON.stringify(started.json));
  const polled = await post(server.http.address, 'pollWorkflowTaskQueue', { taskQueue: 'tok-q', identity: 'w', pollTimeoutMs: 5_000 }, KEYS.worker);
  token = polled.json.taskToken;
  assert.equal(token.split('.').length, 3);
});
after(async () => {
  await server.close();
});

/** The token with the character at `at` replaced by another base64url character. */
const flipped = (at: number) => `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;

const complete = (taskToken: unknown) => post(server.http.address, 'respondWorkflowTaskCompleted',
  { ...(taskToken === undefined ? {} : { taskToken }), identity: 'w', commands: [] }, KEYS.worker);

const SIGNED = 'taskToken must be a task token this service signed';

test('a token with one character changed, anywhere, is refused naming taskToken and showing the token', async () => {
  const [keyId, body] = token.split('.') as [string, string, string];
  const places = { 'key id': 1, 'the first character of the body': keyId.length + 1, 'the body': keyId.length + 1 + Math.floor(body.length / 2),
    'the signature': token.length - 3 };
  for (const [where, at] of Object.entries(places)) {
    const bad = flipped(at);
    const { status, json } = await complete(bad);
    assert.equal(status, 400, where);
    assert.equal(json.error.field, 'taskToken', where);
    assert.ok(json.error.message.startsWith(SIGNED), `${where}: ${json.error.message}`);
    assert.ok(json.error.message.endsWith(`got ${JSON.stringify(bad)}`), `${where}: ${json.error.message}`);
  }
  const body2 = await complete(flipped(keyId.length + 1 + Math.floor(body.length / 2)));
  assert.equal(body2.json.error.message, `${SIGNED} (this one is malformed or forged), got ${JSON.stringify(flipped(keyId.length + 1 + Math.floor(body.length / 2)))}`);
});

test('a token cut short or made of garbage is refused the same way, a long one shown shortened', async () => {
  const cut = token.slice(0, 40);
  assert.equal((await complete(cut)).json.error.message, `${SIGNED} (this one is malformed or forged), got ${JSON.stringify(cut)}`);
  const long = 'x'.repeat(5000);
  assert.equal((await complete(long)).json.error.message, `${SIGNED} (this one is malformed or forged), got "${'x'.repeat(300)}… (5000 characters)"`);
});

test('a missing token is refused saying it is required', async () => {
  const { status, json } = await complete(undefined);
  assert.equal(status, 400);
  assert.equal(json.error.message, 'taskToken is required: the taskToken of the task a poll handed out, got undefined');
});

test('the real token still completes the task', async () => {
  const { status } = await complete(token);
  assert.equal(status, 200);
});
