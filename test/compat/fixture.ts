import { fileURLToPath } from 'node:url';
import type { HistoryEvent } from '../../src/history/index.ts';

/** The database file written by the first recorded version (see make-fixture.ts). */
export const COMPAT_DB = new URL('../fixtures/compat/steadfast-0.1.sqlite', import.meta.url);
/** What the fixture holds: every run's status and history as that version reported them. */
export const COMPAT_MANIFEST = new URL('../fixtures/compat/steadfast-0.1.json', import.meta.url);
/** The workflows whose runs the fixture holds. */
export const COMPAT_WORKFLOWS = fileURLToPath(new URL('../fixtures/compat/workflows.ts', import.meta.url));
/** The fixture's clock started here: 2026-01-01T00:00:00Z. */
export const COMPAT_T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** The manifest beside the database file. */
export interface CompatManifest {
  /** The fixture clock when the file was closed, ms since the epoch. */
  clock: number;
  runs: Array<{ workflowId: string; runId: string; workflowType: string; status: string }>;
  /** Each run's history, by run id. */
  histories: Record<string, HistoryEvent[]>;
}
