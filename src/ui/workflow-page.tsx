import { useEffect, useRef, useState } from 'preact/hooks';
import type { HistoryEvent, WorkflowHistory } from '../history/events.ts';
import type { WorkflowExecutionDescription } from '../protocol/index.ts';
import { api } from './api.ts';
import { Actions } from './actions.tsx';
import { formatDuration, formatTime, json } from './format.ts';
import { HistorySection } from './history-section.tsx';
import { FailureView } from './failure-view.tsx';
import type { FailureInfo } from '../common/failure.ts';
import { usePoll } from './poll.ts';
import { href } from './router.ts';
import { useSettings } from './settings.tsx';
import { StatusBadge } from './status.tsx';
import { Timeline } from './timeline.tsx';
import { resetOf } from './timeline-model.ts';
import { useHistory } from './use-history.ts';
import { taskQueueLink } from './task-queue-page.tsx';
import { PendingActivities, PendingLocalActivities, PendingTask } from './pending.tsx';
import { ResetAction } from './reset.tsx';
import { CurrentDetails, StaticMetadata } from './user-metadata.tsx';

function runLink(workflowId: string, runId: string, text?: string) {
  return <a href={href(`/workflows/${encodeURIComponent(workflowId)}/${runId}`, {})} class="mono">{text ?? runId}</a>;
}

function find<T extends HistoryEvent['eventType']>(events: readonly HistoryEvent[], type: T): HistoryEvent<T> | undefined {
  return events.find((e) => e.eventType === type) as HistoryEvent<T> | undefined;
}

/** The outcome of a closed run, from its close event. */
function Outcome({ events }: { events: readonly HistoryEvent[] }) {
  const close = events[events.length - 1];
  if (!close) return null;
  const a = close.attributes as { result?: unknown; failure?: unknown; reason?: string; details?: unknown };
  switch (close.eventType) {
    case 'WorkflowExecutionCompleted':
      return <><h3>Result</h3><pre class="json" data-testid="result">{json(a.result)}</pre></>;
    case 'WorkflowExecutionFailed':
    case 'WorkflowExecutionContinuedAsNew':
      return a.failure ? <><h3>Failure</h3><div data-testid="failure"><FailureView failure={a.failure as FailureInfo} /></div></> : null;
    case 'WorkflowExecutionTerminated':
      return <><h3>Terminated</h3><pre class="json">{json({ reason: a.reason, details: a.details })}</pre></>;
    case 'WorkflowExecutionCanceled':
      return <><h3>Canceled</h3><pre class="json">{json(a.details ?? null)}</pre></>;
    default:
      return null;
  }
}

