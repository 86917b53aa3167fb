export { TestEnvironment, TestEnvironment as TestWorkflowEnvironment, type TestEnvironmentOptions } from './test-environment.ts';
export { Replayer, type ReplayOptions, type ReplayResult, type ReplayableHistory } from './replayer.ts';
export { MockActivityEnvironment, defaultActivityInfo, type MockActivityEnvironmentOptions } from './mock-activity-environment.ts';
