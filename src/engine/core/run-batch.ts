import type { ExecutionRecord } from '../../store/types.ts';
import type { TransitionBuilder } from './transition.ts';

/**
 * Changes of one run that wait for its lane (engine-core.ts) while a transaction of the run is in
 * flight: when the lane frees, they are decided one after another on one builder and written as
 * one transaction. A run that 1,000 signals or activity completions reach at once then writes its
 * row (whose state grows with what is pending) a few times instead of 1,000 times, and each
 * change is still decided on the run as the ones before it leave it.
 * @see EngineCore.mutate
 */
export interface QueuedChange {
  readonly fn: (b: TransitionBuilder) => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Changes one batch takes at most; later ones start the next batch. Bounds the work redone when a
 * change in the batch refuses (the batch is decided again without it) and the size of one commit.
 */
export const MAX_BATCH = 256;

/** What one change of a batch came to in one decision. */
export type ChangeOutcome = { kind: 'done'; value: unknown } | { kind: 'refused'; error: unknown } | { kind: 'later' };

/**
 * Decides the changes in order on one builder of `rec`. A change that throws refuses only itself:
 * the builder it may have half changed is dropped and the batch decided again without it. A change
 * that consumes a timer when an earlier one already did waits for the next batch (a transaction
 * consumes one timer).
 */
export function decideBatch(edit: (rec: ExecutionRecord) => TransitionBuilder, rec: ExecutionRecord, changes: readonly QueuedChange[]): {
  builder: TransitionBuilder; outcomes: ChangeOutcome[];
} {
  const outcomes: (ChangeOutcome | undefined)[] = [];
  for (;;) {
    const builder = edit(rec);
    let again = false;
    for (let i = 0; i < changes.length && !again; i++) {
      if (outcomes[i] && outcomes[i]!.kind !== 'done') continue;
      const consumed = builder.consumeTimerId;
      try {
        const value = changes[i]!.fn(builder);
        if (consumed !== undefined && builder.consumeTimerId !== consumed) {
          outcomes[i] = { kind: 'later' };
          again = true;
        } else {
          outcomes[i] = { kind: 'done', value };
        }
      } catch (error) {
        outcomes[i] = { kind: 'refused', error };
        again = true;
      }
    }
    if (!again) return { builder, outcomes: outcomes as ChangeOutcome[] };
  }
}
