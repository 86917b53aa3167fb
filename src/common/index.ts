export { SteadfastError, ValidationError, describeValue } from '../retry/errors.ts';
export { toMs, optionalMs, formatMs, type Duration } from '../retry/duration.ts';
export { systemClock, ManualClock, type Clock } from '../retry/clock.ts';
export type { RetryPolicyData } from '../retry/policy-data.ts';
export * from './failure.ts';
export * from './errors.ts';
export * from './payload.ts';
export * from './ids.ts';
export * from './validate.ts';
