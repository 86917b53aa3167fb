import { Client, WorkflowFailedError, workflowTaskFailing, type WorkflowHandle } from '../client/index.ts';
import { toMs, type Duration } from '../retry/duration.ts';
import { enumFlag, parseFlags, parseIntFlag, refuseTogether, UsageError } from './args.ts';
import { WORKFLOW_STATUSES } from '../history/events.ts';
import { RESET_REAPPLY_EXCLUDE_TYPES, type ResetReapplyExcludeType } from '../protocol/index.ts';
import type { CommandSpec } from './command-spec.ts';
import { connectionFlags, refuseFastOnLoopback } from './connection-flags.ts';
import { renderTable } from './table.ts';
import { OUTPUT_FLAG, useOutput } from './output.ts';
import { actionHelp, ACTIONS, workflowHelp } from './workflow-help.ts';
import { asFlagError, readInputs, START_FLAGS, startOptionsFromFlags } from './workflow-start-flags.ts';
import { describeText, outcomeOf, eventLine, eventLineHeader, eventRows, executionRows, failureText, print } from './workflow-print.ts';
import { RemotePayloadCodec } from '../codec/remote-codec.ts';
import { markEncoded } from './encoded.ts';
import { runBulkCommand, type BulkCommand } from './workflow-bulk.ts';

