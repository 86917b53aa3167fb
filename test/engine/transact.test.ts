import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError } from '../../src/common/errors.ts';
import { EngineCore, MAX_TRANSACT_ATTEMPTS } from '../../src/engine/core/engine-core.ts';
import { DEFAULT_LIMITS } from '../../src/engine/core/limits.ts';
import { newStoredTokenKey, parseStoredTokenKey, TaskTokens } from '../../src/engine/core/task-token.ts';
import { FEATURES } from './helpers.ts';
import { ManualClock } from '../../src/retry/clock.ts';
import { StoreConflictError, type ConflictReason } from '../../src/store/errors.ts';
import type { Store } from '../../src/store/types.ts';

const quiet = { warn() {}, error() {} };

/** A core over a store whose commits fail with the given conflicts, in order, then succeed. */
function coreLosing(conflicts: ConflictReason[]): { core: EngineCore; commits: () => number } {
  let commits = 0;
  const store = {
    async commit() {
      const reason = conflicts[commits++];
      if (reason !== undefined) throw new StoreConflictError(reason, `lost (${reason})`);
    },
  } as unknown as Store;
  return { core: new EngineCore({ store, clock: new ManualClock(0), identity: 'test', logger: quiet, features: FEATURES, limits: DEFAULT_LIMITS, tokens: new TaskTokens([parseStoredTokenKey(newStoredTokenKey())]) }), commits: () => commits };
}

const writeNothing = { build: () => ({ executions: [] }) };

test('transact re-reads and rebuilds after version, alreadyOpen and scheduleVersion conflicts, and answers with the last attempt', async () => {
  const { core, commits } = coreLosing(['version', 'alreadyOpen', 'scheduleVersion']);
  let attempts = 0;
  const result = await core.transact('changing run r', () => ({ result: ++attempts, commit: writeNothing }));
  assert.deepEqual([result, attempts, commits()], [4, 4, 4]);
  assert.equal(core.busy, 0);
});

test('transact gives up after MAX_TRANSACT_ATTEMPTS lost races with Unavailable naming what it did and the conflict', async () => {
  const { core, commits } = coreLosing(Array<ConflictReason>(MAX_TRANSACT_ATTEMPTS + 5).fill('version'));
  await assert.rejects(core.transact('changing run r', () => ({ result: 1, commit: writeNothing })), (err: unknown) =>
    err instanceof ServiceError && err.code === 'Unavailable'
    && err.message === `changing run r kept losing races with concurrent changes (version, ${MAX_TRANSACT_ATTEMPTS} attempts); retry the call`);
  assert.equal(commits(), MAX_TRANSACT_ATTEMPTS);
});

test('a conflict that is an answer, not a race (timerGone), reaches the caller after one attempt', async () => {
  const { core, commits } = coreLosing(['timerGone']);
  await assert.rejects(core.transact('firing timer t', () => ({ result: 1, commit: writeNothing })),
    (err: unknown) => err instanceof StoreConflictError && err.reason === 'timerGone');
  assert.equal(commits(), 1);
});

test('an attempt with nothing to commit answers without writing', async () => {
  const { core, commits } = coreLosing([]);
  assert.equal(await core.transact('reading', () => ({ result: 'seen' })), 'seen');
  assert.equal(commits(), 0);
});
