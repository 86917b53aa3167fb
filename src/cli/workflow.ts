import { readFileSync } from 'node:fs';
import { Client } from '../client/index.ts';
import { toMs, type Duration } from '../retry/duration.ts';
import { parseCronSchedule } from '../schedule/index.ts';

import type { HistoryEvent } from '../history/events.ts';
import type { WorkflowExecutionInfo } from '../protocol/index.ts';
import { parseFlags, parseIntFlag, refuseTogether, UsageError } from './args.ts';
import { register } from './main.ts';
import { connectionFlags } from './connection-flags.ts';
import { renderTable } from './table.ts';
import { workflowTaskLines } from './workflow-task-lines.ts';

const COMMON = `Common options:
  --address <url>    server address (default $STEADFAST_ADDRESS or http://127.0.0.1:7233)
  --retry-for <dur>  how long to keep retrying while the server is unavailable (default 10s)
  --namespace <ns>   namespace (default "default")
  --api-key <key>    credential sent as a bearer token (default $STEADFAST_API_KEY)
  --ca-file <pem>    CA certificate trusted for an https:// server (default $STEADFAST_CA_FILE)
  --json             print JSON for scripts instead of a table
  -h, --help         show this help`;

const HELP = `Usage: steadfast workflow <action> [options]

Actions:
  start <type> --task-queue <q> [--id <id>] [--args '<json array>' | --args-file f.json] [--cron '<spec>'] [--wait]
                               --cron makes it a cron job ('30 2 * * *', '@daily', '@every 1h', 'CRON_TZ=Europe/Paris 0 8 * * *')
  list [--query '<filter>'] [--type <t>] [--status <s>] [--id-prefix <p>] [--limit 50]
                               e.g. --query "WorkflowType = 'order' AND ExecutionStatus = 'Running'"
  count [--query '<filter>']   e.g. --query 'GROUP BY ExecutionStatus'
  describe <workflowId> [--run <runId>]
  history <workflowId> [--run <runId>]
  result <workflowId>          wait for the outcome (follows retries and continue-as-new)
  signal <workflowId> <name> [--args '<json array>']
  query <workflowId> <name> [--args '<json array>']   (__stack_trace shows where the workflow waits)
  cancel <workflowId> [--reason <text>]
  terminate <workflowId> [--reason <text>]
  reset <workflowId> (--event-id <n> | --to first|last) [--run <runId>] [--reason <text>]
                               terminate the open run; a new run replays up to that workflow task

${COMMON}`;

const FLAGS = {
  address: { type: 'string' }, namespace: { type: 'string' }, 'api-key': { type: 'string' }, 'ca-file': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  'retry-for': { type: 'string' }, 'task-queue': { type: 'string' }, id: { type: 'string' }, args: { type: 'string' }, 'args-file': { type: 'string' },
  wait: { type: 'boolean' }, type: { type: 'string' }, status: { type: 'string' }, 'id-prefix': { type: 'string' },
  query: { type: 'string' }, limit: { type: 'string' }, run: { type: 'string' }, reason: { type: 'string' }, 'event-id': { type: 'string' }, to: { type: 'string' },
  cron: { type: 'string' },
} as const;

/** `--retry-for` in ms: how long a command rides through an unavailable server (also used by `search-attribute`). */
export function retryWindow(flag: string | undefined): number {
  if (flag === undefined) return 10_000;
  let ms: number;
  try {
    ms = toMs(flag as Duration, '--retry-for');
  } catch {
    throw new UsageError(`--retry-for must be a duration such as 500ms, 10s or 2m, got "${flag}"`);
  }
  if (ms <= 0) throw new UsageError(`--retry-for must be greater than 0, got "${flag}"`);
  return ms;
}

