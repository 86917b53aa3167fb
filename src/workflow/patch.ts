import { requireString } from '../common/validate.ts';
import { activator } from './activator.ts';
import { VERSION_MARKER } from './markers.ts';

function patchInternal(patchId: string, deprecated: boolean): boolean {
  const a = activator();
  const known = a.markers.answeredPatches.get(patchId);
  if (known !== undefined) return known;
  // Replaying: the patch is in effect only where the history recorded its marker, so a run that
  // started before the patch was deployed keeps the old path. Not replaying: always take it.
  const use = !a.isReplaying || a.markers.knownPatches.has(patchId);
  a.markers.answeredPatches.set(patchId, use);
  if (use) {
    a.pushCommand({ commandType: 'RecordMarker', attributes: { markerName: VERSION_MARKER, details: { patchId, deprecated } } });
  }
  return use;
}

/**
 * Versioning: true when this run takes the code path added under `patchId`. New runs (and the
 * parts of a run that execute after the change is deployed) get true and record a 'Version'
 * marker; a replay of history made before the change, which has no marker, gets false. The
 * answer is fixed for the rest of the run once asked.
 * @example if (patched('send-receipt')) await sendReceipt(id);
 */
export function patched(patchId: string): boolean {
  return patchInternal(requireString('patchId', patchId, 200), false);
}

/**
 * Second step of removing a patch, once no run older than the patch is open: the old branch is
 * deleted, and this call keeps recording the marker so histories made with `patched(patchId)`
 * still replay. A later deployment may drop the call; markers nobody asks about are skipped.
 */
export function deprecatePatch(patchId: string): void {
  patchInternal(requireString('patchId', patchId, 200), true);
}
