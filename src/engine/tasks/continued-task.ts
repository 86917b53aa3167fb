import type { EngineCore, FeatureRegistry } from '../core/engine-core.ts';
import type { ActivityInfo } from '../activity/activity-state.ts';
import type { SdkMetadata } from '../../common/sdk-metadata.ts';
import type { Command } from '../../history/commands.ts';
import type { EventType, HistoryEvent } from '../../history/events.ts';
import type { ActivityTask, ContinuedWorkflowTask, RespondWorkflowTaskCompletedResponse, RunningLocalActivity } from '../../protocol/index.ts';
import { applyCommands, validateCommandList } from '../core/commands.ts';
import { checkRequestText } from '../../protocol/request-text.ts';
import type { EngineLimits } from '../core/limits.ts';
import { loadAttributeDefinitions, searchAttributeNamespaces, type AttributeDefinitions } from '../visibility/search-attributes.ts';
import type { TransitionBuilder } from '../core/transition.ts';
import { completeWorkflowTask, finishWorkflowTask, startWorkflowTask } from '../workflow-task/workflow-tasks.ts';
import { completeActivity } from '../activity/activities.ts';
import type { WorkflowTaskInfo } from '../core/state.ts';
import type { TaskTokens } from '../core/task-token.ts';
import { startEagerActivities } from './eager-dispatch.ts';

/**
 * A continued workflow task: the worker that completes an activity runs the workflow task that
 * completion schedules on its cached state of the run, and reports both in one request. When
 * the run is as the worker saw it, the activity's events, the task's Scheduled, Started and
 * Completed events and its commands are one transition: one commit and one round trip per
 * activity instead of two of each. The history is the one the usual path writes when the
 * worker that polls the task is the one that ran the activity, except that WorkflowTaskStarted
 * has the worker's time, the workflow time the code ran at.
 *
 * The run is as the worker saw it when no event was appended since the last one the worker
 * knows (`afterEventId`: it applies every completion's events, RespondWorkflowTaskCompletedResponse)
 * and no workflow task is pending: then nothing but this activity's result is new to the code,
 * which is what the worker ran it on. Anything else (a signal, a timer, another activity's
 * result, a task that failed or timed out) falls back: the activity's completion is recorded
 * alone, and the workflow task it schedules goes out as usual.
 */

/** The events the activity's completion and the task's start append, in order (closeActivity, then scheduleWorkflowTask). */
const CONTINUATION_EVENTS: readonly EventType[] = ['ActivityTaskStarted', 'ActivityTaskCompleted', 'WorkflowTaskScheduled', 'WorkflowTaskStarted'];

/** What a completion records: its commands as checked before its transition, the search attribute definitions they need, and the rest of the request. */
export interface CompletionOptions {
  commands: Command[];
  definitions: AttributeDefinitions | undefined;
  identity: string;
  sdkMetadata: SdkMetadata | undefined;
  /** How many of the activities the commands schedule the worker runs itself (eager activities). */
  eagerActivities: number;
  /** Schedule a new workflow task after this one (RespondWorkflowTaskCompletedRequest.forceCreateNewWorkflowTask). */
  forceCreateNewWorkflowTask?: boolean;
  /** The local activities still running in the worker (RespondWorkflowTaskCompletedRequest.runningLocalActivities). */
  runningLocalActivities?: readonly RunningLocalActivity[] | undefined;
  limits: EngineLimits;
  tokens: TaskTokens;
  /** The features' command handlers (FeatureRegistry.commands). */
  handlers: FeatureRegistry['commands'];
}

/**
 * What a completion (polled or continued) records: its commands, checked one by one and against
 * the namespaces' search attribute definitions, and the rest of the request.
 * @throws ValidationError naming the command and the rule.
 */
