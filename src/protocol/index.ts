/**
 * The wire contract: every service call's request and answer (types with their docs), the zod
 * schema that validates each request, the limits, the closed sets of names and the error codes.
 * The root export `steadfast` re-exports the types and the zod-free values. The schemas' building
 * blocks (fields.ts) and parseRequest (parse.ts) are imported by file where the engine needs them.
 */
export * from './enums.ts';
export * from './limits.ts';
export * from './service.ts';
export * from './methods.ts';
export * from './executions.ts';
export * from './describe.ts';
export * from './tasks.ts';
export * from './messages.ts';
export * from './schedules.ts';
export * from './visibility.ts';
export * from './namespaces.ts';
export * from './task-queues.ts';
export * from './error-codes.ts';
export * from './wire-error.ts';
