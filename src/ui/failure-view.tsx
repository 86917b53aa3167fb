import type { FailureInfo } from '../common/failure.ts';
import { json } from './format.ts';

/** A failure as a person reads it: message, type, details, the stack one frame a line, then its cause. */
export function FailureView({ failure }: { failure: FailureInfo }) {
  const f = failure as FailureInfo & { type?: string; details?: unknown; nonRetryable?: boolean };
  return (
    <div class="failure" data-testid="failure-view">
      <div class="failure-message"><strong data-testid="failure-message">{f.message}</strong></div>
      <dl class="facts">
        {f.type && <><dt>Type</dt><dd class="mono" data-testid="failure-type">{f.type}</dd></>}
        <dt>Kind</dt><dd>{f.kind}{f.nonRetryable ? ', non-retryable' : ''}</dd>
        {f.details !== undefined && <><dt>Details</dt><dd><pre class="json" data-testid="failure-details">{json(f.details)}</pre></dd></>}
      </dl>
      {f.stack && (
        <ol class="stack-lines mono" data-testid="failure-stack">
          {f.stack.split('\n').map((line, i) => <li key={i}>{line}</li>)}
        </ol>
      )}
      {f.cause && <div class="failure-cause"><span class="note">caused by</span><FailureView failure={f.cause} /></div>}
    </div>
  );
}
