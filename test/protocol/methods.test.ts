/**
 * The sets of methods that decide who may call what, what the client retries, what is limited and
 * what is audited are all taken from the one METHODS table. These are the sets as they were when
 * each lived in its own folder, written once: a row changed by mistake shows here by name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LONG_POLL_METHODS, METHODS, WORKFLOW_SERVICE_METHODS } from '../../src/protocol/index.ts';
import { RETRIED_METHODS } from '../../src/client/call-retry.ts';
import { TOKEN_METHODS } from '../../src/server/auth.ts';
import { AUDITED_METHODS, CROSS_NAMESPACE_ROLES, METHOD_ROLES } from '../../src/server/method-roles.ts';
import { RATE_BUCKET_METHODS } from '../../src/server/namespace-limits.ts';

const sorted = (s: Iterable<string>) => [...s].sort();

test('every method of the contract has exactly one row of facts', () => {
  assert.deepEqual(sorted(Object.keys(METHODS)), sorted(WORKFLOW_SERVICE_METHODS));
});

test('the task-token calls are judged in their token\'s namespace, not in "default"', () => {
  assert.deepEqual(sorted(TOKEN_METHODS), sorted([
    'respondWorkflowTaskCompleted', 'respondWorkflowTaskFailed', 'recordActivityTaskHeartbeat', 'respondActivityTaskCompleted',
    'respondActivityTaskFailed', 'respondActivityTaskCanceled', 'respondQueryTaskCompleted',
  ]));
});

test('the client retries only the calls that are safe to repeat', () => {
  assert.deepEqual(sorted(RETRIED_METHODS), sorted([
    'startWorkflowExecution', 'describeWorkflowExecution', 'getWorkflowExecutionHistory', 'listWorkflowExecutions',
    'requestCancelWorkflowExecution', 'terminateWorkflowExecution', 'signalWorkflowExecution', 'signalWithStartWorkflowExecution',
    'queryWorkflow', 'updateWorkflowExecution', 'updateWithStartWorkflowExecution', 'pollWorkflowExecutionUpdate', 'countWorkflowExecutions', 'listSearchAttributes',
    'describeSchedule', 'listSchedules', 'describeTaskQueue', 'listTaskQueues',
  ]));
});

test('the audited calls take the credential\'s identity', () => {
  assert.deepEqual(sorted(AUDITED_METHODS), sorted([
    'startWorkflowExecution', 'signalWorkflowExecution', 'signalWithStartWorkflowExecution', 'updateWorkflowExecution',
    'updateWithStartWorkflowExecution', 'requestCancelWorkflowExecution', 'terminateWorkflowExecution', 'resetWorkflowExecution', 'queryWorkflow',
  ]));
});

test('the long polls, in the order the contract lists them', () => {
  assert.deepEqual(LONG_POLL_METHODS, [
    'getWorkflowExecutionHistory', 'pollWorkflowTaskQueue', 'pollActivityTaskQueue', 'pollQueryTaskQueue', 'pollWorkflowExecutionUpdate',
  ]);
});

test('starts and signals draw from their per-namespace rates; signal-with-start from both; update-with-start from starts', () => {
  assert.deepEqual(sorted(RATE_BUCKET_METHODS.starts), ['signalWithStartWorkflowExecution', 'startWorkflowExecution', 'updateWithStartWorkflowExecution']);
  assert.deepEqual(sorted(RATE_BUCKET_METHODS.signals), ['signalWithStartWorkflowExecution', 'signalWorkflowExecution']);
});

test('the role each call needs', () => {
  assert.deepEqual(CROSS_NAMESPACE_ROLES, {
    registerNamespace: { scope: 'system', role: 'admin' },
    updateNamespace: { scope: 'system', role: 'admin' },
    deleteNamespace: { scope: 'system', role: 'admin' },
    listNamespaces: { scope: 'each', role: 'reader' },
  });
  assert.deepEqual(METHOD_ROLES, {
    describeWorkflowExecution: 'reader',
    getWorkflowExecutionHistory: 'reader',
    listWorkflowExecutions: 'reader',
    queryWorkflow: 'reader',
    pollWorkflowExecutionUpdate: 'reader',
    pollWorkflowTaskQueue: 'worker',
    respondWorkflowTaskCompleted: 'worker',
    respondWorkflowTaskFailed: 'worker',
    pollActivityTaskQueue: 'worker',
    shutdownWorker: 'worker',
    recordActivityTaskHeartbeat: 'worker',
    respondActivityTaskCompleted: 'worker',
    respondActivityTaskFailed: 'worker',
    respondActivityTaskCanceled: 'worker',
    recordActivityTaskHeartbeatById: 'worker',
    respondActivityTaskCompletedById: 'worker',
    respondActivityTaskFailedById: 'worker',
    respondActivityTaskCanceledById: 'worker',
    pollQueryTaskQueue: 'worker',
    respondQueryTaskCompleted: 'worker',
    startWorkflowExecution: 'writer',
    signalWorkflowExecution: 'writer',
    signalWithStartWorkflowExecution: 'writer',
    updateWorkflowExecution: 'writer',
    updateWithStartWorkflowExecution: 'writer',
    requestCancelWorkflowExecution: 'writer',
    terminateWorkflowExecution: 'writer',
    resetWorkflowExecution: 'admin',
    describeSchedule: 'reader',
    listSchedules: 'reader',
    createSchedule: 'writer',
    updateSchedule: 'writer',
    patchSchedule: 'writer',
    deleteSchedule: 'writer',
    countWorkflowExecutions: 'reader',
    listSearchAttributes: 'reader',
    createSearchAttribute: 'admin',
    deleteWorkflowExecution: 'admin',
    removeSearchAttributes: 'admin',
    describeTaskQueue: 'reader',
    listTaskQueues: 'reader',
    describeNamespace: 'reader',
  });
});
