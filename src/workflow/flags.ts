import { IllegalStateError } from '../common/errors.ts';

/**
 * A numbered change of replay behaviour, as Temporal's SDK flags (packages/workflow/src/flags.ts):
 * code that behaves differently after a change asks `flags.has(flag)`. A workflow task running
 * for the first time takes the new behaviour and records the flag's id on its
 * WorkflowTaskCompleted event (`sdkMetadata.langUsedFlags`); a replay takes the new behaviour
 * only where the history recorded the flag, so histories written before the change replay as
 * they ran. Ids are never reused, and a flag is never removed while histories may carry it.
 */
interface ReplayFlag {
  /** Its number in history. */
  readonly id: number;
  /** What changed, for error messages. */
  readonly name: string;
}

const registry = new Map<number, ReplayFlag>();

function defineFlag(id: number, name: string): ReplayFlag {
  if (registry.has(id)) throw new IllegalStateError(`replay flag ${id} is defined twice`);
  const flag = Object.freeze({ id, name });
  registry.set(id, flag);
  return flag;
}

/** Every replay flag this version knows, by name. */
export const ReplayFlags = {
  /**
   * A run's closing command (complete, fail, cancel, continue-as-new) goes last in its task's
   * commands, and the commands the same activation produces after it are kept. Before it, they
   * were dropped: an update whose handler finished in the activation that closed the run never
   * completed (Temporal Core's MoveTerminalCommands).
   * @since history format version 2
   */
  CommandsAfterCloseKept: defineFlag(1, 'CommandsAfterCloseKept'),
} as const satisfies Record<string, ReplayFlag>;

/**
 * Checks ids read from history: a flag this version does not know means the history was
 * written by newer workflow code than this worker runs.
 * @throws IllegalStateError naming the flag and the event.
 */
export function assertKnownFlags(ids: readonly number[], eventId: number): void {
  for (const id of ids) {
    if (!registry.has(id)) {
      throw new IllegalStateError(`history event ${eventId} records replay flag ${id}, which this version of steadfast does not know `
        + `(known: ${[...registry.keys()].join(', ')}); run a worker at least as new as the one that wrote it`);
    }
  }
}

/** The flags of one run: those its history recorded, and those the current task used first. */
export class ReplayFlagState {
  readonly #known = new Set<number>();
  #firstUsed = new Set<number>();

  /** Adds the flags a replayed task recorded; they hold for the rest of the run. */
  addRecorded(ids: readonly number[]): void {
    for (const id of ids) this.#known.add(id);
  }

  /**
   * True when the new behaviour applies: the history recorded the flag, or the task runs for the
   * first time (it then records the flag). False on a replay of a task that did not record it.
   */
  has(flag: ReplayFlag, isReplaying: boolean): boolean {
    if (this.#known.has(flag.id)) return true;
    if (isReplaying) return false;
    this.#known.add(flag.id);
    this.#firstUsed.add(flag.id);
    return true;
  }

  /** Ids first used since the last call, ascending: what the current task records. */
  takeFirstUsed(): number[] {
    const ids = [...this.#firstUsed].sort((a, b) => a - b);
    this.#firstUsed = new Set();
    return ids;
  }
}
