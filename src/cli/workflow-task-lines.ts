import type { WorkflowExecutionDescription } from '../client/index.ts';

/**
 * The pending workflow task's lines of `steadfast workflow describe`: its attempt, and while
 * attempts keep failing, the last failure (cause, type, message and the stack's first frames).
 * None while the task is on its first attempt.
 */
export function workflowTaskLines(d: WorkflowExecutionDescription): string[] {
  const wt = d.pendingWorkflowTask;
  if (!wt || (wt.attempt <= 1 && !wt.lastFailure)) return [];
  const lines = ['', `Workflow task: attempt ${wt.attempt}, ${wt.state}${wt.lastFailure ? ', failing' : ''}`];
  const f = wt.lastFailure;
  if (f) {
    lines.push(`  last failure  attempt ${f.attempt} at ${f.failedTime} on ${f.identity}`);
    lines.push(`  cause         ${f.cause}${f.type ? ` (${f.type})` : ''}`);
    lines.push(`  message       ${f.message.split('\n').join('\n                ')}`);
    const frames = f.stack?.split('\n').filter((l) => /^\s*at /.test(l)) ?? [];
    if (frames.length) lines.push('  stack', ...frames.map((l) => `    ${l.trim()}`));
  }
  return lines;
}
