import { readFileSync } from 'node:fs';
import { Client } from '../client/index.ts';

import type { HistoryEvent } from '../history/events.ts';
import type { WorkflowExecutionInfo } from '../history/service.ts';
import { parseFlags, UsageError } from './args.ts';
import { register } from './main.ts';
import { renderTable } from './table.ts';

const COMMON = `Common options:
  --address <url>    server address (default $STEADFAST_ADDRESS or http://127.0.0.1:7233)
  --namespace <ns>   namespace (default "default")
  --json             print JSON for scripts instead of a table
  -h, --help         show this help`;

const HELP = `Usage: steadfast workflow <action> [options]

Actions:
  start <type> --task-queue <q> [--id <id>] [--args '<json array>' | --args-file f.json] [--wait]
  list [--type <t>] [--status <s>] [--id-prefix <p>] [--limit 50]
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
  address: { type: 'string' }, namespace: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  'task-queue': { type: 'string' }, id: { type: 'string' }, args: { type: 'string' }, 'args-file': { type: 'string' },
  wait: { type: 'boolean' }, type: { type: 'string' }, status: { type: 'string' }, 'id-prefix': { type: 'string' },
  limit: { type: 'string' }, run: { type: 'string' }, reason: { type: 'string' }, 'event-id': { type: 'string' }, to: { type: 'string' },
} as const;

/** The JSON array of `--args` or `--args-file`; an empty list when neither is given. */
function readArgs(values: { args?: string; 'args-file'?: string }): unknown[] {
  const text = values['args-file'] ? readFileSync(values['args-file'], 'utf8') : values.args;
  if (text === undefined) return [];
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--args must be a JSON array, e.g. '["o-1", 2]': ${(err as Error).message}`);
  }
  if (!Array.isArray(args)) throw new UsageError(`--args must be a JSON array, e.g. '["o-1", 2]'`);
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
  summary: 'Start, list, describe, signal, query, cancel, reset or terminate workflows on a server',
  async run(argv) {
    const { values, positionals } = parseFlags('workflow', argv, FLAGS, true);
    const [action, target, messageName] = positionals;
    if (values.help || !action) {
      console.log(HELP);
      return values.help ? 0 : 2;
    }
    const json = values.json ?? false;
    const client = new Client({
      address: values.address ?? process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233',
      ...(values.namespace ? { namespace: values.namespace } : {}),
    });
    const need = (what: string) => {
      if (!target) throw new UsageError(`steadfast workflow ${action}: missing <${what}>\nRun \`steadfast workflow --help\` for usage.`);
      return target;
    };
    try {
      switch (action) {
        case 'start': {
          const type = need('type');
          if (!values['task-queue']) throw new UsageError('steadfast workflow start: --task-queue is required');
          const args = readArgs(values);
          const handle = await client.workflow.start(type, {
            taskQueue: values['task-queue'], args, ...(values.id ? { workflowId: values.id } : {}),
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
          const limit = values.limit === undefined ? 50 : Number(values.limit);
          if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a positive integer, got "${values.limit}"`);
          const rows: WorkflowExecutionInfo[] = [];
          for await (const e of client.workflow.list({
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
        case 'describe': {
          const d = await client.workflow.getHandle(need('workflowId'), values.run).describe();
          print(json, d, () => {
            const e = d.execution;
            const lines = [
              `Workflow ${e.workflowId}  (${e.workflowType}, run ${e.runId})`,
              `  status     ${e.status}`,
              `  started    ${e.startTime}${e.closeTime ? `\n  closed     ${e.closeTime}` : ''}`,
              `  task queue ${e.taskQueue}`,
              `  history    ${e.historyLength} events, attempt ${e.attempt}`,
            ];
            if (e.memo && Object.keys(e.memo).length) lines.push(`  memo       ${JSON.stringify(e.memo)}`);
            if (d.pendingActivities.length) {
              lines.push('', 'Pending activities:', renderTable(
                ['ID', 'TYPE', 'STATE', 'ATTEMPT', 'NEXT ATTEMPT', 'LAST FAILURE'],
                d.pendingActivities.map((a) => [a.activityId, a.activityType, a.state, a.attempt,
                  a.nextAttemptScheduleTime ?? '', a.lastFailure?.message ?? '']),
              ));
            }
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
          const eventId = values['event-id'] === undefined ? undefined : Number(values['event-id']);
          const to = values.to === undefined ? undefined : ({ first: 'FirstWorkflowTask', last: 'LastWorkflowTask' } as const)[values.to];
          if ((eventId === undefined) === (values.to === undefined) || (values.to !== undefined && !to)) {
            throw new UsageError('steadfast workflow reset: give --event-id <WorkflowTaskCompleted event id> or --to first|last');
          }
          const runId = await client.workflow.getHandle(need('workflowId'), values.run).reset({
            ...(eventId !== undefined ? { eventId } : {}), ...(to ? { type: to } : {}), ...(values.reason ? { reason: values.reason } : {}),
          });
          print(json, { runId }, () => `reset ${target}: new run ${runId}`);
          return 0;
        }
        default:
          throw new UsageError(`steadfast workflow: unknown action "${action}"\n\n${HELP}`);
      }
    } finally {
      client.close();
    }
  },
});


