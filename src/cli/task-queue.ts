import { Client } from '../client/index.ts';
import type { DescribeTaskQueueResponse, TaskQueueKindStatus } from '../protocol/index.ts';
import { formatMs } from '../retry/duration.ts';
import { parseFlags, UsageError } from './args.ts';
import { connectionFlags } from './connection-flags.ts';
import type { CommandSpec } from './command-spec.ts';
import { renderTable } from './table.ts';
import { retryWindow } from './workflow.ts';

const HELP = `Usage: steadfast task-queue <action> [options]

Actions:
  describe <queue>     the workers polling the queue (identity, last poll, polls per second),
                       and for workflow and activity tasks: the backlog, the age of its oldest
                       task and schedule-to-start p50/p99 over the last 5 minutes
  list                 the namespace's queues that have pollers or tasks

Workers count as pollers for 5 minutes after their last poll, across server restarts.

Options:
  --namespace <ns>     the namespace (default "default")
  --address <url>      server address (default $STEADFAST_ADDRESS or http://127.0.0.1:7233)
  --api-key <key>      credential (default $STEADFAST_API_KEY)
  --ca-file <pem>      CA to trust for an https:// address (default $STEADFAST_CA_FILE)
  --retry-for <dur>    how long to keep retrying while the server is unavailable (default 10s)
  --json               print JSON for scripts instead of a table
  -h, --help           show this help

Example:
  steadfast task-queue describe orders
  steadfast task-queue list --json`;

const FLAGS = {
  address: { type: 'string' }, 'api-key': { type: 'string' }, 'ca-file': { type: 'string' }, 'retry-for': { type: 'string' },
  json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, namespace: { type: 'string' },
} as const;

const ago = (iso: string | undefined, now: number) => (iso === undefined ? 'never' : `${formatMs(Math.max(0, now - Date.parse(iso)))} ago`);

/** One kind's line of the summary table. */
function kindRow(kind: string, k: TaskQueueKindStatus): string[] {
  const s = k.scheduleToStart;
  return [kind, String(k.pollers.length), String(k.backlogCount), k.backlogAgeMs === undefined ? '' : formatMs(k.backlogAgeMs),
    s ? formatMs(s.p50) : '', s ? formatMs(s.p99) : ''];
}

/** A queue as `describe` prints it for people: a summary per kind, then the pollers. */
export function describeText(d: DescribeTaskQueueResponse, now = Date.now()): string {
  const lines = [`Task queue ${d.taskQueue} (namespace ${d.namespace}), last poll: ${ago(d.lastPollTime, now)}`, ''];
  lines.push(renderTable(['KIND', 'POLLERS', 'BACKLOG', 'OLDEST', 'START P50', 'START P99'], [kindRow('workflow', d.workflow), kindRow('activity', d.activity)]));
  const pollers = [...d.workflow.pollers.map((p) => ({ kind: 'workflow', ...p })), ...d.activity.pollers.map((p) => ({ kind: 'activity', ...p }))];
  lines.push('');
  if (pollers.length === 0) lines.push('No worker has polled this queue in the last 5 minutes.');
  else lines.push(renderTable(['IDENTITY', 'KIND', 'LAST POLL', 'POLLS/S'], pollers.map((p) => [p.identity, p.kind, ago(p.lastAccessTime, now), String(p.ratePerSecond)])));
  return lines.join('\n').replace(/\n+$/, '');
}

/** `steadfast task-queue`. */
export const taskQueueCommand = {
  name: 'task-queue',
  summary: 'Describe a task queue (pollers, backlog, schedule-to-start) or list the queues',
  async run(argv) {
    const { values: v, positionals } = parseFlags('task-queue', argv, FLAGS, true);
    const [action, queue, extra] = positionals;
    if (v.help || !action) {
      console.log(HELP);
      return v.help ? 0 : 2;
    }
    if (extra !== undefined || (action === 'list' && queue !== undefined)) {
      throw new UsageError(`steadfast task-queue ${action}: unexpected argument "${extra ?? queue}" (run \`steadfast task-queue --help\` for usage)`);
    }
    const address = v.address ?? process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233';
    const client = new Client({
      address, retry: { timeout: retryWindow(v['retry-for']) }, ...connectionFlags(address, v['api-key'], v['ca-file']),
      ...(v.namespace !== undefined ? { namespace: v.namespace } : {}),
    });
    const out = (value: unknown, human: string) => console.log(v.json ? JSON.stringify(value, null, 2) : human);
    try {
      switch (action) {
        case 'describe': {
          if (queue === undefined) throw new UsageError('steadfast task-queue describe: give the queue: steadfast task-queue describe <queue>');
          const d = await client.taskQueue.describe(queue);
          out(d, describeText(d));
          return 0;
        }
        case 'list': {
          const all = await client.taskQueue.list();
          const now = Date.now();
          out(all, all.length === 0 ? 'No task queue has pollers or tasks.'
            : renderTable(['NAME', 'POLLERS', 'LAST POLL'], all.map((q) => [q.name, String(q.pollerCount), ago(q.lastPollTime, now)])).replace(/\n+$/, ''));
          return 0;
        }
        default:
          throw new UsageError(`steadfast task-queue: unknown action "${action}" (run \`steadfast task-queue --help\` for the actions)`);
      }
    } finally {
      client.close();
    }
  },
} satisfies CommandSpec;