/** Saves a run's history as `handle.fetchHistory()` gives it: with the ids the Replayer reads. */
function download(history: { workflowId: string; runId: string; events: readonly HistoryEvent[] }): void {
  const file: WorkflowHistory = { workflowId: history.workflowId, runId: history.runId, events: [...history.events] };
  const blob = new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' });
  const name = `${history.workflowId}-${history.runId}.json`;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** A workflow run: summary, pending work, timeline, actions, stack trace and event history. */
export function WorkflowPage({ workflowId, runId }: { workflowId: string; runId?: string | undefined }) {
  const [settings] = useSettings();
  const ns = settings.namespace;
  const [d, setD] = useState<WorkflowExecutionDescription | undefined>();
  const [error, setError] = useState('');
  const [now, setNow] = useState(Date.now());
  const [stack, setStack] = useState<string | undefined>();

  // A describe of the workflow shown before must not land on this one's page.
  const shown = useRef('');
  shown.current = `${ns}|${workflowId}|${runId}`;
  const refresh = async () => {
    const key = `${ns}|${workflowId}|${runId}`;
    try {
      const next = await api.describe(ns, workflowId, runId);
      if (key !== shown.current) return;
      setD(next);
      setNow(Date.now());
      setError('');
    } catch (err) {
      if (key === shown.current) setError((err as Error).message);
    }
  };
  useEffect(() => {
    setD(undefined);
    setError('');
    setStack(undefined);
    void refresh();
  }, [ns, workflowId, runId]);
  const running = d?.execution.status === 'Running';
  usePoll(refresh, 1000, running);
  const history = useHistory(ns, workflowId, d?.execution.runId, d?.execution.historyLength ?? 0);

  if (error && !d) return <p class="error">{error}</p>;
  if (!d) return <p class="note">Loading…</p>;
  const x = d.execution;
  const t = (iso?: string) => formatTime(iso, settings.zone);
  const started = find(history.events, 'WorkflowExecutionStarted');
  const resetFrom = resetOf(history.events)?.attributes.baseRunId;
  const children = history.events.filter((e): e is HistoryEvent<'ChildWorkflowExecutionStarted'> => e.eventType === 'ChildWorkflowExecutionStarted');
  const stackTrace = async () => {
    const r = await api.query(ns, x.workflowId, x.runId, '__stack_trace', []).catch((err: Error) => ({ failure: { message: err.message }, result: undefined }));
    setStack(r.failure ? `(${r.failure.message})` : String(r.result));
  };

  return (
    <section class="workflow">
      <h2>
        <StatusBadge status={x.status} /> <span data-testid="workflow-id">{x.workflowId}</span>
        <span class="sub">{x.workflowType}</span>
      </h2>
      {error && <p class="error">{error}</p>}
      <StaticMetadata metadata={x.userMetadata} />
      <dl class="facts">
        <dt>Run ID</dt><dd class="mono">{x.runId}</dd>
        <dt>Task queue</dt><dd>{taskQueueLink(x.taskQueue)}</dd>
        <dt>Start</dt><dd class="mono">{t(x.startTime)}</dd>
        <dt>Close</dt><dd class="mono">{t(x.closeTime) || '—'}</dd>
        <dt>Duration</dt><dd>{formatDuration((x.closeTime ? Date.parse(x.closeTime) : now) - Date.parse(x.startTime))}</dd>
        <dt>Attempt</dt><dd>{x.attempt}</dd>
        <dt>History</dt><dd>{x.historyLength} events{x.historySizeBytes !== undefined ? `, ${x.historySizeBytes} bytes` : ''}</dd>
        <dt>Run chain</dt>
        <dd>
          {d.continuedFromRunId && <>from {runLink(x.workflowId, d.continuedFromRunId)} </>}
          {d.continuedAsNewToRunId && <>continued as {runLink(x.workflowId, d.continuedAsNewToRunId)} </>}
          {x.firstExecutionRunId !== x.runId && <>first run {runLink(x.workflowId, x.firstExecutionRunId)}</>}
          {resetFrom && <>reset from <span data-testid="reset-from">{runLink(x.workflowId, resetFrom)}</span> </>}
          {!resetFrom && !d.continuedFromRunId && !d.continuedAsNewToRunId && x.firstExecutionRunId === x.runId && 'single run'}
        </dd>
        {typeof x.searchAttributes?.TemporalScheduledById === 'string' && <>
          <dt>Schedule</dt>
          <dd><a href={`/schedules/${encodeURIComponent(x.searchAttributes.TemporalScheduledById)}`} data-testid="scheduled-by">{x.searchAttributes.TemporalScheduledById}</a></dd>
        </>}
        {x.parent && <><dt>Parent</dt><dd><a href={href(`/workflows/${encodeURIComponent(x.parent.workflowId)}/${x.parent.runId}`, {})}>{x.parent.workflowId}</a></dd></>}
        {(children.length > 0 || d.pendingChildren.length > 0) && <>
          <dt>Children</dt>
          <dd>
            {children.map((c) => <span key={c.eventId}>{runLink(c.attributes.workflowId, c.attributes.runId, c.attributes.workflowId)} </span>)}
            {d.pendingChildren.filter((c) => !c.runId).map((c) => <span key={c.initiatedEventId}>{c.workflowId} (starting) </span>)}
          </dd>
        </>}
      </dl>
      <div class="cols">
        <div><h3>Input</h3><pre class="json" data-testid="input">{json(started?.attributes.args ?? [])}</pre></div>
        <div><h3>Memo</h3><pre class="json">{json(x.memo ?? {})}</pre></div>
      </div>
      {x.searchAttributes && Object.keys(x.searchAttributes).length > 0 && (
        <><h3>Search attributes</h3><pre class="json" data-testid="search-attributes">{json(x.searchAttributes)}</pre></>
      )}
      <CurrentDetails target={{ namespace: ns, workflowId: x.workflowId, runId: x.runId }} running={running} historyLength={x.historyLength} />
      <Outcome events={history.complete && !running ? history.events : []} />
      {d.taskQueueUnpolled && <p class="panel error" data-testid="task-queue-unpolled">{d.taskQueueUnpolled.message}: nothing moves this run until a worker polls it.</p>}
      <PendingTask task={d.pendingWorkflowTask} zone={settings.zone} />
      <PendingActivities activities={d.pendingActivities} zone={settings.zone} now={now} events={history.events} />
      <PendingLocalActivities activities={d.pendingLocalActivities} zone={settings.zone} />
      <h3>Timeline</h3>
      <Timeline events={history.events} description={d} now={now} />
      <h3>Actions</h3>
      <Actions target={{ namespace: ns, workflowId: x.workflowId, runId: x.runId }} running={running} onDone={() => void refresh()} />
      {history.complete && <ResetAction namespace={ns} workflowId={x.workflowId} runId={x.runId} events={history.events} zone={settings.zone} />}
      {running && (
        <div class="stack">
          <button type="button" onClick={() => void stackTrace()}>Stack trace</button>
          {stack !== undefined && <pre class="json" data-testid="stack">{stack}</pre>}
        </div>
      )}
      <h3>
        Event history <span class="sub" data-testid="history-count">{history.events.length}{history.complete ? '' : ` of ${x.historyLength}, loading…`} events</span>
        <button type="button" class="right" disabled={!history.complete} onClick={() => download({ workflowId: x.workflowId, runId: x.runId, events: history.events })}>Download JSON</button>
      </h3>
      {history.error && <p class="error">{history.error}</p>}
      <HistorySection events={history.events} now={now} />
    </section>
  );
}
