import { IllegalStateError } from '../common/errors.ts';
import { activator } from './activator.ts';
import { SIDE_EFFECT_MARKER } from './markers.ts';

/**
 * Runs `fn` once and records its result in history (a 'SideEffect' marker); a replay returns
 * the recorded result without calling `fn`. For short non-deterministic snippets (an id, a
 * config read). `fn` must not fail and must return synchronously: anything that can fail or
 * wait belongs in an activity.
 * @example const id = await sideEffect(() => crypto.randomUUID());
 */
export function sideEffect<T>(fn: () => T): Promise<T> {
  if (typeof fn !== 'function') throw new TypeError(`sideEffect fn must be a function, got ${typeof fn}`);
  const a = activator();
  const seq = ++a.markers.sideEffectSeq;
  let result: unknown;
  if (a.isReplaying && a.markers.sideEffects.has(seq)) {
    result = a.markers.sideEffects.get(seq);
    a.markers.sideEffects.delete(seq);
  } else {
    result = fn();
    if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') {
      throw new IllegalStateError('sideEffect fn must return its value synchronously; use an activity for asynchronous work');
    }
  }
  a.pushCommand({ commandType: 'RecordMarker', attributes: { markerName: SIDE_EFFECT_MARKER, details: result === undefined ? { seq } : { seq, result } } });
  return Promise.resolve(result as T);
}
