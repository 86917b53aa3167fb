import { applySignalExternalCommand, deliverExternalSignal, rebuildSignals } from './signals.ts';
import type { Feature } from '../core/feature.ts';

/**
 * Signals: SignalExternalWorkflowExecution and its SignalExternal delivery. Its state slice is
 * `messages` (signal count, request ids for deduplication, pending external signals); the
 * service calls (signal, signal-with-start) are in signals.ts.
 */
export const signalFeature = {
  commands: { SignalExternalWorkflowExecution: applySignalExternalCommand },
  timers: {},
  deliveries: { SignalExternal: deliverExternalSignal },
  rebuild: rebuildSignals,
} satisfies Feature;
