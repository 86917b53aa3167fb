import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newUuid } from '../../src/common/ids.ts';

test('newUuid: a version 7 UUID whose first 48 bits are the time in ms; unique; later ids sort later', async () => {
  const before = Date.now();
  const id = newUuid();
  const after = Date.now();
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  assert.ok(ms >= before && ms <= after, `time prefix ${ms} outside ${before}..${after}`);
  const ids = Array.from({ length: 20_000 }, () => newUuid());
  assert.equal(new Set(ids).size, ids.length);
  await new Promise((resolve) => setTimeout(resolve, 3));
  const later = newUuid();
  assert.ok(ids.every((x) => x < later), 'an id made in a later millisecond sorts after every earlier one');
});
