import { checkPayload } from '../common/payload.ts';
import type { CommandType } from '../history/commands.ts';
import type { SandboxCommand } from './activation.ts';

/**
 * The user values each command carries, as [attribute path, name in errors]: checked before the
 * command leaves the sandbox, so a BigInt or a circular object is refused where the workflow made
 * it, naming it (`activity args[1] is a BigInt, …`), instead of failing later inside JSON.
 */
const PAYLOADS: Partial<Record<CommandType, readonly (readonly [string[], string])[]>> = {
  ScheduleActivityTask: [[['args'], 'activity args']],
  StartChildWorkflowExecution: [[['args'], 'child workflow args'], [['memo'], 'child workflow memo']],
  SignalExternalWorkflowExecution: [[['args'], 'signal args']],
  ContinueAsNewWorkflowExecution: [[['args'], 'continueAsNew args'], [['memo'], 'continueAsNew memo']],
  CompleteWorkflowExecution: [[['result'], 'workflow result']],
  FailWorkflowExecution: [[['failure'], 'workflow failure']],
  CompleteWorkflowExecutionUpdate: [[['outcome', 'result'], 'update result'], [['outcome', 'failure'], 'update failure']],
  RecordMarker: [[['details', 'result'], 'sideEffect result']],
};

/**
 * Checks the user values of a command with {@link checkPayload}.
 * @throws ValidationError naming the value, e.g. `workflow result.total is a BigInt, which JSON cannot carry`.
 */
export function checkCommandPayloads(command: SandboxCommand): void {
  for (const [path, name] of PAYLOADS[command.commandType] ?? []) {
    let value: unknown = command.attributes;
    for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
    checkPayload(name, value);
  }
}

/** The reply to a query, checked like a command's values: `query result is a BigInt, …`. */
export function checkQueryResult(result: unknown): void {
  checkPayload('query result', result);
}
