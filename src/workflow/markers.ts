/** Marker name of a side effect's recorded result (details `{ seq, result }`). */
export const SIDE_EFFECT_MARKER = 'SideEffect';
/** Marker name of a patch (details `{ patchId, deprecated }`), Temporal's version marker. */
export const VERSION_MARKER = 'Version';

/**
 * What a run knows about the markers of its history: patches the history says were taken, and
 * side-effect results recorded by the tasks being replayed. Filled by activation jobs made from
 * the MarkerRecorded events of a replayed workflow task, before its code runs.
 */
export class MarkerState {
  /** Patch ids whose marker is in the history of the task being replayed (or an earlier one). */
  readonly knownPatches = new Set<string>();
  /** Patch ids this run already answered, with the answer: a run checks a patch once. */
  readonly answeredPatches = new Map<string, boolean>();
  /** Recorded results of side effects by sequence number, consumed when the code reaches them. */
  readonly sideEffects = new Map<number, unknown>();
  sideEffectSeq = 0;
}
