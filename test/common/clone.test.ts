import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cloneData } from '../../src/common/clone.ts';

test('cloneData: a deep copy equal to structuredClone\'s, sharing no object with the original', () => {
  const original = {
    v: 2, n: null, u: undefined, s: 'x', b: false, nested: { list: [1, { deep: [true, 'y'] }], empty: {} },
    when: new Date(1_700_000_000_000), bytes: new Uint8Array([1, 2, 3]), bare: Object.assign(Object.create(null) as object, { k: 1 }),
  };
  const copy = cloneData(original);
  assert.deepStrictEqual(copy, structuredClone(original));
  assert.ok('u' in copy, 'an undefined property stays');
  copy.nested.list.push(9);
  (copy.nested.list[1] as { deep: unknown[] }).deep.pop();
  copy.when.setTime(0);
  copy.bytes[0] = 7;
  assert.deepStrictEqual(original.nested.list, [1, { deep: [true, 'y'] }]);
  assert.equal(original.when.getTime(), 1_700_000_000_000);
  assert.equal(original.bytes[0], 1);
});

test('cloneData: an own __proto__ key from parsed input stays a property and does not become the copy\'s prototype', () => {
  const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
  const copy = cloneData(parsed);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.equal((copy as { polluted?: boolean }).polluted, undefined);
  assert.equal(JSON.stringify(copy), '{"__proto__":{"polluted":true},"a":1}');
});
