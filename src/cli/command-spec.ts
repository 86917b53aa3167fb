/**
 * One subcommand of `steadfast`: its name (one or more words, e.g. `retry simulate`), the line
 * `steadfast --help` shows for it, and what it runs. Exit codes: 0 success, 1 failure, 2 bad usage.
 */
export interface CommandSpec {
  name: string;
  summary: string;
  run(argv: string[]): Promise<number>;
}
