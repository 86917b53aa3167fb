import { getLastCompletionResult, workflowInfo } from 'steadfast/workflow';

export interface Report {
  team: string;
  number: number;
  /** When this run started (its fire time). */
  at: string;
  /** Why the run before this one failed, if it did. */
  afterFailure?: string;
}

/** One run of a daily cron job: numbers its report after the last run that completed. */
export async function dailyReport(team: string): Promise<Report> {
  const last = getLastCompletionResult<Report>();
  const failed = workflowInfo().lastFailure;
  return {
    team, number: (last?.number ?? 0) + 1, at: new Date().toISOString(),
    ...(failed ? { afterFailure: failed.message } : {}),
  };
}
