import { Client, type SchedulePolicies } from '../client/index.ts';
import type { ScheduleStartWorkflowAction } from '../client/schedule-options.ts';
import type { ScheduleSpec, IntervalSpec } from '../schedule/schedule-spec.ts';
import type { Duration } from '../retry/duration.ts';
import type { CalendarSpec } from '../schedule/calendar-spec.ts';
import { enumFlag, parseFlags, parseIntFlag, UsageError } from './args.ts';
import { SCHEDULE_OVERLAP_POLICIES } from '../protocol/enums.ts';
import type { CommandSpec } from './command-spec.ts';
import { renderTable } from './table.ts';
import { progressBar } from './progress.ts';
import { asFlagErrorOf } from './flag-errors.ts';
import { scheduleDescribeText } from './schedule-describe.ts';
import { OUTPUT_FLAG, printOutput, useOutput } from './output.ts';
import { refuseFastOnLoopback } from './connection-flags.ts';

const HELP = `Usage: steadfast schedule <action> <scheduleId> [options]

Actions:
  create <id> --type <workflowType> --task-queue <q> --workflow-id <id> [spec] [policies] [--args '<json array>']
              [--paused] [--note <text>] [--remaining-actions <n>]
  describe <id>          the spec in words (cron strings as written), next 10 times, recent actions, incidents and counters
  list                   every schedule with its next time and health
  update <id> [spec] [policies] [--type ..] [--task-queue ..] [--workflow-id ..] [--args ..]
                         replaces what is given, atomically
  pause <id> [--note <text>]
  unpause <id> [--note <text>]
  toggle <id> (--pause | --unpause) [--reason <text>]   Temporal's name for pause and unpause
  trigger <id> [--overlap <policy>]        one action now, also while paused
  backfill <id> --start <time> --end <time> [--overlap <policy>]
                         every action the spec names in [start, end], now (a progress bar on a terminal)
  delete <id>

Spec (repeatable): --cron '<expr>'  --interval 45m | 6h/5h  --calendar '{"hour":"11-14","dayOfWeek":"Mon-Fri"}'
  [--timezone <IANA zone>] [--jitter <dur>] [--start-time <ISO>] [--end-time <ISO>]
Policies: --overlap Skip|BufferOne|BufferAll|CancelOther|TerminateOther|AllowAll  --catchup-window <dur>  --pause-on-failure

Common options:
  --address <url>    server address (default $STEADFAST_ADDRESS or http://127.0.0.1:7233)
  --namespace <ns>   namespace (default "default")
  --json, -o json|jsonl|table  print JSON (pretty, or one line per item) for scripts instead of a table
  -h, --help         show this help

Example:
  steadfast schedule create nightly --type report --task-queue reports --workflow-id report --cron '0 2 * * *' --overlap Skip`;

