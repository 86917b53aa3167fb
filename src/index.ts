/** steadfast: durable execution for TypeScript. The root export holds the shared vocabulary. */
export * from './common/index.ts';
export * from './history/index.ts';
