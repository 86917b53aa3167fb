import type { CommandSpec } from './command-spec.ts';
import { activityCommand } from './activity.ts';
import { apiKeyCreateCommand } from './api-key.ts';
import { codecServerCommand } from './codec-server.ts';
import { devCommand } from './dev.ts';
import { namespaceCommand } from './namespace.ts';
import { retrySimulateCommand } from './retry-simulate.ts';
import { scheduleCommand } from './schedule.ts';
import { searchAttributeCommand } from './search-attribute.ts';
import { serverCommand } from './server.ts';
import { taskQueueCommand } from './task-queue.ts';
import { workflowCommand } from './workflow.ts';

/**
 * Every subcommand of `steadfast`, in the order `steadfast --help` lists them. A command module
 * exports its command; test/cli/commands.test.ts fails when one is missing here.
 */
export const COMMANDS: readonly CommandSpec[] = [
  devCommand,
  serverCommand,
  apiKeyCreateCommand,
  workflowCommand,
  retrySimulateCommand,
  scheduleCommand,
  searchAttributeCommand,
  namespaceCommand,
  taskQueueCommand,
  activityCommand,
  codecServerCommand,
];
