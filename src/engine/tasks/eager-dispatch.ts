import type { ActivityInfo } from '../activity/activity-state.ts';
import type { TaskRecord } from '../../store/types.ts';
import type { ActivityTask } from '../../protocol/index.ts';
import type { TaskTokens } from '../core/task-token.ts';
import { activityTask, startActivity } from '../activity/activities.ts';
import { type EngineCore, type EagerHandoff } from '../core/engine-core.ts';
import { atKey, queueKey, TASK_LEASE_MS, wtKey } from '../core/queue-book.ts';
import type { HandedTask, HandedWorkflowTask, Reservation } from '../core/handoffs.ts';
import type { StartWorkflowExecutionResponse, WorkflowTask } from '../../protocol/index.ts';
import type { ValidStart } from '../core/requests.ts';
import { startWorkflow } from '../core/start.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import { startWorkflowTask } from '../workflow-task/workflow-tasks.ts';

/**
 * Eager dispatch: a workflow or activity task that a transition schedules, visible now, while a
 * long poll of its queue waits in this process, is started in that same transition for that
 * poll (WorkflowTaskStarted appended, or the attempt marked started with its timeout timer
 * armed) instead of being written as a task row that the poll then claims and starts in a
 * second commit. The history is the one the poll would have produced by claiming the row at
 * once. A crash after the commit, or a poll whose client is gone, leaves a started task that its
 * timeout (or the server's return of undelivered tasks) recovers, exactly as for a claimed one.
 * Other servers (PostgreSQL) are unaffected: the transition is versioned like any other.
 *
 * Every task goes to its poll once the transition's commit succeeded, never before: a commit that
 * lost a race is decided again, with new task rows and, for a start, a new run id, so a task sent
 * ahead of its commit could carry events that are never written (a worker would run code against
 * a history that does not exist, and its completion would be refused or, worse, match the task
 * decided again).
 * Measured (`npm run bench -- engine`, side by side with the code before): a one-activity
 * workflow at idle takes 4 commits instead of 7; PostgreSQL idle p50 30–31 → 17.5–18 ms and
 * 97–107 → 113–119 workflows/s; SQLite unchanged within the machine's noise (idle p50 9–10 ms).
 */
export function reserveEager(core: EngineCore, b: TransitionBuilder, onDeliver: (h: HandedTask) => void): EagerHandoff | undefined {
  if (!core.handoffs.hasAny()) return undefined;
  const taken: { offer: Reservation; handed: HandedTask; settled?: true }[] = [];
  for (const x of [b, ...b.others]) {
    if (x.closed || x.createTasks.length === 0) continue;
    const wt = x.state.wt;
    const wtRow = wt?.taskId !== undefined && wt.startedTime === undefined ? visibleRow(x, wt.taskId) : undefined;
    if (wt && wtRow) {
      const offer = core.handoffs.take(queueKey(wtRow.namespace, wtRow.taskQueue, 'workflow'));
      const started = offer && startWorkflowTask(x, wt.seq, offer.identity, core.limits);
      if (offer && started) {
        x.discardTask(wtRow.id);
        taken.push({ offer, handed: {
          kind: 'workflow', wt: started, rec: x.record, previousStartedEventId: x.state.previousStartedEventId,
          timeoutMs: x.state.cfg.workflowTaskTimeoutMs, firstEventId: x.record.nextEventId - x.events.length, events: x.events,
        } });
      } else offer?.release();
    }
    for (const act of Object.values(x.state.activities)) {
      const row = act.state === 'Scheduled' && act.taskId !== undefined ? visibleRow(x, act.taskId) : undefined;
      if (!row) continue;
      const offer = core.handoffs.take(queueKey(row.namespace, row.taskQueue, 'activity'));
      if (!offer) continue;
      taken.push({ offer, handed: { kind: 'activity', task: startHere(x, act, row.id, offer.identity, core.tokens) } });
    }
  }
  if (taken.length === 0) return undefined;
  return {
    committed: () => {
      for (const t of taken) {
        if (t.settled) continue;
        t.settled = true;
        onDeliver(t.handed);
        t.offer.deliver(t.handed);
      }
    },
    release: () => {
      for (const t of taken) {
        if (t.settled) continue;
        t.settled = true;
        t.offer.release();
      }
    },
  };
}

