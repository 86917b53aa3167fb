/**
 * A deep copy of `value`, as `structuredClone` makes it, several times faster for the plain data
 * a run's or a schedule's state holds: arrays and plain objects are copied here, property by
 * property (an `undefined` property stays, as it does in `structuredClone`); any other object (a
 * Date, a typed array, a Map) is handed to `structuredClone`. An own property named `__proto__`
 * stays an own property.
 */
export function cloneData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneData(value[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const v = cloneData((value as Record<string, unknown>)[key]);
    // An own `__proto__` (JSON.parse makes one from input) stays a property, not the copy's prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
    else out[key] = v;
  }
  return out as T;
}
