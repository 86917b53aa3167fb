export * from './events.ts';
export * from './commands.ts';
export * from './child-types.ts';
export * from './message-types.ts';
export * from './workflow-task-failure.ts';
export * from './memo.ts';
export * from './id-reuse-policy.ts';
