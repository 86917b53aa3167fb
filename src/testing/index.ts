export { TestEnvironment, type TestEnvironmentOptions } from './test-environment.ts';
