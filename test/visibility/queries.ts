/**
 * The table of list and count queries the visibility SQL tests run on SQLite and PostgreSQL,
 * with the answers worked out by hand from dataset.ts. Lists name run ids in page order.
 */

const DEFAULT_ORDER = ['r14', 'r13', 'r12', 'r11', 'r10', 'r09', 'r08', 'r07', 'r06', 'r05', 'r04', 'r03', 'r02', 'r01'];

/** [query, run ids in order] in namespace `default`. */
export const LISTS: [string, string[]][] = [
  ['', DEFAULT_ORDER],
  [`WorkflowType = 'order' AND ExecutionStatus = 'Running'`, ['r14', 'r12', 'r04', 'r01']],
  [`CustomerId IN ('c1','c2')`, ['r12', 'r11', 'r08', 'r05', 'r03', 'r02', 'r01']],
  [`StartTime > '2026-11-01T00:00:00Z' ORDER BY StartTime ASC`, ['r03', 'r04', 'r05', 'r06', 'r07', 'r08', 'r09', 'r10', 'r11', 'r12', 'r13', 'r14']],
  [`WorkflowType = 'order' AND ExecutionStatus = 'Running' AND CustomerId IN ('c1','c2') AND StartTime > '2026-11-01T00:00:00Z' ORDER BY StartTime DESC`, ['r12']],
  [`CloseTime IS NULL`, ['r14', 'r12', 'r06', 'r04', 'r01']],
  [`CloseTime IS NOT NULL ORDER BY CloseTime DESC`, ['r11', 'r13', 'r10', 'r09', 'r07', 'r08', 'r05', 'r03', 'r02']],
  [`ORDER BY CloseTime DESC`, ['r11', 'r13', 'r10', 'r09', 'r07', 'r08', 'r05', 'r03', 'r02', 'r14', 'r12', 'r06', 'r04', 'r01']],
  [`order by CloseTime asc`, ['r02', 'r03', 'r05', 'r08', 'r07', 'r09', 'r10', 'r13', 'r11', 'r01', 'r04', 'r06', 'r12', 'r14']],
  [`ExecutionDuration > '1h'`, ['r11', 'r07', 'r05']],
  [`ExecutionDuration >= '1h'`, ['r13', 'r11', 'r07', 'r05', 'r02']],
  [`ExecutionDuration < 60000000000`, ['r10', 'r09', 'r03']],
  [`WorkflowId STARTS_WITH 'order-1'`, ['r13', 'r12', 'r11', 'r01']],
  [`WorkflowId NOT STARTS_WITH 'order-'`, ['r14', 'r10', 'r09', 'r08', 'r07', 'r06', 'r05']],
  [`ORDER BY WorkflowId ASC`, ['r01', 'r11', 'r12', 'r13', 'r02', 'r03', 'r04', 'r05', 'r06', 'r07', 'r08', 'r09', 'r10', 'r14']],
  [`Notes = 'alice'`, ['r09', 'r01']],
  [`Notes = 'Rush ORDER'`, ['r01']],
  [`Notes != 'rush'`, ['r09', 'r07', 'r05', 'r02']],
  [`Notes = 'ali'`, []],
  [`Tags = 'red'`, ['r07', 'r06', 'r01']],
  [`Tags IN ('green', 'yellow')`, ['r11', 'r09', 'r07', 'r05']],
  [`Tags != 'blue'`, ['r11', 'r07', 'r06', 'r05', 'r03']],
  [`Tags NOT IN ('red', 'blue')`, ['r11', 'r05', 'r03']],
  [`Tags IS NULL`, ['r14', 'r13', 'r12', 'r10', 'r08', 'r04']],
  [`Priority BETWEEN 2 AND 3`, ['r11', 'r07', 'r03', 'r02']],
  [`Priority NOT BETWEEN 2 AND 3`, ['r09', 'r06', 'r05', 'r01']],
  [`Amount > 50 ORDER BY Amount DESC`, ['r07', 'r05', 'r02']],
  [`Amount < 0`, ['r09']],
  [`Vip = true`, ['r11', 'r07', 'r04', 'r01']],
  [`Vip != TRUE`, ['r09', 'r05', 'r02']],
  [`DueAt >= '2026-11-02T00:00:00Z'`, ['r11', 'r07', 'r03', 'r01']],
  [`DueAt > '2026-11-02T00:00:00.0000001Z'`, ['r11', 'r07', 'r03']],
  [`StartTime = '2026-11-01T03:00:00.5Z'`, []],
  [`StartTime <= '2026-11-01T03:00:00.0001Z' AND StartTime >= '2026-11-01T02:59:59.9999Z'`, ['r06', 'r05']],
  [`(ExecutionStatus = 'Failed' OR ExecutionStatus = 'TimedOut') AND TaskQueue = 'payments'`, ['r07']],
  [`ExecutionStatus = 'Failed' OR ExecutionStatus = 'TimedOut' AND TaskQueue = 'payments'`, ['r07', 'r03']],
  [`TemporalScheduledById = 'sched-a'`, ['r13', 'r12']],
  [`TemporalScheduledStartTime IS NOT NULL ORDER BY TemporalScheduledStartTime ASC, RunId DESC`, ['r13', 'r12']],
  [`HistoryLength > 10 ORDER BY HistoryLength`, ['r02', 'r05', 'r07', 'r11']],
  [`ExecutionTime > '2026-11-01T08:30:00Z'`, ['r14', 'r13', 'r12', 'r11']],
  [`WorkflowId = 'x'' OR 1=1 --'`, ['r10']],
  [`CustomerId = "c1'; DROP TABLE executions_visibility; --"`, ['r10']],
  [`WorkflowId = 'x'`, []],
  [`RunId IN ('r01', 'r14', 'nope') ORDER BY RunId`, ['r01', 'r14']],
  [`ORDER BY Vip DESC, Priority ASC`, ['r01', 'r07', 'r11', 'r04', 'r05', 'r02', 'r09', 'r03', 'r06', 'r08', 'r10', 'r12', 'r13', 'r14']],
  [`CustomerId STARTS_WITH 'c'`, ['r13', 'r12', 'r11', 'r10', 'r09', 'r08', 'r07', 'r05', 'r04', 'r03', 'r02', 'r01']],
  [`CustomerId > 'c3'`, ['r14', 'r09', 'r07']],
];