/**
 * Eager start (Temporal's `requestEagerExecution`): the new run's first workflow task is started
 * in the start's own transaction, for `identity`, and handed back with the answer; the worker in
 * the caller's process runs it, with no poll between. Nothing is handed when the task cannot run
 * now (a start delay, a cron wait) or no run was started (a repeated request id, UseExisting):
 * the task then goes to a poll as usual.
 *
 * With `ahead` (a caller in this process, StartCallOptions.eagerTaskAhead), the task goes there
 * once the start's commit is on its way, not when it returns, so the worker runs the code up to
 * its first effect while the store writes; it is told whether the run was written before the
 * call answers, and nothing of the task leaves the worker before (WorkflowTaskHandler). This
 * is the one task that goes before its commit: it goes to the process that asked for the run,
 * whose worker holds everything the code does until the outcome, and drops it when the run was
 * not written as handed (a start decided again makes a new run id; its task then goes to a poll).
 * When the commit returns first (SQLite writes at once), the task comes with the answer instead.
 */
export async function startEagerly(
  core: EngineCore, s: ValidStart, identity: string, hand: (h: HandedWorkflowTask) => Promise<WorkflowTask>,
  ahead?: (task: WorkflowTask, written: Promise<boolean>) => void,
): Promise<StartWorkflowExecutionResponse> {
  let handed: HandedWorkflowTask | undefined;
  let early: EarlyTask | undefined;
  /** A task went ahead for a run whose commit then lost its race: this call hands no other. */
  let spent = false;
  let res: StartWorkflowExecutionResponse;
  try {
    res = await startWorkflow(core, s, {
      prepare: (fresh) => {
        handed = undefined;
        // Decided again: an earlier attempt's task that has not gone never goes; one that went
        // is told its run was not written, and the new run's task goes to a poll.
        if (early?.cancel()) early = undefined;
        else if (early) spent = true;
        if (!spent) handed = startWorkflowTaskHere(core, fresh, identity);
      },
      submitted: ahead && (() => {
        if (handed && !early) early = handAhead(core, handed, hand, ahead);
      }),
    });
  } catch (err) {
    await early?.settle(false);
    throw err;
  }
  if (early && await early.settle(res.started === true && res.runId === early.runId)) return res;
  if (!handed || !res.started || handed.rec.runId !== res.runId) return res;
  return { ...res, eagerWorkflowTask: await hand(handed) };
}

/** A first workflow task going ahead of its start's commit. */
interface EarlyTask {
  runId: string;
  /**
   * Takes the start's outcome: true once the task went to the caller, told whether its run was
   * written; false when it did not go (it then never goes, and the answer may carry it).
   */
  settle(written: boolean): Promise<boolean>;
  /** Keeps the task from going, unless it went (or is going): true when it never will. */
  cancel(): boolean;
}

/**
 * Hands `h` to `ahead` after this turn's I/O, so the commit is sent before the worker runs the
 * code (a group commit sends in the same turn), unless the start settles first.
 */
function handAhead(
  core: EngineCore, h: HandedWorkflowTask, hand: (h: HandedWorkflowTask) => Promise<WorkflowTask>,
  ahead: (task: WorkflowTask, written: Promise<boolean>) => void,
): EarlyTask {
  let settled = false;
  let tell: (written: boolean) => void = () => undefined;
  const written = new Promise<boolean>((resolve) => {
    tell = resolve;
  });
  let going: Promise<boolean> | undefined;
  setImmediate(() => {
    if (settled) return;
    going = hand(h).then((task) => {
      try {
        ahead(task, written);
      } catch (err) {
        core.logger.error('the taker of an eager start\'s first workflow task failed', { runId: h.rec.runId, err: String(err) });
      }
      return true;
    }, (err: unknown) => {
      core.logger.warn('an eager start\'s first workflow task could not go ahead of its commit', { runId: h.rec.runId, err: String(err) });
      return false;
    });
  });
  return {
    runId: h.rec.runId,
    cancel: () => {
      settled = true;
      return going === undefined;
    },
    settle: async (ok) => {
      settled = true;
      const went = going ? await going : false;
      // A task handed for a run that was not written is no longer awaited.
      if (!ok) core.inFlight.delete(wtKey({ runId: h.rec.runId, seq: h.wt.seq, attempt: h.wt.attempt }));
      if (went) tell(ok);
      return went;
    },
  };
}

