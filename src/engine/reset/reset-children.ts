import type { ExecutionRecord } from '../../store/types.ts';
import type { ChildClosedData } from '../child/child-close.ts';
import { coreStateOf } from '../core/state.ts';
import type { EngineCore } from '../core/engine-core.ts';
import { type TransitionBuilder } from '../core/transition.ts';

/** What {@link handOverChildren} adds to a reset's transaction. */
export interface ChildHandOver {
  /** Transitions of the children's open runs that now name the new run as their parent. */
  children: TransitionBuilder[];
  /** Keys (initiated event ids) of the reset run's children that moved to the new run. */
  movedKeys: Set<string>;
}

/**
 * Hands the children of the run being reset (`base`) over to the new run (`next`, whose state
 * holds the children its copied history left open). For each such child, the child chain whose
 * parent is `base` at the same initiated event id:
 * - still open: its parent reference is re-pointed to the new run in the reset's transaction,
 *   so its close reaches the new run, and the reset's termination of `base` applies no parent
 *   close policy to it (the caller drops the `movedKeys` from the terminated run's children);
 * - closed already (after the reset point): its close event is delivered to the new run again;
 * - started after the reset point: the new run records ChildWorkflowExecutionStarted for it
 *   rather than starting a second one;
 * - not found and not started in the copied history: the new run starts it, as a fresh run
 *   would (its StartChild timer belonged to `base`).
 * A child the copied history knows as started whose chain is gone (its id reused since) is left
 * as it is; the new run may cancel it.
 */
export async function handOverChildren(core: EngineCore, base: ExecutionRecord, next: TransitionBuilder): Promise<ChildHandOver> {
  const out: ChildHandOver = { children: [], movedKeys: new Set() };
  const children = next.state.children;
  for (const [key, c] of Object.entries(children)) {
    const latest = await core.store.getLatestExecution(c.namespace, c.workflowId);
    const p = latest && coreStateOf(latest).parent;
    const ours = p?.workflowId === base.workflowId && p.runId === base.runId && p.initiatedEventId === c.initiatedEventId;
    if (!latest || !p || !ours) {
      if (c.runId === undefined) next.addDelivery('StartChild', { initiatedEventId: c.initiatedEventId });
      continue;
    }
    if (c.runId === undefined) {
      c.runId = latest.firstExecutionRunId;
      next.append('ChildWorkflowExecutionStarted', {
        namespace: c.namespace, workflowId: c.workflowId, runId: c.runId, workflowType: c.workflowType, initiatedEventId: c.initiatedEventId,
      });
    }
    if (latest.status === 'Running') {
      const cb = core.edit(latest, next.now);
      cb.state.parent = { ...p, runId: next.record.runId };
      cb.touch();
      out.children.push(cb);
      out.movedKeys.add(key);
    } else {
      const [close] = await core.store.readHistory(latest.runId, latest.nextEventId - 1, 1);
      if (!close) continue;
      const data: ChildClosedData = {
        initiatedEventId: c.initiatedEventId, childRunId: latest.runId, eventType: close.eventType,
        attributes: close.attributes as unknown as Record<string, unknown>,
      };
      next.addDelivery('ChildClosed', data);
    }
  }
  return out;
}
