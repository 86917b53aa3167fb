import { Client } from '../client/index.ts';
import type { SearchAttributeTypeName } from '../protocol/index.ts';
import { enumFlag, parseFlags, UsageError } from './args.ts';
import { SEARCH_ATTRIBUTE_TYPES } from '../protocol/enums.ts';
import type { CommandSpec } from './command-spec.ts';
import { renderTable } from './table.ts';
import { retryWindow } from './workflow.ts';
import { OUTPUT_FLAG, printOutput, useOutput } from './output.ts';
import { refuseFastOnLoopback } from './connection-flags.ts';

const HELP = `Usage: steadfast search-attribute <action> [options]

Actions:
  create --name <Name> --type <Keyword|Text|Int|Double|Bool|Datetime|KeywordList>
                     register a custom search attribute in the namespace
  list               the namespace's custom attributes and the built-in ones
  remove --name <Name> [--name <Name> ...]
                     remove custom attributes: their values leave the runs' visibility records

Options:
  --address <url>    server address (default $STEADFAST_ADDRESS or http://127.0.0.1:7233)
  --retry-for <dur>  how long to keep retrying while the server is unavailable (default 10s)
  --namespace <ns>   namespace (default "default")
  --json, -o json|jsonl|table  print JSON (pretty, or one line per item) for scripts instead of a table
  -h, --help         show this help

Example:
  steadfast search-attribute create --name CustomerId --type Keyword
  steadfast workflow start order --task-queue orders --search-attribute CustomerId='"c-9"'`;

const FLAGS = {
  address: { type: 'string' }, namespace: { type: 'string' }, json: { type: 'boolean' }, ...OUTPUT_FLAG, help: { type: 'boolean', short: 'h' },
  'retry-for': { type: 'string' }, name: { type: 'string', multiple: true }, type: { type: 'string' },
} as const;

/** `steadfast search-attribute`. */
export const searchAttributeCommand = {
  name: 'search-attribute',
  summary: 'Register, list and remove the custom search attributes of a namespace',
  async run(argv) {
    const { values, positionals } = parseFlags('search-attribute', argv, FLAGS, true);
    const [action] = positionals;
    if (values.help || !action) {
      console.log(HELP);
      return values.help ? 0 : 2;
    }
    const json = useOutput(values);
    const address = values.address ?? process.env.STEADFAST_ADDRESS ?? 'http://127.0.0.1:7233';
    await refuseFastOnLoopback(address, values['retry-for']);
    const client = new Client({
      address,
      retry: { timeout: retryWindow(values['retry-for']) },
      ...(values.namespace ? { namespace: values.namespace } : {}),
    });
    try {
      switch (action) {
        case 'create': {
          const name = values.name?.[0];
          if (!name || !values.type) throw new UsageError('steadfast search-attribute create: --name and --type are required');
          if (values.name!.length > 1) throw new UsageError('steadfast search-attribute create: give one --name');
          const type: SearchAttributeTypeName = enumFlag('type', values.type, SEARCH_ATTRIBUTE_TYPES);
          await client.searchAttributes.create({ name, type });
          printOutput(json, { name, type }, () => `registered ${name} (${type}) in namespace ${client.namespace.name}`);
          return 0;
        }
        case 'remove': {
          const names = values.name ?? [];
          if (names.length === 0) throw new UsageError('steadfast search-attribute remove: --name is required');
          await client.searchAttributes.remove(names);
          printOutput(json, { removed: names }, () => `removed ${names.join(', ')} from namespace ${client.namespace.name}`);
          return 0;
        }
        case 'list': {
          const answer = await client.searchAttributes.list();
          printOutput(json, answer, () => renderTable(['NAME', 'TYPE', 'KIND'], [
            ...answer.custom.map((a) => [a.name, a.type, 'custom']), ...answer.builtIn.map((a) => [a.name, a.type, 'built-in']),
          ]));
          return 0;
        }
        default:
          throw new UsageError(`steadfast search-attribute: unknown action "${action}" (run \`steadfast search-attribute --help\` for the actions)`);
      }
    } finally {
      client.close();
    }
  },
} satisfies CommandSpec;
