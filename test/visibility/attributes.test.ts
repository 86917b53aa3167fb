import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  InvalidSearchAttributeError, storedTextForm, validateAttributeDefinitions, validateSearchAttributes, validateUpsertAttributes,
} from '../../src/visibility/index.ts';
import { ValidationError } from '../../src/common/index.ts';
import { DEFS } from './definitions.ts';


test('attributes: valid values of every type come back normalized; null means remove', () => {
  assert.deepEqual(validateSearchAttributes(DEFS, {
    CustomerId: 'c1', Notes: 'Rush order', Priority: -3, Amount: 9.5, Vip: false,
    DueAt: '2026-11-01T01:00:00.123456+01:00', Tags: ['red', 'blue'],
  }), {
    CustomerId: 'c1', Notes: 'Rush order', Priority: -3, Amount: 9.5, Vip: false, DueAt: '2026-11-01T00:00:00.123Z', Tags: ['red', 'blue'],
  });
  assert.deepEqual(validateSearchAttributes(DEFS, { DueAt: new Date(Date.UTC(2026, 0, 2)), Tags: null }),
    { DueAt: '2026-01-02T00:00:00.000Z', Tags: null });
});

test('attributes: wrong, unregistered and built-in values are refused with named errors', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ CustomerId: 5 }, 'searchAttributes.CustomerId is a Keyword attribute and must be a string, got 5'],
    [{ Priority: 1.5 }, 'searchAttributes.Priority is an Int attribute and must be an integer between -(2^53 - 1) and 2^53 - 1, got 1.5'],
    [{ Amount: Infinity }, 'searchAttributes.Amount is a Double attribute and must be a finite number, got Infinity'],
    [{ Vip: 'yes' }, 'searchAttributes.Vip is a Bool attribute and must be true or false, got "yes"'],
    [{ DueAt: '2026-11-01' }, 'searchAttributes.DueAt is a Datetime attribute and must be a Date or an RFC 3339 date-time string, got "2026-11-01"'],
    [{ Tags: 'red' }, 'searchAttributes.Tags is a KeywordList attribute and must be an array of strings, got "red"'],
    [{ Tags: ['red', 7] }, 'searchAttributes.Tags is a KeywordList attribute and element 1 must be a string (got 7), got array of 2'],
    [{ CustomerId: 'x'.repeat(2049) }, `searchAttributes.CustomerId is a Keyword attribute and must be at most 2048 characters, got "${'x'.repeat(40)}"... (2049 characters)`],
    [{ Region: 'eu' }, 'searchAttributes.Region is not a registered search attribute of this namespace, got "eu"'],
    [{ WorkflowId: 'w' }, 'searchAttributes.WorkflowId is a built-in attribute and cannot be set, got "w"'],
  ];
  for (const [values, message] of cases) {
    assert.throws(() => validateSearchAttributes(DEFS, values), (err: unknown) => {
      assert.ok(err instanceof InvalidSearchAttributeError, String(err));
      assert.equal(err.message, message);
      assert.equal(err.attribute, Object.keys(values)[0]);
      return true;
    });
  }
  assert.throws(() => validateSearchAttributes(DEFS, ['x']), /searchAttributes must be an object of attribute name to value/);
});

test('attributes: an upsert takes Temporal\'s arrays: one value for a single-valued type, a list for KeywordList, [] to remove', () => {
  assert.deepEqual(validateUpsertAttributes(DEFS, { CustomerId: ['c1'], Priority: [2], Tags: ['red'], Vip: true, Notes: [], Amount: null }, 'upsertSearchAttributes'),
    { CustomerId: 'c1', Priority: 2, Tags: ['red'], Vip: true, Notes: null, Amount: null });
  assert.throws(() => validateUpsertAttributes(DEFS, { Priority: [1, 2] }, 'upsertSearchAttributes'),
    (e: unknown) => e instanceof InvalidSearchAttributeError && e.field === 'upsertSearchAttributes.Priority'
      && e.message === 'upsertSearchAttributes.Priority is an Int attribute and takes a single value, got array of 2');
  assert.throws(() => validateUpsertAttributes(DEFS, { Nope: [] }), /searchAttributes\.Nope is not a registered search attribute of this namespace, got array of 0/);
  assert.throws(() => validateUpsertAttributes(DEFS, { RunId: null }), /searchAttributes\.RunId is a built-in attribute and cannot be set, got null/);
  assert.throws(() => validateUpsertAttributes(DEFS, { CustomerId: [5] }), /CustomerId is a Keyword attribute and must be a string, got 5/);
});

test('attributes: definitions are checked: names, reserved names, duplicates and types', () => {
  assert.deepEqual(validateAttributeDefinitions([{ name: 'CustomerId', type: 'Keyword' }]), [{ name: 'CustomerId', type: 'Keyword' }]);
  const cases: [unknown, string][] = [
    [[{ name: '9lives', type: 'Keyword' }], 'searchAttributes[0].name must be letters, digits and underscores, not starting with a digit, at most 64 characters, got "9lives"'],
    [[{ name: 'StartTime', type: 'Datetime' }], 'searchAttributes[0].name must not be the name of a built-in attribute, got "StartTime"'],
    [[{ name: 'TemporalFoo', type: 'Keyword' }], 'searchAttributes[0].name must not start with "Temporal" (reserved), got "TemporalFoo"'],
    [[{ name: 'A', type: 'Int' }, { name: 'A', type: 'Int' }], 'searchAttributes[1].name must be unique, got "A"'],
    [[{ name: 'A', type: 'String' }], 'searchAttributes[0].type must be one of Keyword, Text, Int, Double, Bool, Datetime, KeywordList, got "String"'],
  ];
  for (const [defs, message] of cases) {
    assert.throws(() => validateAttributeDefinitions(defs), (err: unknown) => err instanceof ValidationError && err.message === message, message);
  }
});

test('attributes: Text is stored as its lower-cased words between spaces', () => {
  assert.equal(storedTextForm('Rush order: ÉCLAIR, x2!'), ' rush order éclair x2 ');
  assert.equal(storedTextForm('...'), ' ');
});
