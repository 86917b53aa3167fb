import { ApplicationFailure } from '../common/failure.ts';
import { Client } from '../client/index.ts';
import { parseFlags, UsageError } from './args.ts';
import { connectionFlags } from './connection-flags.ts';
import type { CommandSpec } from './command-spec.ts';
import { retryWindow } from './workflow.ts';

const HELP = `Usage: steadfast activity <action> --workflow-id <id> --activity-id <id> [options]

Completes or fails a started activity from outside the worker, as \`temporal activity\`: for an
activity that threw CompleteAsyncError (or any activity whose attempt is running).

Actions:
  complete             completes the activity with --result
  fail                 fails the attempt with --reason (and --detail); its retry policy decides
                       whether another attempt follows

Options:
  -w, --workflow-id <id>   the workflow that scheduled the activity
  -r, --run-id <id>        its run (default: the workflow id's latest run)
  --activity-id <id>       the activity's id (describe's pendingActivities[].activityId)
  --result <json>          complete: the result, as JSON (default null)
  --reason <text>          fail: the failure's message (default "failed from the command line")
  --detail <json>          fail: the failure's details, as JSON
  --identity <name>        recorded as who completed or failed it (default the CLI's identity)
  --namespace <ns>         the namespace (default "default")
  --address <url>          server address (default $STEADFAST_ADDRESS or http://127.0.0.1:7233)
  --api-key <key>          credential (default $STEADFAST_API_KEY)
  --ca-file <pem>          CA to trust for an https:// address (default $STEADFAST_CA_FILE)
  --retry-for <dur>        how long to keep retrying while the server is unavailable (default 10s)
  -h, --help               show this help

Example:
  steadfast activity complete --workflow-id expense-42 --activity-id 1 --result '"approved"'
  steadfast activity fail --workflow-id expense-42 --activity-id 1 --reason "rejected" --detail '{"by":"ann"}'`;

const FLAGS = {
  'workflow-id': { type: 'string', short: 'w' }, 'run-id': { type: 'string', short: 'r' }, 'activity-id': { type: 'string' },
  result: { type: 'string' }, reason: { type: 'string' }, detail: { type: 'string' }, identity: { type: 'string' },
  address: { type: 'string' }, 'api-key': { type: 'string' }, 'ca-file': { type: 'string' }, 'retry-for': { type: 'string' },
  help: { type: 'boolean', short: 'h' }, namespace: { type: 'string' },
} as const;

function parseJson(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag} must be JSON, e.g. ${flag} '"approved"' or ${flag} '{"id": 1}': ${(err as Error).message}`);
  }
}

/** `steadfast activity`. */
export const activityCommand = {
  name: 'activity',
  summary: 'Complete or fail a started activity by workflow id and activity id',
  async run(argv) {
    const { values: v, positionals } = parseFlags('activity', argv, FLAGS, true);
    const [action, extra] = positionals;
    if (v.help || !action) {
      console.log(HELP);
      return v.help ? 0 : 2;
    }
    if (action !== 'complete' && action !== 'fail') {
      throw new UsageError(`steadfast activity: unknown action "${action}" (run \`steadfast activity --help\` for the actions)`);
    }
    if (extra !== undefined) throw new UsageError(`steadfast activity ${action}: unexpected argument "${extra}" (run \`steadfast activity --help\` for usage)`);
    const workflowId = v['workflow-id'];
    const activityId = v['activity-id'];
    if (workflowId === undefined || activityId === undefined) {
      throw new UsageError(`steadfast activity ${action}: give --workflow-id and --activity-id`);
    }
    if (action === 'complete' && (v.reason !== undefined || v.detail !== undefined)) {
      throw new UsageError('steadfast activity complete: --reason and --detail are for fail; complete takes --result');
    }
    if (action === 'fail' && v.result !== undefined) throw new UsageError('steadfast activity fail: --result is for complete; fail takes --reason and --detail');
    const result = v.result === undefined ? null : parseJson('--result', v.result);
    const details = v.detail === undefined ? [] : [parseJson('--detail', v.detail)];
    const address = v.address ?? process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233';
    const client = new Client({
      address, retry: { timeout: retryWindow(v['retry-for']) }, ...connectionFlags(address, v['api-key'], v['ca-file']),
      ...(v.namespace !== undefined ? { namespace: v.namespace } : {}), ...(v.identity !== undefined ? { identity: v.identity } : {}),
    });
    const id = { workflowId, activityId, ...(v['run-id'] !== undefined ? { runId: v['run-id'] } : {}) };
    try {
      if (action === 'complete') await client.activity.complete(id, result);
      else await client.activity.fail(id, ApplicationFailure.create({ message: v.reason ?? 'failed from the command line', details }));
      console.log(`Activity ${activityId} of workflow ${workflowId} ${action === 'complete' ? 'completed' : 'failed'}.`);
      return 0;
    } finally {
      client.close();
    }
  },
} satisfies CommandSpec;
