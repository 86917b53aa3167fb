/**
 * Reset: a new run built from a prefix of a run's history, with the events after it re-applied,
 * every feature's state rebuilt from those events (Feature.rebuild), and the old run terminated
 * naming the new one. No command, timer or delivery of its own.
 */
// Needs child/: the children of the old run are handed over to the new one (reset-children.ts).
export { resetWorkflowExecution } from './reset.ts';
