/** One action of `steadfast workflow`: its usage line, what it does, its own options and an example. */
interface ActionHelp {
  usage: string;
  summary: string;
  options?: string;
  example: string;
}

const START_OPTIONS = `  --type <type>                      the workflow type, instead of the positional <type>
  -t, --task-queue <q>               the queue a worker polls (required)
  -w, --workflow-id <id>             business id (alias --id; default a random UUID)
  -i, --input <json>                 one argument as JSON; repeat for more: --input '"o-1"' --input 100
  --input-file <file>                one argument per file (repeatable); or --args '<json array>' / --args-file f.json
  --execution-timeout <dur>          bounds the whole chain of runs (90s, 1h30m, 1.5h, 2 days)
  --run-timeout <dur>                bounds one run
  --task-timeout <dur>               bounds one workflow task (default 10s)
  --retry-initial-interval <dur>     the workflow retry policy (workflows do not retry unless given one)
  --retry-backoff-coefficient <n>
  --retry-maximum-interval <dur>
  --retry-maximum-attempts <n>       0 = unlimited, 1 = no retries
  --retry-non-retryable-error-types <A,B>
  --id-reuse-policy <policy>         AllowDuplicate | AllowDuplicateFailedOnly | RejectDuplicate | TerminateIfRunning
  --id-conflict-policy <policy>      when a run of the id is running: Fail | UseExisting | TerminateExisting (any case)
  --start-delay <dur>                the first workflow task waits this long ('10m'); a signal ends the wait
  --cron '<spec>'                    a cron job: '30 2 * * *', '@daily', '@every 1h', 'CRON_TZ=Europe/Paris 0 8 * * *'
  --memo key=<json>                  repeatable: --memo customer='"c-9"'
  --search-attribute key=<json>      repeatable; the attribute must be registered (steadfast search-attribute create)
  --static-summary <text>            a one-line summary, shown by describe, the list and the web UI
  --static-details <text>            longer details (Temporal markdown), shown by describe and the web UI`;

const WAIT_OPTIONS = `  --command-timeout <dur>            give up waiting after this long (exit 1, saying why the run did not move); default: wait`;

const BULK_OPTIONS = `  -q, --query '<filter>'  act on every run the filter matches, instead of one workflow id
  -y, --yes               do not ask for confirmation (required when stdin is not a terminal)
  --concurrency <n>       calls in flight at once (default 8)`;

