import { parseQuery } from '../visibility/parser.ts';
import { createInterface } from 'node:readline';
import type { BulkOperation, BulkResult, Client } from '../client/index.ts';
import { UsageError } from './args.ts';
import { progressBar } from './progress.ts';
import { renderTable } from './table.ts';
import { colourOn } from './colour.ts';
import { print } from './workflow-print.ts';

/** What `steadfast workflow <cancel|terminate|signal|reset> --query …` was given. */
export interface BulkCommand {
  action: 'cancel' | 'terminate' | 'signal' | 'reset';
  query: string;
  operation: BulkOperation;
  /** Skip the confirmation. */
  yes: boolean;
  json: boolean;
  concurrency?: number;
}

/** First errors shown in the summary table; `--json` carries the client's (up to MAX_BULK_ERRORS). */
const SHOWN_ERRORS = 10;

const VERB: Record<BulkCommand['action'], string> = { cancel: 'Cancel', terminate: 'Terminate', signal: 'Signal', reset: 'Reset' };

/** Asks on stderr and reads one line of stdin; true for y or yes. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  try {
    process.stderr.write(question);
    const answer = await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}

/** The summary table of a bulk operation, with the first errors under it; failures in red when `colour` is on. */
function bulkSummary(result: BulkResult, colour = colourOn()): string {
  const lines = [renderTable(['MATCHED', 'DONE', 'SKIPPED (CLOSED)', 'FAILED'], [[result.matched, result.done, result.skipped, result.failed]],
    colour ? (_, column, value) => (column === 3 && value !== '0' ? 'red' : undefined) : undefined)];
  if (result.errors.length) {
    const shown = result.errors.slice(0, SHOWN_ERRORS);
    lines.push('', `First errors (${shown.length} of ${result.failed}):`,
      renderTable(['WORKFLOW ID', 'RUN ID', 'ERROR'], shown.map((e) => [e.workflowId, e.runId, e.message.replace(/\s*\n\s*/g, ' ')])));
  }
  return lines.join('\n');
}

/**
 * Runs a bulk operation from the command line: counts the matches, asks for confirmation on a
 * terminal (`--yes` skips it; without a terminal `--yes` is required), draws a progress bar on
 * stderr when it is a terminal, and prints the summary. Resolves with the exit code: 1 when the
 * operation failed on any run, or was not confirmed.
 */
export async function runBulkCommand(client: Client, c: BulkCommand): Promise<number> {
  if (parseQuery(c.query).groupBy.length > 0) throw new UsageError(`--query must not group (GROUP BY) in a bulk ${c.action}`);
  const { count } = await client.workflow.count({ query: c.query });
  const what = `${count} workflow${count === 1 ? '' : 's'} matching ${JSON.stringify(c.query)}`;
  if (count === 0) {
    const none: BulkResult = { total: 0, matched: 0, done: 0, skipped: 0, failed: 0, errors: [] };
    print(c.json, none, () => `no workflows match ${JSON.stringify(c.query)}; nothing to ${c.action}`);
    return 0;
  }
  if (!c.yes) {
    if (!process.stdin.isTTY) {
      throw new UsageError(`steadfast workflow ${c.action} --query: would ${c.action} ${what}; stdin is not a terminal to confirm it, so add --yes`);
    }
    if (!(await confirm(`${VERB[c.action]} ${what}? [y/N] `))) {
      console.error(`steadfast workflow ${c.action}: not confirmed; nothing was done`);
      return 1;
    }
  }
  const bar = progressBar(c.action);
  let result: BulkResult;
  try {
    result = await client.workflow.bulk({
      query: c.query, operation: c.operation, onProgress: (done, total) => bar.update(done, total),
      ...(c.concurrency !== undefined ? { concurrency: c.concurrency } : {}),
    });
  } finally {
    bar.finish();
  }
  print(c.json, result, () => bulkSummary(result));
  return result.failed > 0 ? 1 : 0;
}
