import { brandClass, ValidationError } from '../errors/index.ts';

/**
 * A cron spec that does not parse. Besides the field name it carries the spec, the 1-based
 * column where reading stopped and what was expected there, e.g.
 * `cronSchedule "0 25 * * *" is not a valid cron spec: at column 3 expected an hour 0-23, got "25"`.
 */
export class CronSyntaxError extends ValidationError {
  /** The whole spec as given. */
  readonly spec: string;
  /** 1-based column of the first character that could not be read (spec.length + 1 at its end). */
  readonly column: number;
  /** What the parser expected at that column, e.g. `an hour 0-23`. */
  readonly expected: string;
  constructor(field: string, spec: string, column: number, expected: string, got: string) {
    const found = got === '' ? 'the end of the spec' : `"${got}"`;
    super(field, `expected ${expected} at column ${column}`, spec,
      `${field} "${spec}" is not a valid cron spec: at column ${column} expected ${expected}, got ${found}`);
    this.spec = spec;
    this.column = column;
    this.expected = expected;
  }
}
brandClass(CronSyntaxError, 'CronSyntaxError');