/** Every action, in the order `steadfast workflow --help` lists them. */
export const ACTIONS: Record<string, ActionHelp> = {
  start: {
    usage: 'start <type> --task-queue <q> [start options] [--wait [--command-timeout <dur>]]',
    summary: 'start a workflow; --wait waits for its result',
    options: `${START_OPTIONS}\n${WAIT_OPTIONS}`,
    example: `steadfast workflow start order --task-queue orders --workflow-id order-1 --input '"o-1"' --input 100 \\
      --retry-maximum-attempts 3 --execution-timeout 1h --memo customer='"c-9"'`,
  },
  execute: {
    usage: 'execute <type> --task-queue <q> [start options] [--command-timeout <dur>]',
    summary: 'start a workflow and wait for its result; exits 1 printing the failure when it fails',
    options: `${START_OPTIONS}\n${WAIT_OPTIONS}`,
    example: `steadfast workflow execute order --task-queue orders --input '"o-1"' --input 100`,
  },
  list: {
    usage: "list [--query '<filter>'] [--type <t>] [--status <s>] [--id-prefix <p>] [--limit 50]",
    summary: 'runs, newest first',
    options: `  --status <s>            Running | Completed | Failed | Canceled | Terminated | ContinuedAsNew | TimedOut (any case)
  --limit <n>             at most this many (default 50)`,
    example: `steadfast workflow list --query "WorkflowType = 'order' AND ExecutionStatus = 'Running'"`,
  },
  count: {
    usage: "count [--query '<filter>']",
    summary: 'how many runs match; GROUP BY answers a count per value',
    example: `steadfast workflow count --query 'GROUP BY ExecutionStatus'`,
  },
  describe: {
    usage: 'describe <workflowId> [--run <runId>]',
    summary: 'status, times, timeouts, summary and details, retry policy, memo, search attributes, pending activities and children',
    example: 'steadfast workflow describe order-1',
  },
  history: {
    usage: 'history <workflowId> [--run <runId>] [--follow]',
    summary: 'the run\'s events; --follow prints them as they are appended until the run closes',
    example: 'steadfast workflow history order-1 --follow',
  },
  show: {
    usage: 'show <workflowId> [--run <runId>] [--follow]',
    summary: 'the run\'s events (Temporal\'s name for history)',
    example: 'steadfast workflow show order-1 -o jsonl',
  },
  result: {
    usage: 'result <workflowId> [--command-timeout <dur>]',
    summary: 'wait for the outcome (follows retries and continue-as-new); exits 1 when the workflow fails. '
      + 'While the run\'s workflow task keeps failing, a line on stderr says why',
    options: WAIT_OPTIONS,
    example: 'steadfast workflow result order-1 --json',
  },
  signal: {
    usage: "signal (<workflowId> | --query '<filter>') <name> [--input <json> ...]",
    summary: 'send a signal to one workflow, or to every running one a query matches (the name may be given as --name)',
    options: BULK_OPTIONS,
    example: `steadfast workflow signal order-1 addItem --input '"pen"'
  steadfast workflow signal --query "WorkflowType = 'order'" finish --yes`,
  },
  query: {
    usage: 'query <workflowId> <name> [--input <json> ...]',
    summary: 'ask a query (__stack_trace shows where the workflow waits; the name may be given as --name)',
    example: 'steadfast workflow query order-1 __stack_trace',
  },
  stack: {
    usage: 'stack <workflowId> [--run <runId>]',
    summary: 'where the workflow waits (the __stack_trace query)',
    example: 'steadfast workflow stack order-1',
  },
  update: {
    usage: 'update <workflowId> <name> [--input <json> ...] [--command-timeout <dur>]',
    summary: 'send an update and print its result; exits 1 when its validator or handler rejects it (the name may be given as --name). '
      + 'While the run\'s workflow task keeps failing, a line on stderr says why',
    options: WAIT_OPTIONS,
    example: `steadfast workflow update order-1 setLimit --input 5`,
  },
  cancel: {
    usage: "cancel (<workflowId> | --query '<filter>') [--reason <text>]",
    summary: 'ask the workflow to cancel',
    options: BULK_OPTIONS,
    example: `steadfast workflow cancel order-1
  steadfast workflow cancel --query "WorkflowType = 'order' AND ExecutionStatus = 'Running'" --reason 'bad deploy'`,
  },
  delete: {
    usage: 'delete <workflowId> [--run <runId>]',
    summary: 'delete a run with its history and visibility record; a running run is terminated first',
    example: 'steadfast workflow delete order-1',
  },
  terminate: {
    usage: "terminate (<workflowId> | --query '<filter>') [--reason <text>]",
    summary: 'end the run at once',
    options: BULK_OPTIONS,
    example: `steadfast workflow terminate order-1 --reason 'duplicate'
  steadfast workflow terminate --query "WorkflowType = 'order' AND StartTime < '2026-01-01T00:00:00Z'" --yes --json`,
  },
  reset: {
    usage: "reset (<workflowId> (--event-id <n> | --type <t>) [--run <runId>] | --query '<filter>' --type <t>) [--reason <text>] [--reapply-exclude Signal|Update|All]...",
    summary: 'terminate the open run; a new run replays up to that workflow task and carries on',
    options: `  --event-id <n>          a WorkflowTaskCompleted event of the run
  --type <t>              FirstWorkflowTask | LastWorkflowTask (alias --to first|last)
  --reapply-exclude <k>   do not re-apply these events after the reset point: Signal, Update, or All (both);
                          repeat the flag or separate by commas (default: re-apply signals and updates)
${BULK_OPTIONS}`,
    example: `steadfast workflow reset order-1 --type LastWorkflowTask
  steadfast workflow reset --query "WorkflowType = 'order' AND ExecutionStatus = 'Failed'" --to last --yes`,
  },
};

const COMMON = `Common options:
  -w, --workflow-id <id>  the workflow, instead of the positional <workflowId> (start: the new workflow's id)
  -r, --run-id <runId>    a run of it (alias --run; default the latest)
  --address <url>         server address (default $STEADFAST_ADDRESS or http://127.0.0.1:7233)
  --retry-for <dur>       how long to keep retrying while the server is unavailable (default 10s)
  --namespace <ns>        namespace (default "default")
  --api-key <key>         credential sent as a bearer token (default $STEADFAST_API_KEY)
  --ca-file <pem>         CA certificate trusted for an https:// server (default $STEADFAST_CA_FILE)
  --codec-endpoint <url>  decode (and encode) payloads through this codec server, sent the same credential
                          (default $STEADFAST_CODEC_ENDPOINT; without it encoded payloads print as <encoded …>)
  --json                  print JSON for scripts instead of a table
  -o, --output <format>   table (default), json, or jsonl (one JSON value a line)
  -h, --help              show this help`;

/** `steadfast workflow --help`: every action with its usage, and an example. */
export function workflowHelp(): string {
  const lines = ['Usage: steadfast workflow <action> [options]', '', 'Actions:'];
  for (const a of Object.values(ACTIONS)) lines.push(`  ${a.usage}`, `      ${a.summary}`);
  lines.push('', 'Run `steadfast workflow <action> --help` for the options and an example of each.', '',
    'Example:', `  ${ACTIONS.start!.example}`, '', COMMON,
    '', 'Exit codes: 0 done, 1 the operation failed (or the workflow did), 2 bad usage.');
  return lines.join('\n');
}

/** `steadfast workflow <action> --help`. */
export function actionHelp(action: string): string | undefined {
  const a = ACTIONS[action];
  if (!a) return undefined;
  return [
    `Usage: steadfast workflow ${a.usage}`, '', `${a.summary[0]!.toUpperCase()}${a.summary.slice(1)}.`,
    ...(a.options ? ['', 'Options:', a.options] : []),
    '', 'Example:', `  ${a.example}`, '', COMMON,
  ].join('\n');
}
