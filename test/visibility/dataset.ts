import { assignAttributeColumn, type CustomAttributeColumn, type VisibilityRecord } from '../../src/store/visibility/index.ts';
import type { SearchAttributeDefinition, SearchAttributeValue } from '../../src/visibility/index.ts';

/** The fixed data set the visibility SQL tests query on both stores. */
export const T0 = Date.UTC(2026, 10, 1);
const H = 3_600_000;
const S = 1_000;
const iso = (ms: number) => new Date(ms).toISOString();

function columns(defs: SearchAttributeDefinition[]): CustomAttributeColumn[] {
  const out: CustomAttributeColumn[] = [];
  for (const d of defs) out.push(assignAttributeColumn(out, d));
  return out;
}

/** The `default` namespace's custom attributes and their slots. */
export const ATTRIBUTES = columns([
  { name: 'CustomerId', type: 'Keyword' }, { name: 'Notes', type: 'Text' }, { name: 'Priority', type: 'Int' },
  { name: 'Amount', type: 'Double' }, { name: 'Vip', type: 'Bool' }, { name: 'DueAt', type: 'Datetime' },
  { name: 'Tags', type: 'KeywordList' },
]);

/** The `other` namespace: its Region lands in the same slot as CustomerId in `default`. */
export const OTHER_ATTRIBUTES = columns([{ name: 'Region', type: 'Keyword' }]);

type Row = [runId: string, workflowId: string, type: string, status: VisibilityRecord['status'], taskQueue: string,
  startH: number, closeAfterMs: number | null, historyLength: number, attrs: Record<string, SearchAttributeValue>];

const ROWS: Row[] = [
  ['r01', 'order-1', 'order', 'Running', 'orders', -48, null, 5,
    { CustomerId: 'c1', Notes: 'Rush order for Alice', Priority: 1, Amount: 10.5, Vip: true, DueAt: iso(T0 + 24 * H), Tags: ['red', 'blue'] }],
  ['r02', 'order-2', 'order', 'Completed', 'orders', -24, H, 12,
    { CustomerId: 'c2', Notes: 'normal', Priority: 2, Amount: 99.99, Vip: false, Tags: ['blue'] }],
  ['r03', 'order-3', 'order', 'Failed', 'orders', 1, 30 * S, 8, { CustomerId: 'c1', Priority: 3, DueAt: iso(T0 + 48 * H), Tags: [] }],
  ['r04', 'order-4', 'order', 'Running', 'orders', 2, null, 3, { CustomerId: 'c3', Notes: 'rush', Amount: 0.5, Vip: true }],
  ['r05', 'pay-1', 'payment', 'Completed', 'payments', 3, 90 * 60 * S, 20,
    { CustomerId: 'c2', Notes: 'Refund for Bob', Priority: 1, Amount: 250, Vip: false, DueAt: iso(T0 - 24 * H), Tags: ['green'] }],
  ['r06', 'pay-2', 'payment', 'Running', 'payments', 3, null, 2, { Priority: 5, Tags: ['red'] }],
  ['r07', 'pay-3', 'payment', 'TimedOut', 'payments', 4, 2 * H, 40,
    { CustomerId: 'c4', Notes: 'timeout', Priority: 2, Amount: 1e6, Vip: true, DueAt: iso(T0 + 120 * H), Tags: ['red', 'green'] }],
  ['r08', 'ship-1', 'shipment', 'Canceled', 'orders', 5, 60 * S, 6, { CustomerId: 'c1' }],
  ['r09', 'ship-2', 'shipment', 'Terminated', 'orders', 6, 10 * S, 7,
    { CustomerId: 'c5', Notes: 'ALICE notes', Priority: 4, Amount: -12.25, Vip: false, Tags: ['blue', 'yellow'] }],
  ['r10', "x' OR 1=1 --", 'order', 'Completed', 'orders', 7, 5 * S, 4, { CustomerId: "c1'; DROP TABLE executions_visibility; --" }],
  ['r11', 'order-10', 'order', 'ContinuedAsNew', 'orders', 8, 12 * H, 100,
    { CustomerId: 'c2', Priority: 3, Amount: 42, Vip: true, DueAt: iso(T0 + 72 * H), Tags: ['yellow'] }],
  ['r12', 'order-11', 'order', 'Running', 'orders', 9, null, 1, { CustomerId: 'c2' }],
  ['r13', 'order-12', 'order', 'Completed', 'orders', 9, H, 9, { CustomerId: 'c3' }],
  ['r14', 'ÉLAN-1', 'order', 'Running', 'orders', 10, null, 1, { CustomerId: 'é1' }],
];

/** Every record of both namespaces. */
export const RECORDS: VisibilityRecord[] = [
  ...ROWS.map(([runId, workflowId, workflowType, status, taskQueue, startH, closeAfter, historyLength, attrs]): VisibilityRecord => {
    const startTime = T0 + startH * H;
    // r11 started its run an hour before its first execution (a cron backoff).
    const executionTime = runId === 'r11' ? startTime + H : startTime;
    return {
      namespace: 'default', runId, workflowId, workflowType, status, taskQueue, startTime, executionTime, historyLength,
      ...(closeAfter !== null ? { closeTime: startTime + closeAfter } : {}),
      ...(runId === 'r12' || runId === 'r13' ? { scheduledById: 'sched-a', scheduledStartTime: T0 + 9 * H } : {}),
      searchAttributes: attrs,
    };
  }),
  {
    namespace: 'other', runId: 'o01', workflowId: 'order-1', workflowType: 'order', status: 'Running', taskQueue: 'orders',
    startTime: T0, executionTime: T0, historyLength: 2, searchAttributes: { Region: 'c1' },
  },
];