const FLAGS = {
  address: { type: 'string' }, namespace: { type: 'string' }, json: { type: 'boolean' }, ...OUTPUT_FLAG, help: { type: 'boolean', short: 'h' },
  cron: { type: 'string', multiple: true }, interval: { type: 'string', multiple: true }, calendar: { type: 'string', multiple: true },
  timezone: { type: 'string' }, jitter: { type: 'string' }, 'start-time': { type: 'string' }, 'end-time': { type: 'string' },
  overlap: { type: 'string' }, 'catchup-window': { type: 'string' }, 'pause-on-failure': { type: 'boolean' },
  type: { type: 'string' }, 'task-queue': { type: 'string' }, 'workflow-id': { type: 'string' }, args: { type: 'string' },
  paused: { type: 'boolean' }, note: { type: 'string' }, 'remaining-actions': { type: 'string' }, pause: { type: 'boolean' }, unpause: { type: 'boolean' }, reason: { type: 'string' },
  start: { type: 'string' }, end: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseFlags<typeof FLAGS>>['values'];

/** The flag that sets each schedule option, for errors (the repeatable spec flags keep the option's path and index). */
const FLAG_OF_FIELD: Record<string, string> = {
  'spec.jitter': 'jitter', 'spec.startAt': 'start-time', 'spec.endAt': 'end-time', 'spec.timezone': 'timezone',
  'policies.overlap': 'overlap', 'policies.catchupWindow': 'catchup-window', 'state.remainingActions': 'remaining-actions', 'state.note': 'note',
  'action.workflowType': 'type', 'action.taskQueue': 'task-queue', 'action.workflowId': 'workflow-id', 'action.args': 'args',
  'backfill[0].start': 'start', 'backfill[0].end': 'end', 'backfill[0].overlap': 'overlap',
};

function json(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag} must be JSON: ${(err as Error).message}`);
  }
}

/** The spec the flags describe, or undefined when no spec flag is given. */
function specOf(v: Values): ScheduleSpec | undefined {
  const given = v.cron || v.interval || v.calendar;
  if (!given) return undefined;
  const intervals: IntervalSpec[] = (v.interval ?? []).map((text) => {
    const [every, offset] = text.split('/');
    return offset === undefined ? { every: every as Duration } : { every: every as Duration, offset: offset as Duration };
  });
  const calendars = (v.calendar ?? []).map((c) => json('--calendar', c) as CalendarSpec);
  return {
    ...(intervals.length ? { intervals } : {}), ...(calendars.length ? { calendars } : {}), ...(v.cron ? { cronExpressions: v.cron } : {}),
    ...(v.timezone ? { timezone: v.timezone } : {}), ...(v.jitter ? { jitter: v.jitter as Duration } : {}),
    ...(v['start-time'] ? { startAt: v['start-time'] } : {}), ...(v['end-time'] ? { endAt: v['end-time'] } : {}),
  };
}

function policiesOf(v: Values, base: SchedulePolicies = {}): SchedulePolicies {
  return {
    ...base,
    ...(v.overlap ? { overlap: enumFlag('overlap', v.overlap, SCHEDULE_OVERLAP_POLICIES) } : {}),
    ...(v['catchup-window'] ? { catchupWindow: v['catchup-window'] as Duration } : {}),
    ...(v['pause-on-failure'] !== undefined ? { pauseOnFailure: v['pause-on-failure'] } : {}),
  };
}

function actionOf(v: Values, base?: ScheduleStartWorkflowAction): ScheduleStartWorkflowAction {
  const args = v.args === undefined ? undefined : json('--args', v.args);
  if (args !== undefined && !Array.isArray(args)) throw new UsageError(`--args must hold a JSON array, e.g. '["o-1", 2]'`);
  const workflowType = v.type ?? base?.workflowType;
  const taskQueue = v['task-queue'] ?? base?.taskQueue;
  const workflowId = v['workflow-id'] ?? base?.workflowId;
  if (!workflowType || !taskQueue || !workflowId) throw new UsageError('steadfast schedule create: --type, --task-queue and --workflow-id are required');
  return { ...base, type: 'startWorkflow', workflowType, taskQueue, workflowId, ...(args ? { args } : {}) };
}

function instant(flag: string, text: string | undefined): Date {
  const ms = text === undefined ? NaN : Date.parse(text);
  if (!Number.isFinite(ms)) throw new UsageError(`--${flag} must be an ISO 8601 time such as 2026-01-01T00:00:00Z, got "${text ?? ''}"`);
  return new Date(ms);
}

/** Polls until the backfills are processed, drawing a bar on stderr when it is a terminal. */
async function followBackfill(client: Client, id: string, total: number): Promise<void> {
  if (!process.stderr.isTTY || total <= 0) return;
  const handle = client.schedule.getHandle(id);
  const bar = progressBar('backfill');
  for (;;) {
    const pending = (await handle.describe()).info.backfillsPending;
    bar.update(Math.max(0, total - pending), total);
    if (pending === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  bar.finish();
}

/** `steadfast schedule`. */
export const scheduleCommand = {
  name: 'schedule',
  summary: 'Create, describe, list, update, pause, unpause, trigger, backfill or delete schedules',
  async run(argv) {
    const { values: v, positionals } = parseFlags('schedule', argv, FLAGS, true);
    const [action, id] = positionals;
    if (v.help || !action) {
      console.log(HELP);
      return v.help ? 0 : 2;
    }
    const address = v.address ?? process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233';
    await refuseFastOnLoopback(address, undefined);
    const client = new Client({
      address, retry: { timeout: 10_000 },
      ...(v.namespace ? { namespace: v.namespace } : {}),
    });
    const need = () => {
      if (!id) throw new UsageError(`steadfast schedule ${action}: missing <scheduleId> (run \`steadfast schedule --help\` for usage)`);
      return id;
    };
    const asJson = useOutput(v);
    const out = (value: unknown, human: string) => printOutput(asJson, value, () => human);
    try {
      switch (action) {
        case 'create': {
          const spec = specOf(v);
          if (!spec) throw new UsageError('steadfast schedule create: give a spec (--cron, --interval or --calendar)');
          const remaining = parseIntFlag('remaining-actions', v['remaining-actions'], 0);
          await client.schedule.create({
            scheduleId: need(), spec, action: actionOf(v), policies: policiesOf(v),
            state: { ...(v.paused ? { paused: true } : {}), ...(v.note ? { note: v.note } : {}), ...(remaining !== undefined ? { remainingActions: remaining } : {}) },
          });
          out({ scheduleId: id }, `created schedule ${id}`);
          return 0;
        }
        case 'describe': {
          const { raw } = await client.schedule.getHandle(need()).describe();
          out(raw, scheduleDescribeText(raw));
          return 0;
        }
        case 'list': {
          const all = [];
          for await (const e of client.schedule.list()) all.push(e);
          out(all, renderTable(['SCHEDULE ID', 'WORKFLOW TYPE', 'STATE', 'NEXT ACTION', 'HEALTH', 'ACTIONS', 'SKIPPED', 'MISSED', 'FAILED'],
            all.map((e) => [e.scheduleId, e.workflowType, e.paused ? 'paused' : 'active', e.nextActionTime ?? '', e.healthy ? 'ok' : 'UNHEALTHY',
              e.counters.actions, e.counters.skipped + e.counters.bufferOverruns, e.counters.missedCatchup, e.counters.failed])));
          return 0;
        }
        case 'update': {
          await client.schedule.getHandle(need()).update((p) => ({
            spec: specOf(v) ?? p.spec, action: actionOf(v, p.action), policies: policiesOf(v, p.policies),
          }));
          out({ scheduleId: id }, `updated schedule ${id}`);
          return 0;
        }
        case 'pause':
        case 'unpause':
        case 'toggle': {
          // `toggle --pause | --unpause` is Temporal's name; --reason is its name for the note.
          if (action === 'toggle' && v.pause === v.unpause) throw new UsageError('steadfast schedule toggle: give one of --pause or --unpause');
          const pause = action === 'toggle' ? v.pause === true : action === 'pause';
          const note = v.note ?? v.reason;
          const h = client.schedule.getHandle(need());
          await (pause ? h.pause(note) : h.unpause(note));
          out({ scheduleId: id }, `${pause ? 'paused' : 'unpaused'} schedule ${id}`);
          return 0;
        }
        case 'trigger':
          await client.schedule.getHandle(need()).trigger(enumFlag('overlap', v.overlap, SCHEDULE_OVERLAP_POLICIES));
          out({ scheduleId: id }, `triggered schedule ${id}`);
          return 0;
        case 'backfill': {
          const h = client.schedule.getHandle(need());
          const before = (await h.describe()).info.backfillsPending;
          await h.backfill({ start: instant('start', v.start), end: instant('end', v.end), ...(v.overlap ? { overlap: enumFlag('overlap', v.overlap, SCHEDULE_OVERLAP_POLICIES) } : {}) });
          const total = (await h.describe()).info.backfillsPending - before;
          if (!asJson) await followBackfill(client, id!, total + before);
          out({ scheduleId: id }, `backfill of schedule ${id} requested`);
          return 0;
        }
        case 'delete':
          await client.schedule.getHandle(need()).delete();
          out({ scheduleId: id }, `deleted schedule ${id}`);
          return 0;
        default:
          throw new UsageError(`steadfast schedule: unknown action "${action}" (run \`steadfast schedule --help\` for usage)`);
      }
    } catch (err) {
      throw asFlagErrorOf(err, FLAG_OF_FIELD, v);
    } finally {
      client.close();
    }
  },
} satisfies CommandSpec;