export async function completionOptions(
  core: EngineCore, listed: unknown, namespace: string, identity: string, sdkMetadata: SdkMetadata | undefined, eagerActivities: number | undefined,
): Promise<CompletionOptions> {
  checkRequestText({ commands: listed });
  const commands = validateCommandList(listed);
  const namespaces = searchAttributeNamespaces(commands, namespace);
  const definitions = namespaces.length > 0 ? await loadAttributeDefinitions(core.store, namespaces) : undefined;
  return { commands, definitions, identity, sdkMetadata, eagerActivities: eagerActivities ?? 0, limits: core.limits, tokens: core.tokens, handlers: core.features.commands };
}

/** What a completion recorded: the events after its WorkflowTaskStarted, and the activity tasks it started for the worker. */
export interface CompletionRecord {
  events: HistoryEvent[];
  activityTasks: ActivityTask[];
}

/**
 * Completes the started workflow task `wt` with its commands, appends what arrived meanwhile,
 * and starts the eager activities.
 */
export function recordCompletion(b: TransitionBuilder, wt: WorkflowTaskInfo, o: CompletionOptions): CompletionRecord {
  const startedEventId = wt.startedEventId!;
  applyCommands(b, o.handlers, o.commands, completeWorkflowTask(b, wt, o.identity, o.sdkMetadata), o.limits, o.definitions);
  for (const hook of b.features.onWorkflowTaskCompleted) hook(b, { identity: o.identity, runningLocalActivities: o.runningLocalActivities });
  if (o.forceCreateNewWorkflowTask) b.needsWorkflowTask = true;
  finishWorkflowTask(b);
  const events = b.events.filter((e) => e.eventId > startedEventId);
  return { events, activityTasks: startEagerActivities(b, o.eagerActivities, o.identity, startedEventId, o.tokens) };
}

/** A completion's answer as sent: `activityTasks` only when there are some. */
export function completionAnswer(done: CompletionRecord): RespondWorkflowTaskCompletedResponse {
  return done.activityTasks.length > 0 ? done : { events: done.events };
}

/**
 * Records the activity's completion in `b` and, when the run is as the worker saw it, the
 * continued workflow task `next` after it (its commands checked as in `o`); returns the events the task's completion appended (after
 * its WorkflowTaskStarted) and the activities it started for the worker (eager activities), or
 * undefined when only the activity's completion was recorded.
 * @throws ValidationError when a command is refused (the caller records the completion alone).
 */
export function completeAndContinue(
  b: TransitionBuilder, act: ActivityInfo, result: unknown, next: ContinuedWorkflowTask, o: CompletionOptions,
): CompletionRecord | undefined {
  const { identity } = o;
  const at = next.startedTimeMs;
  const asSeen = !b.closed && b.state.wt === undefined && b.others.length === 0 && b.events.length === 0
    && b.record.nextEventId === next.afterEventId + 1 && b.record.taskQueue === next.taskQueue
    // The worker's time is recorded: after the attempt started, within the task's timeout before this answer, and not
    // ahead of it. It is the attempt's start on this clock plus less time than this clock has moved since, so it runs
    // ahead only when this clock stands still (time skipping) while the worker takes real time, or was set back.
    && at >= (act.startedTime ?? Infinity) && at >= b.now - b.state.cfg.workflowTaskTimeoutMs && at <= b.now;
  completeActivity(b, act, result, identity);
  const wt = b.state.wt;
  if (!asSeen || !wt || wt.transient || wt.taskId === undefined || wt.scheduledTime > b.now) return undefined;
  if (b.record.nextEventId !== next.startedEventId || b.events.some((e, i) => e.eventType !== CONTINUATION_EVENTS[i])) return undefined;
  // The activity closed and the task was scheduled when the worker had the result and ran the code.
  const atIso = new Date(at).toISOString();
  for (const e of b.events) e.eventTime = atIso;
  wt.scheduledTime = at;
  const taskId = wt.taskId;
  const started = startWorkflowTask(b, wt.seq, identity, o.limits, at);
  if (!started) return undefined;
  const done = recordCompletion(b, b.state.wt!, o);
  // Created and settled in this transition: neither the task row nor its timeout timer is written.
  b.discardTask(taskId);
  b.discardTimer(started.timeoutTimerId!);
  return done;
}
