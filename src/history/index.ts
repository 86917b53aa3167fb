export * from './events.ts';
export * from './commands.ts';
export * from './service.ts';
export * from './child-types.ts';
export * from './message-types.ts';