/**
 * Starts, for the worker `identity`, the workflow task this transition leaves scheduled and
 * visible now (its row is not written): a start's first task (eager start), or the next task
 * after a completion that asked for it (returnNewWorkflowTask). Undefined when there is none.
 */
export function startWorkflowTaskHere(core: EngineCore, x: TransitionBuilder, identity: string): HandedWorkflowTask | undefined {
  const wt = x.state.wt;
  const row = !x.closed && wt?.taskId !== undefined && wt.startedTime === undefined ? visibleRow(x, wt.taskId) : undefined;
  const started = wt && row && startWorkflowTask(x, wt.seq, identity, core.limits);
  if (!row || !started) return undefined;
  x.discardTask(row.id);
  return {
    kind: 'workflow', wt: started, rec: x.record, previousStartedEventId: x.state.previousStartedEventId,
    timeoutMs: x.state.cfg.workflowTaskTimeoutMs, firstEventId: x.record.nextEventId - x.events.length, events: x.events,
  };
}

/** The task row this transition creates with that id, when it is visible now. */
function visibleRow(x: TransitionBuilder, id: string): TaskRecord | undefined {
  const row = x.createTasks.find((t) => t.id === id);
  return row && row.visibleAt <= x.now ? row : undefined;
}

/**
 * Eager activities: starts up to `max` of the activities this transition scheduled after event
 * `afterEventId` on the run's own task queue, for the worker whose workflow task completion
 * scheduled them; it gets them in the completion's answer, after the commit, instead of through a
 * poll. The attempt is started as a poll would start it (its timeout armed), so an answer that
 * never reaches the worker leaves the attempt to its start-to-close timeout, as for a poll whose
 * answer was lost after it was sent.
 */
export function startEagerActivities(b: TransitionBuilder, max: number, identity: string, afterEventId: number, tokens: TaskTokens): ActivityTask[] {
  const started: ActivityTask[] = [];
  if (max <= 0 || b.closed) return started;
  for (const act of Object.values(b.state.activities)) {
    if (started.length >= max) break;
    const id = act.taskId;
    if (act.scheduledEventId <= afterEventId || act.state !== 'Scheduled' || act.taskQueue !== b.record.taskQueue || id === undefined) continue;
    if (!visibleRow(b, id)) continue;
    started.push(startHere(b, act, id, identity, tokens));
  }
  return started;
}

/** Starts a scheduled attempt for a worker in the transition that created its task row `rowId`, which is then neither written nor deleted. */
function startHere(x: TransitionBuilder, act: ActivityInfo, rowId: string, identity: string, tokens: TaskTokens): ActivityTask {
  startActivity(x, act, identity);
  x.discardTask(rowId);
  return activityTask(x.record, act, tokens);
}

/**
 * The core's eager hook (engine.ts): starts a transition's tasks for the polls waiting here; each
 * counts as handed out (in flight) from the commit on.
 */
export function eagerDispatch(core: EngineCore, b: TransitionBuilder): EagerHandoff | undefined {
  return reserveEager(core, b, (h) => {
    if (h.kind === 'activity') core.addInFlight(atKey(h.task), h.task.startToCloseTimeoutMs ?? TASK_LEASE_MS);
    else core.addInFlight(wtKey({ runId: h.rec.runId, seq: h.wt.seq, attempt: h.wt.attempt }), h.timeoutMs);
  });
}
