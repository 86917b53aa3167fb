/**
 * The root of steadfast's error classes. It lives in the bottom layer so that every layer,
 * the retry library included, raises errors of one family.
 *
 * `instanceof` must hold across the workflow sandbox (a separate `node:vm` realm) and across
 * duplicate copies of the package, so each class brands its instances with a registered symbol
 * and answers `instanceof` by the brand rather than by the prototype chain.
 */
const BRANDS = Symbol.for('steadfast.errorBrands');

type Branded = { [BRANDS]?: ReadonlySet<string> };

function brandOf(value: unknown): ReadonlySet<string> | undefined {
  return typeof value === 'object' && value !== null ? (value as Branded)[BRANDS] : undefined;
}

/**
 * True when `value` is an instance of the branded class called `name`, in any realm or copy of
 * the package: lets a lower layer recognize a higher layer's class without importing it.
 */
export function hasBrand(value: unknown, name: string): boolean {
  return brandOf(value)?.has(name) ?? false;
}

/**
 * Makes `instanceof cls` answer by brand, so an error made by another copy of the class
 * (another realm, another install of the package) still matches.
 */
export function brandClass(cls: abstract new (...args: any[]) => object, name: string): void {
  Object.defineProperty(cls, Symbol.hasInstance, {
    value: (instance: unknown) => brandOf(instance)?.has(name) ?? false,
  });
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true, configurable: true });
  Object.defineProperty(cls.prototype, BRANDS, {
    get(this: object) {
      const own = Object.getPrototypeOf(cls.prototype)?.[BRANDS] as ReadonlySet<string> | undefined;
      return new Set([...(own ?? []), name]);
    },
    configurable: true,
  });
}

/** Base class of every error steadfast raises. */
export class SteadfastError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
brandClass(SteadfastError, 'SteadfastError');

/**
 * Bad input to a public entry point. The message names the field, the rule and the value,
 * e.g. `retry.backoffCoefficient must be >= 1, got 0.5`.
 */
export class ValidationError extends SteadfastError {
  /** Dotted path of the offending field, e.g. `retry.maximumAttempts`. */
  readonly field: string;
  /** The rule the value broke, e.g. `must be >= 0`. */
  readonly rule: string;
  /** The value that was given. */
  readonly value: unknown;
  constructor(field: string, rule: string, value: unknown, message?: string) {
    super(message ?? `${field} ${rule}, got ${describeValue(value)}`);
    this.field = field;
    this.rule = rule;
    this.value = value;
  }
}
brandClass(ValidationError, 'ValidationError');

/** A short, readable rendering of a value for error messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  try {
    const s = JSON.stringify(value);
    return s.length > 80 ? `${s.slice(0, 77)}...` : s;
  } catch {
    return Object.prototype.toString.call(value);
  }
}
