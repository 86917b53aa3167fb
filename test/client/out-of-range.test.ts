import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '../../src/client/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { Backoff } from '../../src/retry/index.ts';
import { MAX_DURATION_MS } from '../../src/common/max-duration.ts';
import { TestEnvironment } from '../../src/testing/index.ts';

/**
 * Regression: the client sent out-of-range values the server then kept (or did nothing with),
 * and refused `catchupWindow: '-1s'` with a rule that is not the rule (">= 0" for ">= 1s").
 * The client refuses what it can check itself before sending, naming the option and the rule
 * the server states for the same value.
 */

const MAX = `must be at most 100 years (${MAX_DURATION_MS} ms)`;
const TIME = 'must be between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z';
const ATTEMPTS = "must be at most 2147483647 (Temporal's 32-bit limit; 0 = unlimited)";

function refused(field: string, rule: string): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof ValidationError, String(err));
    assert.equal(err.field, field);
    assert.equal(err.rule, rule);
    return true;
  };
}

const action = { type: 'startWorkflow' as const, workflowType: 'wf', taskQueue: 'q', workflowId: 'w' };
const spec = { intervals: [{ every: '1h' as const }] };

describe('out-of-range values are refused by the client before they are sent', () => {
  /** Nothing listens on port 1: each call must fail before it is sent. */
  const client = new Client({ address: 'http://127.0.0.1:1' });
  after(() => client.close());

  test('retry.maximumAttempts 1e20', async () => {
    await assert.rejects(client.workflow.start('wf', { taskQueue: 'q', workflowId: 'a', retry: { maximumAttempts: 1e20 } }),
      refused('retry.maximumAttempts', ATTEMPTS));
    assert.throws(() => Backoff.constant(100, 1e20), refused('retryCount', "must be at most 2147483646 (the attempts, retries + 1, must fit Temporal's 32-bit limit)"));
  });

  test('policies.catchupWindow: over 100 years, and under 1s with the real rule', async () => {
    await assert.rejects(client.schedule.create({ scheduleId: 's', spec, action, policies: { catchupWindow: 1e20 } }),
      refused('policies.catchupWindow', MAX));
    for (const small of ['-1s', -5, '500ms', 0]) {
      await assert.rejects(client.schedule.create({ scheduleId: 's', spec, action, policies: { catchupWindow: small as never } }),
        refused('policies.catchupWindow', 'must be >= 1s (1000 ms)'), String(small));
    }
  });

  test('a backfill outside 1970..9999', async () => {
    const h = client.schedule.getHandle('s');
    await assert.rejects(h.backfill({ start: 1e300, end: 1e300 }), refused('backfill[0].start', TIME));
    await assert.rejects(h.backfill({ start: 0, end: '+010000-01-01T00:00:00Z' }), refused('backfill[0].end', TIME));
    await assert.rejects(h.backfill([{ start: 0, end: 1 }, { start: -1, end: 1 }]), refused('backfill[1].start', TIME));
  });
});

describe('what the server checks reaches a client as the same ValidationError', () => {
  let env: TestEnvironment;
  before(async () => {
    env = await TestEnvironment.createLocal();
  });
  after(() => env.teardown());

  test('spec.jitter 1e300, spec.startAt 1e300', async () => {
    const client = new Client({ address: env.address });
    try {
      await assert.rejects(client.schedule.create({ scheduleId: 'j', spec: { ...spec, jitter: 1e300 }, action }), refused('spec.jitter', MAX));
      await assert.rejects(client.schedule.create({ scheduleId: 'j', spec: { ...spec, startAt: 1e300 }, action }), refused('spec.startAt', TIME));
      await assert.rejects(env.client.schedule.create({ scheduleId: 'j', spec: { ...spec, jitter: 1e300 }, action }), refused('spec.jitter', MAX));
    } finally {
      client.close();
    }
  });
});
