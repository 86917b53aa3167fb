import { requireArray, requireOneOf } from '../../common/validate.ts';
import { COMMAND_TYPES, TERMINAL_COMMAND_TYPES, type Command, type CommandType } from '../../history/commands.ts';
import { ValidationError } from '../../errors/index.ts';
import { requireObject } from './requests.ts';
import { DEFAULT_LIMITS, type EngineLimits } from './limits.ts';
import type { SearchAttributeDefinition } from '../../visibility/types.ts';
import type { TransitionBuilder } from './transition.ts';

/** The registered search attributes of each namespace a completion's commands name (visibility/search-attributes.ts). */
export type AttributeDefinitions = ReadonlyMap<string, readonly SearchAttributeDefinition[]>;

/** Validates one command's attributes against the run's state and applies it to the transition. */
export type CommandHandler = (ctx: CommandContext, attributes: Record<string, unknown>) => void;

/** What a command handler works with. */
export interface CommandContext {
  b: TransitionBuilder;
  /** Id of the WorkflowTaskCompleted event the commands follow. */
  completedEventId: number;
  /** `commands[i].attributes`, for error messages. */
  field: string;
  limits: EngineLimits;
  /** The registered search attributes of the namespaces the commands name (search-attributes.ts); empty for most completions. */
  definitions: AttributeDefinitions;
}

/**
 * The shape checks that need no state: an array of `{ commandType, attributes }`, known types,
 * and at most one run-closing command, last.
 */
export function validateCommandList(value: unknown): Command[] {
  const list = requireArray('commands', value);
  list.forEach((c, i) => {
    const cmd = requireObject(`commands[${i}]`, c);
    const type = requireOneOf(`commands[${i}].commandType`, cmd.commandType, COMMAND_TYPES);
    requireObject(`commands[${i}].attributes`, cmd.attributes);
    if (TERMINAL_COMMAND_TYPES.includes(type) && i !== list.length - 1) {
      throw new ValidationError(`commands[${i}].commandType`, 'closes the run and must be the last command', type);
    }
  });
  return list as Command[];
}

/** True when the list ends with a command that closes the run. */
export function hasTerminalCommand(commands: Command[]): boolean {
  const last = commands[commands.length - 1];
  return last !== undefined && TERMINAL_COMMAND_TYPES.includes(last.commandType);
}

const NO_DEFINITIONS: AttributeDefinitions = new Map();

/** Applies the commands in order. @throws ValidationError for a command the run's state rejects. */
export function applyCommands(
  b: TransitionBuilder, handlers: { readonly [K in CommandType]: CommandHandler }, commands: Command[], completedEventId: number, limits: EngineLimits = DEFAULT_LIMITS,
  definitions: AttributeDefinitions = NO_DEFINITIONS,
): void {
  commands.forEach((c, i) => {
    handlers[c.commandType]({ b, completedEventId, field: `commands[${i}].attributes`, limits, definitions }, c.attributes as unknown as Record<string, unknown>);
  });
}