/** The JSON array of `--args` or `--args-file`; an empty list when neither is given. */
function readArgs(values: { args?: string; 'args-file'?: string }): unknown[] {
  refuseTogether(values, ['args', 'args-file']);
  const file = values['args-file'];
  const flag = file === undefined ? '--args' : `--args-file ${file}`;
  let text = values.args;
  if (file !== undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`--args-file cannot be read: ${(err as Error).message}`);
    }
  }
  if (text === undefined) return [];
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag} must hold a JSON array, e.g. '["o-1", 2]': ${(err as Error).message}`);
  }
  if (!Array.isArray(args)) throw new UsageError(`${flag} must hold a JSON array, e.g. '["o-1", 2]'`);
  return args;
}

function print(json: boolean, value: unknown, human: () => string): void {
  console.log(json ? JSON.stringify(value, null, 2) : human());
}

function executionRows(list: WorkflowExecutionInfo[]) {
  return renderTable(
    ['WORKFLOW ID', 'TYPE', 'STATUS', 'STARTED', 'CLOSED', 'RUN ID'],
    list.map((e) => [e.workflowId, e.workflowType, e.status, e.startTime, e.closeTime ?? '', e.runId]),
  );
}

function eventRows(events: HistoryEvent[]) {
  return renderTable(
    ['ID', 'TIME', 'TYPE', 'DETAILS'],
    events.map((e) => {
      const details = JSON.stringify(e.attributes);
      return [e.eventId, e.eventTime, e.eventType, details.length > 90 ? `${details.slice(0, 87)}...` : details];
    }),
  );
}

register({
  name: 'workflow',
  summary: 'Start, list, count, describe, signal, query, cancel, reset or terminate workflows on a server',
  async run(argv) {
    const { values, positionals } = parseFlags('workflow', argv, FLAGS, true);
    const [action, target, messageName] = positionals;
    if (values.help || !action) {
      console.log(HELP);
      return values.help ? 0 : 2;
    }
    const json = values.json ?? false;
    const address = values.address ?? process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233';
    const client = new Client({
      address,
      // A person at a terminal would rather hear within seconds that the server is down than
      // wait out the library's 90-second window; scripts that ride through restarts raise it.
      retry: { timeout: retryWindow(values['retry-for']) },
      ...(values.namespace ? { namespace: values.namespace } : {}),
      ...connectionFlags(address, values['api-key'], values['ca-file']),
    });
    const need = (what: string) => {
      if (!target) throw new UsageError(`steadfast workflow ${action}: missing <${what}> (run \`steadfast workflow --help\` for usage)`);
      return target;
    };
    try {
      switch (action) {
        case 'start': {
          const type = need('type');
          if (!values['task-queue']) throw new UsageError('steadfast workflow start: --task-queue is required');
          const args = readArgs(values);
          if (values.cron !== undefined) parseCronSchedule(values.cron, '--cron');
          const handle = await client.workflow.start(type, {
            taskQueue: values['task-queue'], args, ...(values.id ? { workflowId: values.id } : {}),
            ...(values.cron !== undefined ? { cronSchedule: values.cron } : {}),
          });
          const started = { workflowId: handle.workflowId, runId: handle.firstExecutionRunId };
          if (!values.wait) {
            print(json, started, () => `started ${started.workflowId} (run ${started.runId})`);
            return 0;
          }
          const result = await handle.result();
          print(json, { ...started, result }, () => `completed ${started.workflowId}: ${JSON.stringify(result)}`);
          return 0;
        }
        case 'list': {
          const limit = parseIntFlag('limit', values.limit, 1) ?? 50;
          const rows: WorkflowExecutionInfo[] = [];
          if (values.query !== undefined && (values.type || values.status || values['id-prefix'])) {
            throw new UsageError('steadfast workflow list: --query cannot be combined with --type, --status or --id-prefix; write them in the query');
          }
          for await (const e of client.workflow.list({
            ...(values.query !== undefined ? { query: values.query } : {}),
            ...(values.type ? { workflowType: values.type } : {}),
            ...(values.status ? { status: values.status as WorkflowExecutionInfo['status'] } : {}),
            ...(values['id-prefix'] ? { workflowIdPrefix: values['id-prefix'] } : {}),
            pageSize: Math.min(limit, 1000),
          })) {
            rows.push(e);
            if (rows.length >= limit) break;
          }
          print(json, rows, () => (rows.length ? executionRows(rows) : 'no workflows match'));
          return 0;
        }
        case 'count': {
          const answer = await client.workflow.count(values.query !== undefined ? { query: values.query } : {});
          print(json, answer, () => (answer.groups
            ? renderTable(['VALUE', 'COUNT'], [...answer.groups.map((g) => [g.value === null ? '(none)' : String(g.value), g.count]), ['total', answer.count]])
            : String(answer.count)));
          return 0;
        }
        case 'describe': {
          const d = await client.workflow.getHandle(need('workflowId'), values.run).describe();
          print(json, d, () => {
            const size = d.historySize === undefined ? '' : `, ${d.historySize} bytes`;
            const lines = [
              `Workflow ${d.workflowId}  (${d.type}, run ${d.runId})`,
              `  status     ${d.status}`,
              `  started    ${d.startTime.toISOString()}${d.closeTime ? `\n  closed     ${d.closeTime.toISOString()}` : ''}`,
              `  task queue ${d.taskQueue}`,
              `  history    ${d.historyLength} events${size}, attempt ${d.attempt}`,
            ];
            if (d.cronSchedule !== undefined) lines.push(`  cron       ${d.cronSchedule} (this run scheduled for ${d.executionTime.toISOString()})`);
            if (d.parentExecution) lines.push(`  parent     ${d.parentExecution.workflowId} (run ${d.parentExecution.runId})`);
            if (d.memo && Object.keys(d.memo).length) lines.push(`  memo       ${JSON.stringify(d.memo)}`);
            if (d.searchAttributes) lines.push(`  search attributes ${JSON.stringify(d.searchAttributes)}`);
            if (d.pendingActivities.length) {
              lines.push('', 'Pending activities:', renderTable(
                ['ID', 'TYPE', 'STATE', 'ATTEMPT', 'NEXT ATTEMPT', 'LAST FAILURE'],
                d.pendingActivities.map((a) => [a.activityId, a.activityType, a.state, a.attempt,
                  a.nextAttemptScheduleTime ?? '', a.lastFailure?.message ?? '']),
              ));
            }
            if (d.pendingChildren.length) {
              lines.push('', 'Pending children:', renderTable(
                ['WORKFLOW ID', 'TYPE', 'RUN', 'PARENT CLOSE POLICY'],
                d.pendingChildren.map((c) => [c.workflowId, c.workflowType, c.runId ?? '', c.parentClosePolicy]),
              ));
            }
            lines.push(...workflowTaskLines(d));
            return lines.join('\n');
          });
          return 0;
        }
        case 'history': {
          const { events } = await client.workflow.getHandle(need('workflowId'), values.run).fetchHistory();
          print(json, { events }, () => eventRows(events));
          return 0;
        }
        case 'result': {
          const result = await client.workflow.getHandle(need('workflowId')).result();
          print(json, { result }, () => JSON.stringify(result, null, 2));
          return 0;
        }
        case 'signal': {
          if (!messageName) throw new UsageError('steadfast workflow signal: missing <name>');
          await client.workflow.getHandle(need('workflowId')).signal(messageName, ...readArgs(values));
          print(json, { ok: true }, () => `signal ${messageName} sent to ${target}`);
          return 0;
        }
        case 'query': {
          if (!messageName) throw new UsageError('steadfast workflow query: missing <name>');
          const answer = await client.workflow.getHandle(need('workflowId'), values.run).query(messageName, ...readArgs(values));
          print(json, { result: answer }, () => (typeof answer === 'string' ? answer : JSON.stringify(answer, null, 2)));
          return 0;
        }
        case 'cancel':
          await client.workflow.getHandle(need('workflowId')).cancel(values.reason);
          print(json, { ok: true }, () => `cancellation requested for ${target}`);
          return 0;
        case 'terminate':
          await client.workflow.getHandle(need('workflowId')).terminate(values.reason);
          print(json, { ok: true }, () => `terminated ${target}`);
          return 0;
        case 'reset': {
          refuseTogether(values, ['event-id', 'to']);
          const eventId = parseIntFlag('event-id', values['event-id'], 1);
          const to = values.to === undefined ? undefined : ({ first: 'FirstWorkflowTask', last: 'LastWorkflowTask' } as const)[values.to];
          if (values.to !== undefined && !to) throw new UsageError(`--to must be first or last, got "${values.to}"`);
          if (eventId === undefined && !to) {
            throw new UsageError('steadfast workflow reset: give --event-id <WorkflowTaskCompleted event id> or --to first|last');
          }
          const runId = await client.workflow.getHandle(need('workflowId'), values.run).reset({
            ...(eventId !== undefined ? { eventId } : {}), ...(to ? { type: to } : {}), ...(values.reason ? { reason: values.reason } : {}),
          });
          print(json, { runId }, () => `reset ${target}: new run ${runId}`);
          return 0;
        }
        default:
          throw new UsageError(`steadfast workflow: unknown action "${action}" (run \`steadfast workflow --help\` for the actions)`);
      }
    } finally {
      client.close();
    }
  },
});


