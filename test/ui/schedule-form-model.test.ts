import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScheduleDescription } from '../../src/protocol/index.ts';
import { createRequest, emptyForm, formFromDescription, previewTimes, specFromForm, updateRequest } from '../../src/ui/schedule-form-model.ts';

const base = { ...emptyForm(), scheduleId: ' nightly ', workflowType: 'greets', taskQueue: 'ui', workflowId: 'nightly' };

test('each way of writing the spec becomes the ScheduleSpec the server takes', () => {
  assert.deepEqual(specFromForm({ ...base, specKind: 'cron', cron: '0 3 * * *\n\n 30 4 * * 1 ', timezone: 'Europe/Paris', jitter: '' }),
    { cronExpressions: ['0 3 * * *', '30 4 * * 1'], timezone: 'Europe/Paris' });
  assert.deepEqual(specFromForm({ ...base, specKind: 'interval', every: '6h', offset: '5h', timezone: '', jitter: '30s' }),
    { intervals: [{ every: '6h', offset: '5h' }], jitter: '30s' });
  assert.deepEqual(specFromForm({ ...base, specKind: 'json', specJson: '{"calendars":[{"hour":12}]}' }), { calendars: [{ hour: 12 }] });
  assert.throws(() => specFromForm({ ...base, specKind: 'cron', cron: ' \n' }), /cron must have at least one expression, got none/);
  assert.throws(() => specFromForm({ ...base, specKind: 'json', specJson: '[1]' }), /spec must be a JSON object/);
  assert.throws(() => specFromForm({ ...base, specKind: 'json', specJson: '{' }), /spec is not valid JSON/);
});

test('create and update requests: trimmed ids, arguments as an array, durations in ms, paused with a note', () => {
  const req = createRequest({ ...base, args: '"solo"', catchupWindow: '10m', overlap: 'BufferOne', paused: true, note: 'not yet' }, 'ns1');
  assert.deepEqual(req, {
    namespace: 'ns1', scheduleId: 'nightly', spec: { cronExpressions: ['0 * * * *'], timezone: 'UTC' },
    action: { workflowType: 'greets', taskQueue: 'ui', workflowId: 'nightly', args: ['solo'] },
    policies: { overlap: 'BufferOne', catchupWindowMs: 600_000, pauseOnFailure: false },
    state: { paused: true, note: 'not yet' },
  });
  assert.equal(updateRequest(base, 'ns1', 7).conflictToken, 7);
  assert.throws(() => createRequest({ ...base, catchupWindow: 'soon' }, 'ns1'), /catchupWindow is not a valid duration: "soon"/);
});

test('an existing schedule fills the form with its canonical spec and round-trips', () => {
  const d = {
    scheduleId: 'nightly',
    spec: { calendars: [{ hour: '3', minute: '0' }], intervals: [], skip: [], jitter: '0s', timezone: 'UTC' },
    action: { workflowType: 'greets', taskQueue: 'ui', workflowId: 'nightly', args: ['a', 1], memo: { team: 'ops' }, workflowRunTimeoutMs: 60_000 },
    policies: { overlap: 'AllowAll', catchupWindowMs: 5_400_000, pauseOnFailure: true },
  } as unknown as ScheduleDescription;
  const f = formFromDescription(d);
  assert.equal(f.specKind, 'json');
  assert.deepEqual(JSON.parse(f.specJson), { calendars: [{ hour: '3', minute: '0' }], jitter: '0s', timezone: 'UTC' });
  assert.equal(f.catchupWindow, '90m');
  const u = updateRequest(f, 'default', 3);
  assert.deepEqual(u.action, { workflowType: 'greets', taskQueue: 'ui', workflowId: 'nightly', args: ['a', 1], memo: { team: 'ops' }, workflowRunTimeoutMs: 60_000 },
    'an edit keeps the action fields the form has no input of');
  assert.throws(() => updateRequest({ ...f, actionExtra: '[1]' }, 'default', 3), /action options must be a JSON object/);
  assert.deepEqual(u.policies, { overlap: 'AllowAll', catchupWindowMs: 5_400_000, pauseOnFailure: true });
});

test('the preview computes the next times the server will, or says what is wrong with the spec', () => {
  const now = Date.parse('2026-11-24T04:00:00Z');
  const p = previewTimes({ ...base, specKind: 'cron', cron: '0 3 * * *', timezone: 'Europe/Paris' }, now, 3);
  assert.deepEqual(p, { times: ['2026-11-25T02:00:00.000Z', '2026-11-26T02:00:00.000Z', '2026-11-27T02:00:00.000Z'] });
  const every = previewTimes({ ...base, specKind: 'interval', every: '6h', offset: '5h', timezone: '' }, now, 2);
  assert.deepEqual(every, { times: ['2026-11-24T05:00:00.000Z', '2026-11-24T11:00:00.000Z'] });
  const bad = previewTimes({ ...base, specKind: 'cron', cron: '0 25 * * *' }, now);
  assert.ok('error' in bad && /at column 3 expected an hour 0-23, got "25"/.test(bad.error), JSON.stringify(bad));
  const json = previewTimes({ ...base, specKind: 'json', specJson: '{' }, now);
  assert.ok('error' in json && json.error.startsWith('spec is not valid JSON: '), JSON.stringify(json));
});