/** [query, count, groups] in namespace `default`. */
export const COUNTS: [string, number, [string | boolean | null, number][]?][] = [
  ['', 14],
  [`ExecutionStatus = 'Running'`, 5],
  [`Tags = 'red'`, 3],
  [`WorkflowId = 'x'' OR 1=1 --'`, 1],
  [`GROUP BY ExecutionStatus`, 14,
    [['Canceled', 1], ['Completed', 4], ['ContinuedAsNew', 1], ['Failed', 1], ['Running', 5], ['Terminated', 1], ['TimedOut', 1]]],
  [`WorkflowType = 'order' GROUP BY ExecutionStatus`, 9, [['Completed', 3], ['ContinuedAsNew', 1], ['Failed', 1], ['Running', 4]]],
  [`GROUP BY Vip`, 14, [[false, 3], [true, 4], [null, 7]]],
  [`GROUP BY CustomerId`, 14, [
    ['c1', 3], ["c1'; DROP TABLE executions_visibility; --", 1], ['c2', 4], ['c3', 2], ['c4', 1], ['c5', 1], ['é1', 1], [null, 1],
  ]],
];

/** Orders whose pages the paging test walks at several page sizes. */
export const PAGED = ['', 'ORDER BY CloseTime DESC', 'ORDER BY CloseTime ASC', 'ORDER BY Vip DESC, Priority ASC', 'ORDER BY WorkflowId',
  `CloseTime IS NULL ORDER BY StartTime ASC`, 'ORDER BY DueAt DESC, Amount DESC', 'CloseTime IS NOT NULL ORDER BY CloseTime DESC',
  `Amount > -100 OR Priority > 0 ORDER BY Amount ASC`, 'ORDER BY RunId DESC', 'ORDER BY ExecutionStatus, RunId ASC, StartTime DESC'];
