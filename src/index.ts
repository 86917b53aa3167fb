/** steadfast: durable execution for TypeScript. The root export holds the shared vocabulary. */
export * from './common/index.ts';
export * from './history/index.ts';
// The wire contract's types, and its values that need no zod (the schemas stay internal).
export type * from './protocol/index.ts';
export * from './protocol/enums.ts';
export * from './protocol/limits.ts';
export * from './protocol/service.ts';
export * from './protocol/methods.ts';
export * from './protocol/error-codes.ts';
export * from './protocol/wire-error.ts';
export * from './protocol/namespaces.ts';
