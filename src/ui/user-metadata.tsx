import { useEffect, useState } from 'preact/hooks';
import type { UserMetadata } from '../history/user-metadata.ts';
import { api } from './api.ts';

/**
 * A run's static summary and details (its start's user metadata) as the workflow page shows
 * them: the summary as a line under the title, the details as text with its lines kept.
 */
export function StaticMetadata({ metadata }: { metadata: UserMetadata | undefined }) {
  if (!metadata) return null;
  return (
    <>
      {metadata.summary !== undefined && <p class="static-summary" data-testid="static-summary">{metadata.summary}</p>}
      {metadata.details !== undefined && <><h3>Details</h3><pre class="static-details" data-testid="static-details">{metadata.details}</pre></>}
    </>
  );
}

interface Target { namespace: string; workflowId: string; runId: string }

/**
 * What an open run says it is doing now (`setCurrentDetails`), from the built-in
 * `__temporal_workflow_metadata` query, asked again each time its history grows; nothing while
 * it has none or no worker answers.
 */
export function CurrentDetails({ target, running, historyLength }: { target: Target; running: boolean; historyLength: number }) {
  const [details, setDetails] = useState('');
  useEffect(() => {
    if (!running) {
      setDetails('');
      return;
    }
    let live = true;
    api.query(target.namespace, target.workflowId, target.runId, '__temporal_workflow_metadata', []).then((r) => {
      const current = (r.result as { currentDetails?: unknown } | undefined)?.currentDetails;
      if (live) setDetails(typeof current === 'string' ? current : '');
    }, () => undefined);
    return () => void (live = false);
  }, [target.namespace, target.workflowId, target.runId, running, historyLength]);
  if (!details) return null;
  return <><h3>Current details</h3><pre class="current-details" data-testid="current-details">{details}</pre></>;
}
