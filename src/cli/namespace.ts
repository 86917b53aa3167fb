import { Client, type NamespaceDescription, type NamespaceUpdateOptions } from '../client/index.ts';
import type { Duration } from '../retry/duration.ts';
import { formatMs } from '../retry/duration.ts';
import { parseFlags, UsageError } from './args.ts';
import { OUTPUT_FLAG, printOutput, useOutput } from './output.ts';
import { connectionFlags, refuseFastOnLoopback } from './connection-flags.ts';
import type { CommandSpec } from './command-spec.ts';
import { renderTable } from './table.ts';
import { retryWindow } from './workflow.ts';
import { confirm } from './workflow-bulk.ts';
import { DEFAULT_NAMESPACE } from '../common/ids.ts';

const HELP = `Usage: steadfast namespace <action> [options]

Every call names a registered namespace; "default" exists from the start (retention 3 days).

Actions:
  create --name <ns> [--retention <dur>] [--description <text>] [--owner-email <email>]
                       register a namespace (retention default 3 days, at least 1 day)
  describe [--name <ns>]
                       its state, description, owner, retention and times (default: "default")
  list                 every registered namespace (with authentication on: those you may read)
  update --name <ns> [--retention <dur>] [--description <text>] [--owner-email <email>]
                       change what is given; a new retention applies to runs already closed too
  delete --name <ns> [--yes]
                       delete the namespace: it is refused at once on every server, and its
                       workflows (running ones too), histories and schedules are deleted in the
                       background; asks to confirm unless --yes ("default" cannot be deleted)

Closed runs older than their namespace's retention are deleted with their history.
With authentication on, create, update and delete need system:admin; describe needs the reader role.

Options:
  --address <url>      server address (default $STEADFAST_ADDRESS or http://127.0.0.1:7233)
  --api-key <key>      credential (default $STEADFAST_API_KEY)
  --ca-file <pem>      CA to trust for an https:// address (default $STEADFAST_CA_FILE)
  --retry-for <dur>    how long to keep retrying while the server is unavailable (default 10s)
  --json, -o json|jsonl|table
                       print JSON (pretty, or one line per item) for scripts instead of a table
  -y, --yes            delete without asking (required when stdin is not a terminal)
  -h, --help           show this help

Example:
  steadfast namespace create --name orders --retention 30d --description "order workflows"
  steadfast workflow start order --namespace orders --task-queue orders --input '"o-1"'
  steadfast namespace delete --name orders --yes`;

const FLAGS = {
  address: { type: 'string' }, 'api-key': { type: 'string' }, 'ca-file': { type: 'string' }, 'retry-for': { type: 'string' },
  json: { type: 'boolean' }, ...OUTPUT_FLAG, help: { type: 'boolean', short: 'h' },
  name: { type: 'string' }, retention: { type: 'string' }, description: { type: 'string' }, 'owner-email': { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
} as const;

type Values = ReturnType<typeof parseFlags<typeof FLAGS>>['values'];

/** The create/update options the flags give. */
function changesOf(v: Values): NamespaceUpdateOptions {
  return {
    ...(v.retention !== undefined ? { retention: v.retention as Duration } : {}),
    ...(v.description !== undefined ? { description: v.description } : {}),
    ...(v['owner-email'] !== undefined ? { ownerEmail: v['owner-email'] } : {}),
  };
}

/** A namespace as `describe` prints it for people. */
function describeText(d: NamespaceDescription): string {
  return [
    `Name:         ${d.name}`,
    `State:        ${d.state}`,
    `Retention:    ${formatMs(d.workflowExecutionRetentionPeriodMs)} (${d.workflowExecutionRetentionPeriodMs} ms)`,
    `Description:  ${d.description}`,
    `Owner email:  ${d.ownerEmail ?? ''}`,
    `Created:      ${d.createTime}`,
    `Updated:      ${d.updateTime}`,
  ].join('\n');
}

/** `steadfast namespace`. */
export const namespaceCommand = {
  name: 'namespace',
  summary: 'Create, describe, list, update or delete namespaces (each with its retention)',
  async run(argv) {
    const { values: v, positionals } = parseFlags('namespace', argv, FLAGS, true);
    const [action, positional, extra] = positionals;
    if (v.help || !action) {
      console.log(HELP);
      return v.help ? 0 : 2;
    }
    if (extra !== undefined || (positional !== undefined && v.name !== undefined)) {
      throw new UsageError(`steadfast namespace ${action}: give the namespace once, with --name (run \`steadfast namespace --help\` for usage)`);
    }
    const name = v.name ?? positional;
    const address = v.address ?? process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233';
    await refuseFastOnLoopback(address, v['retry-for']);
    const client = new Client({ address, retry: { timeout: retryWindow(v['retry-for']) }, ...connectionFlags(address, v['api-key'], v['ca-file']) });
    const need = () => {
      if (name === undefined) throw new UsageError(`steadfast namespace ${action}: --name is required (run \`steadfast namespace --help\` for usage)`);
      return name;
    };
    const json = useOutput(v);
    const out = (value: unknown, human: string) => printOutput(json, value, () => human);
    try {
      switch (action) {
        case 'create': {
          const d = await client.namespace.create({ name: need(), ...changesOf(v) });
          out(d, `registered namespace ${d.name} (retention ${formatMs(d.workflowExecutionRetentionPeriodMs)})`);
          return 0;
        }
        case 'describe': {
          const d = await client.namespace.describe(name);
          out(d, describeText(d));
          return 0;
        }
        case 'list': {
          const all: NamespaceDescription[] = [];
          for await (const d of client.namespace.list()) all.push(d);
          out(all, renderTable(['NAME', 'STATE', 'RETENTION', 'OWNER', 'DESCRIPTION'], all.map((d) => [
            d.name, d.state, formatMs(d.workflowExecutionRetentionPeriodMs), d.ownerEmail ?? '', d.description,
          ])));
          return 0;
        }
        case 'update': {
          const changes = changesOf(v);
          if (Object.keys(changes).length === 0) {
            throw new UsageError('steadfast namespace update: give at least one of --retention, --description, --owner-email');
          }
          const d = await client.namespace.update(need(), changes);
          out(d, `updated namespace ${d.name} (retention ${formatMs(d.workflowExecutionRetentionPeriodMs)})`);
          return 0;
        }
        case 'delete': {
          const target = need();
          if (target === DEFAULT_NAMESPACE) throw new UsageError('steadfast namespace delete: the default namespace cannot be deleted');
          if (!v.yes) {
            const what = `namespace ${target} with all its workflows, histories and schedules`;
            if (!process.stdin.isTTY) throw new UsageError(`steadfast namespace delete: would delete ${what}; stdin is not a terminal to confirm it, so add --yes`);
            if (!(await confirm(`Delete ${what}? [y/N] `))) {
              console.error('steadfast namespace delete: not confirmed; nothing was done');
              return 1;
            }
          }
          await client.namespace.delete(target);
          out({ deletedNamespace: target }, `deleted namespace ${target}; its data is being removed`);
          return 0;
        }
        default:
          throw new UsageError(`steadfast namespace: unknown action "${action}" (run \`steadfast namespace --help\` for the actions)`);
      }
    } finally {
      client.close();
    }
  },
} satisfies CommandSpec;
