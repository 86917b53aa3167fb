import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { HistoryEvent } from '../../src/history/events.ts';
import { EVENT_ROLES, JOB_FEATURES, ReplayIds, WORKER_FEATURES, type EventRole } from '../../src/worker/features/index.ts';

const owners = (part: 'commands' | 'events') => {
  const owner = new Map<string, string[]>();
  for (const f of WORKER_FEATURES) for (const key of Object.keys(f[part])) owner.set(key, [...owner.get(key) ?? [], f.name]);
  return owner;
};

test('every command and every event type has exactly one feature', () => {
  for (const part of ['commands', 'events'] as const) {
    const shared = [...owners(part)].filter(([, names]) => names.length > 1);
    assert.deepEqual(shared, [], `${part} claimed by two features (the registry's spread would hide one)`);
  }
});

test('the events a command matches are events that record commands', () => {
  for (const f of WORKER_FEATURES) {
    for (const [command, matcher] of Object.entries(f.commands)) {
      for (const e of matcher.events) assert.equal(EVENT_ROLES[e].role, 'records', `${command} matches ${e}`);
    }
  }
});

test('in the replay corpus, each event makes jobs of its own feature only', () => {
  const eventOwner = owners('events');
  const dir = new URL('../histories/', import.meta.url);
  let jobs = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const { events } = JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as { events: HistoryEvent[] };
    const ids = new ReplayIds();
    for (const event of events) {
      const role = EVENT_ROLES[event.eventType] as EventRole<typeof event.eventType>;
      if (role.role === 'records') role.remember?.(event, ids);
      if (role.role !== 'wakes') continue;
      const job = role.job(event, ids);
      if (!job) continue;
      jobs++;
      assert.equal(JOB_FEATURES[job.type], eventOwner.get(event.eventType)![0], `${name}: ${event.eventType} made ${job.type}`);
    }
  }
  assert.ok(jobs > 50, `the corpus made ${jobs} jobs`);
});
