import { enumFlag, refuseTogether } from './args.ts';

/** How a command prints: a table or text for people, pretty JSON, or JSON lines (one value a line). */
export type OutputMode = 'table' | 'json' | 'jsonl';

/** `-o, --output json|jsonl|table` (Temporal's flag; `text` is `table`), beside `--json`. */
export const OUTPUT_FLAG = { output: { type: 'string', short: 'o' } } as const;

let mode: OutputMode = 'table';

/**
 * Reads `--output` and `--json` once for the command (a process runs one command); answers
 * whether the output is JSON of either kind.
 */
export function useOutput(values: { output?: string | undefined; json?: boolean | undefined }): boolean {
  if (values.json && values.output !== undefined) refuseTogether(values, ['json', 'output']);
  const given = enumFlag('output', values.output, ['table', 'text', 'json', 'jsonl'] as const);
  mode = values.json ? 'json' : given === 'text' ? 'table' : given ?? 'table';
  return mode !== 'table';
}

/**
 * Prints `value` as JSON (pretty for `json`, one line per element of a list for `jsonl`) or,
 * for `table`, what `human` makes of it.
 */
export function printOutput(json: boolean, value: unknown, human: () => string, replacer?: (key: string, v: unknown) => unknown): void {
  if (!json) {
    console.log(human());
    return;
  }
  if (mode === 'jsonl') {
    for (const item of Array.isArray(value) ? value : [value]) console.log(JSON.stringify(item, replacer));
    return;
  }
  console.log(JSON.stringify(value, replacer, 2));
}