const FLAGS = {
  address: { type: 'string' }, namespace: { type: 'string' }, 'api-key': { type: 'string' }, 'ca-file': { type: 'string' }, json: { type: 'boolean' }, ...OUTPUT_FLAG, help: { type: 'boolean', short: 'h' },
  'retry-for': { type: 'string' }, ...START_FLAGS,
  wait: { type: 'boolean' }, type: { type: 'string' }, status: { type: 'string' }, 'id-prefix': { type: 'string' },
  query: { type: 'string', short: 'q' }, limit: { type: 'string' }, run: { type: 'string' }, 'run-id': { type: 'string', short: 'r' }, reason: { type: 'string' }, 'event-id': { type: 'string' }, to: { type: 'string' }, 'reapply-exclude': { type: 'string', multiple: true },
  'codec-endpoint': { type: 'string' }, 'command-timeout': { type: 'string' }, follow: { type: 'boolean', short: 'f' }, yes: { type: 'boolean', short: 'y' }, name: { type: 'string' }, concurrency: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseFlags<typeof FLAGS>>['values'];

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

/**
 * The client's codecs for `--codec-endpoint`: payloads are encoded and decoded by that codec
 * server, which is sent the same credential as the server.
 */
function codecEndpoint(endpoint: string | undefined, namespace: string | undefined, apiKey: string | undefined) {
  if (endpoint === undefined) return {};
  try {
    const codec = new RemotePayloadCodec({ endpoint, namespace: namespace ?? 'default', apiKey: apiKey ?? (process.env.STEADFAST_API_KEY || undefined) });
    return { dataConverter: { payloadCodecs: [codec] } };
  } catch {
    throw new UsageError(`--codec-endpoint must be an http:// or https:// URL, got "${endpoint}"`);
  }
}

/** `--command-timeout` in ms (Temporal's flag): how long `update`, `execute`, `result` and `start --wait` wait; undefined waits for ever. */
function commandTimeout(flag: string | undefined): number | undefined {
  if (flag === undefined) return undefined;
  let ms: number;
  try {
    ms = toMs(flag as Duration, '--command-timeout');
  } catch {
    throw new UsageError(`--command-timeout must be a duration such as 30s or 5m, got "${flag}"`);
  }
  if (ms <= 0) throw new UsageError(`--command-timeout must be greater than 0, got "${flag}"`);
  return ms;
}

/** The wait for a result ended at `--command-timeout`; the run goes on. */
class GaveUpWaiting extends Error {}

/** `handle.result()`, or a GaveUpWaiting naming why the run did not close when `timeoutMs` passes first. */
async function resultWithin(handle: WorkflowHandle, timeoutMs: number | undefined): Promise<unknown> {
  const result = handle.result();
  if (timeoutMs === undefined) return result;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void handle.describe().then((d) => workflowTaskFailing(d.raw), () => undefined).then((why) => reject(new GaveUpWaiting(
        `workflow ${handle.workflowId} did not close within --command-timeout ${timeoutMs} ms${why ? `: ${why}` : ' (it is still running)'}`)));
    }, timeoutMs);
  });
  result.catch(() => undefined);
  try {
    return await Promise.race([result, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

const RESET_TO = { first: 'FirstWorkflowTask', last: 'LastWorkflowTask' } as const;

/** The reset point from `--type FirstWorkflowTask|LastWorkflowTask` (Temporal's flag) or `--to first|last`. */
function resetTo(values: Values): 'FirstWorkflowTask' | 'LastWorkflowTask' | undefined {
  refuseTogether(values, ['type', 'to']);
  if (values.type !== undefined) return enumFlag('type', values.type, ['FirstWorkflowTask', 'LastWorkflowTask'] as const);
  if (values.to === undefined) return undefined;
  const to = (RESET_TO as Record<string, 'FirstWorkflowTask' | 'LastWorkflowTask'>)[values.to.toLowerCase()];
  if (!to) throw new UsageError(`--to must be first or last, got "${values.to}"`);
  return to;
}

/**
 * `--reapply-exclude` (Temporal's flag, repeatable or comma-separated): `Signal` and `Update`
 * leave those events after the reset point out of the new run; `All` leaves out both.
 */
function reapplyOf(values: Values): { resetReapplyExcludeTypes?: ResetReapplyExcludeType[] } {
  const given = (values['reapply-exclude'] ?? []).flatMap((v) => v.split(',')).filter((v) => v.trim() !== '');
  if (given.length === 0) return {};
  const kinds = new Set<ResetReapplyExcludeType>();
  for (const v of given) {
    const kind = enumFlag('reapply-exclude', v, ['All', ...RESET_REAPPLY_EXCLUDE_TYPES] as const);
    for (const k of kind === 'All' ? RESET_REAPPLY_EXCLUDE_TYPES : [kind]) kinds.add(k);
  }
  return { resetReapplyExcludeTypes: [...kinds] };
}

/**
 * Waits for the workflow's outcome and prints it. A workflow that failed, timed out, was
 * cancelled or terminated is printed as one line on stderr (with `--json`, its failure on stdout
 * too) and answers exit code 1.
 */
async function printOutcome(action: string, handle: WorkflowHandle, runId: string | undefined, json: boolean, timeoutMs?: number): Promise<number> {
  try {
    const result = await resultWithin(handle, timeoutMs);
    print(json, { workflowId: handle.workflowId, ...(runId ? { runId } : {}), status: 'Completed', result },
      () => (action === 'result' ? JSON.stringify(result, markEncoded, 2) : `completed ${handle.workflowId}: ${JSON.stringify(result, markEncoded)}`));
    return 0;
  } catch (err) {
    if (err instanceof GaveUpWaiting) {
      console.error(`steadfast workflow ${action}: ${err.message}`);
      return 1;
    }
    if (!(err instanceof WorkflowFailedError)) throw err;
    if (json) print(json, { workflowId: err.workflowId, runId: err.runId, status: err.status, failure: err.failure }, () => '');
    console.error(`steadfast workflow ${action}: workflow ${err.workflowId} ${err.status} (run ${err.runId}): ${failureText(err.failure)}`);
    return 1;
  }
}

/** The bulk form of cancel, terminate, signal and reset, from its flags. */
function bulkCommand(action: BulkCommand['action'], values: Values, positionals: string[]): BulkCommand {
  const query = values.query!;
  const extra = action === 'signal' ? 1 : 0;
  if (positionals.length > 1 + extra) {
    throw new UsageError(`steadfast workflow ${action}: give a workflow id or --query, not both`);
  }
  refuseTogether(values, ['workflow-id', 'query']);
  refuseTogether(values, ['id', 'query']);
  const reason = values.reason !== undefined ? { reason: values.reason } : {};
  let operation: BulkCommand['operation'];
  if (action === 'signal') {
    const signalName = positionals[1] ?? values.name;
    if (!signalName) throw new UsageError('steadfast workflow signal --query: missing the signal <name>');
    operation = { type: 'signal', signalName, args: readInputs(values) };
  } else if (action === 'reset') {
    if (values['event-id'] !== undefined) throw new UsageError('--event-id names an event of one run: with --query use --type FirstWorkflowTask|LastWorkflowTask');
    const resetType = resetTo(values);
    if (!resetType) throw new UsageError('steadfast workflow reset --query: give --type FirstWorkflowTask|LastWorkflowTask');
    operation = { type: 'reset', resetType, ...reason, ...reapplyOf(values) };
  } else {
    operation = { type: action, ...reason };
  }
  const concurrency = parseIntFlag('concurrency', values.concurrency, 1);
  if (concurrency !== undefined && concurrency > 100) throw new UsageError(`--concurrency must be <= 100, got ${concurrency}`);
  return { action, query, operation, yes: values.yes ?? false, json: values.json ?? false, ...(concurrency !== undefined ? { concurrency } : {}) };
}

async function runAction(client: Client, action: string, values: Values, positionals: string[]): Promise<number> {
  const json = values.json ?? false;
  const [target, second] = positionals;
  // `--workflow-id` (or `--id`) may stand for the positional <workflowId>, as in Temporal's CLI.
  const idFlag = values['workflow-id'] ?? values.id;
  const [workflowId, messageName] = idFlag !== undefined ? [idFlag, target] : [target, second];
  refuseTogether(values, ['run', 'run-id']);
  const runId = values.run ?? values['run-id'];
  const need = (what: string) => {
    const id = what === 'workflowId' ? workflowId : target;
    if (!id) throw new UsageError(`steadfast workflow ${action}: missing <${what}> (run \`steadfast workflow ${action} --help\` for usage)`);
    return id;
  };
  const needName = () => {
    const name = messageName ?? values.name;
    if (!name) throw new UsageError(`steadfast workflow ${action}: missing <name>`);
    return name;
  };
  switch (action) {
    case 'start':
    case 'execute': {
      const type = target ?? values.type;
      if (!type) throw new UsageError(`steadfast workflow ${action}: missing <type> (run \`steadfast workflow ${action} --help\` for usage)`);
      const options = startOptionsFromFlags(values);
      const handle = await client.workflow.start(type, options).catch((err: unknown) => {
        throw asFlagError(err, values);
      });
      const started = { workflowId: handle.workflowId, runId: handle.firstExecutionRunId };
      if (action === 'start' && !values.wait) {
        print(json, started, () => `started ${started.workflowId} (run ${started.runId})`);
        return 0;
      }
      return printOutcome(action, handle, started.runId, json, commandTimeout(values['command-timeout']));
    }
    case 'list': {
      const limit = parseIntFlag('limit', values.limit, 1) ?? 50;
      const rows: Parameters<typeof executionRows>[0] = [];
      if (values.query !== undefined && (values.type || values.status || values['id-prefix'])) {
        throw new UsageError('steadfast workflow list: --query cannot be combined with --type, --status or --id-prefix; write them in the query');
      }
      for await (const e of client.workflow.list({
        ...(values.query !== undefined ? { query: values.query } : {}),
        ...(values.type ? { workflowType: values.type } : {}),
        ...(values.status ? { status: enumFlag('status', values.status, WORKFLOW_STATUSES) } : {}),
        ...(values['id-prefix'] ? { workflowIdPrefix: values['id-prefix'] } : {}),
        pageSize: Math.min(limit, 1000),
      })) {
        rows.push(e.raw);
        if (rows.length >= limit) break;
      }
      print(json, rows, () => (rows.length ? executionRows(rows) : 'no workflows match'));
      return 0;
    }
    case 'count': {
      const answer = await client.workflow.count(values.query !== undefined ? { query: values.query } : {});
      print(json, answer, () => (answer.groups.length > 0
        ? renderTable(['VALUE', 'COUNT'], [...answer.groups.map((g) => [g.value === null ? '(none)' : String(g.value), g.count]), ['total', answer.count]])
        : String(answer.count)));
      return 0;
    }
    case 'describe': {
      const handle = client.workflow.getHandle(need('workflowId'), runId);
      const d = await handle.describe();
      const outcome = d.closeTime ? outcomeOf((await client.workflow.getHandle(d.workflowId, d.runId).fetchHistory()).events.at(-1)) : {};
      print(json, Object.keys(outcome).length ? { ...d, ...outcome } : d, () => describeText(d, undefined, outcome));
      return 0;
    }
    case 'history':
    case 'show': {
      const handle = client.workflow.getHandle(need('workflowId'), runId);
      if (!values.follow) {
        const history = await handle.fetchHistory();
        print(json, history, () => eventRows(history.events));
        return 0;
      }
      // One line per event as it arrives: JSON lines for scripts, fixed columns for people.
      if (!json) console.log(eventLineHeader());
      for await (const e of handle.followHistory()) console.log(json ? JSON.stringify(e) : eventLine(e));
      return 0;
    }
    case 'result':
      return printOutcome('result', client.workflow.getHandle(need('workflowId')), undefined, json, commandTimeout(values['command-timeout']));
    case 'signal': {
      const name = needName();
      await client.workflow.getHandle(need('workflowId')).signal(name, ...readInputs(values));
      print(json, { ok: true }, () => `signal ${name} sent to ${need('workflowId')}`);
      return 0;
    }
    case 'query':
    case 'stack': {
      const queryName = action === 'stack' ? '__stack_trace' : needName();
      const answer = await client.workflow.getHandle(need('workflowId'), runId).query(queryName, ...readInputs(values));
      print(json, { result: answer }, () => (typeof answer === 'string' ? answer : JSON.stringify(answer, null, 2)));
      return 0;
    }
    case 'update': {
      const handle = client.workflow.getHandle(need('workflowId'), runId);
      const update = () => handle.executeUpdate(needName(), { args: readInputs(values) });
      const ms = commandTimeout(values['command-timeout']);
      const result = ms === undefined ? await update() : await client.withDeadline(Date.now() + ms, update);
      print(json, { result }, () => JSON.stringify(result, null, 2));
      return 0;
    }
    case 'cancel':
      await client.workflow.getHandle(need('workflowId')).cancel(values.reason);
      print(json, { ok: true }, () => `cancellation requested for ${need('workflowId')}`);
      return 0;
    case 'terminate':
      await client.workflow.getHandle(need('workflowId')).terminate(values.reason);
      print(json, { ok: true }, () => `terminated ${need('workflowId')}`);
      return 0;
    case 'delete': {
      await client.workflow.getHandle(need('workflowId'), runId).delete();
      print(json, { ok: true }, () => `deleted ${need('workflowId')}${runId ? ` (run ${runId})` : ''}`);
      return 0;
    }
    case 'reset': {
      refuseTogether(values, ['event-id', 'to']);
      refuseTogether(values, ['event-id', 'type']);
      const eventId = parseIntFlag('event-id', values['event-id'], 1);
      const to = resetTo(values);
      if (eventId === undefined && !to) {
        throw new UsageError('steadfast workflow reset: give --event-id <WorkflowTaskCompleted event id> or --type FirstWorkflowTask|LastWorkflowTask');
      }
      const newRunId = await client.workflow.getHandle(need('workflowId'), runId).reset({
        ...(eventId !== undefined ? { eventId } : {}), ...(to ? { type: to } : {}), ...(values.reason ? { reason: values.reason } : {}), ...reapplyOf(values),
      });
      print(json, { runId: newRunId }, () => `reset ${need('workflowId')}: new run ${newRunId}`);
      return 0;
    }
    default:
      throw new UsageError(`steadfast workflow: unknown action "${action}" (run \`steadfast workflow --help\` for the actions)`);
  }
}

const BULK_ACTIONS = new Set(['cancel', 'terminate', 'signal', 'reset']);

/** `steadfast workflow`. */
export const workflowCommand = {
  name: 'workflow',
  summary: 'Start, execute, list, describe, follow, signal, query, update, cancel, terminate or reset workflows (one, or by --query)',
  async run(argv) {
    const { values, positionals } = parseFlags('workflow', argv, FLAGS, true);
    const [action, ...rest] = positionals;
    if (values.help || !action) {
      console.log((action && actionHelp(action)) || workflowHelp());
      return values.help ? 0 : 2;
    }
    if (!ACTIONS[action]) throw new UsageError(`steadfast workflow: unknown action "${action}" (run \`steadfast workflow --help\` for the actions)`);
    values.json = useOutput(values);
    const bulk = BULK_ACTIONS.has(action) && values.query !== undefined
      ? bulkCommand(action as BulkCommand['action'], values, [action, ...rest]) : undefined;
    const address = values.address ?? process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233';
    await refuseFastOnLoopback(address, values['retry-for']);
    const client = new Client({
      address,
      // A person at a terminal would rather hear within seconds that the server is down than
      // wait out the library's 90-second window; scripts that ride through restarts raise it.
      retry: { timeout: retryWindow(values['retry-for']) },
      ...(values.namespace ? { namespace: values.namespace } : {}),
      ...connectionFlags(address, values['api-key'], values['ca-file']),
      ...codecEndpoint(values['codec-endpoint'] ?? (process.env.STEADFAST_CODEC_ENDPOINT || undefined), values.namespace, values['api-key']),
      // While `update`, `execute` or `result` waits on a run whose workflow task keeps failing, a line says why.
      logger: { warn: (message) => console.error(`steadfast workflow ${action}: ${message}`) },
    });
    try {
      return bulk ? await runBulkCommand(client, bulk) : await runAction(client, action, values, rest);
    } finally {
      client.close();
    }
  },
} satisfies CommandSpec;
