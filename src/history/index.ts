export * from './events.ts';
export * from './commands.ts';
export * from './service.ts';
