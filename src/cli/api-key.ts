import { hashApiKey, newApiKey, parsePermissions } from '../server/index.ts';
import { parseFlags, UsageError } from './args.ts';
import type { CommandSpec } from './command-spec.ts';

const HELP = `Usage: steadfast api-key create --identity <name> --permission <namespace:role> [--permission …]

Makes a new random API key. Prints the key (give it to the caller: the server never stores it)
and the entry to add to the server's --api-keys file, which holds only the key's SHA-256.

Options:
  --identity <name>           who the key stands for; recorded in history as who acted
  --permission <ns:role>      a grant: role reader, worker, writer or admin on a namespace,
                              or on every namespace as system:<role> (repeatable)
  -h, --help                  show this help

Example:
  steadfast api-key create --identity billing-worker --permission default:worker`;

/** `steadfast api-key create`. */
export const apiKeyCreateCommand = {
  name: 'api-key create',
  summary: 'Make an API key and its entry for the server\'s --api-keys file',
  async run(argv) {
    const { values } = parseFlags('api-key create', argv, {
      identity: { type: 'string' }, permission: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (!values.identity) throw new UsageError('steadfast api-key create: --identity is required');
    const permissions = values.permission ?? [];
    if (permissions.length === 0) throw new UsageError('steadfast api-key create: give at least one --permission such as default:writer');
    parsePermissions(permissions, '--permission');
    const key = newApiKey();
    console.log(`key: ${key}`);
    console.log(`entry: ${JSON.stringify({ sha256: hashApiKey(key), identity: values.identity, permissions })}`);
    return 0;
  },
} satisfies CommandSpec;
