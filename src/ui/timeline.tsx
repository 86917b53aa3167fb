import type { HistoryEvent } from '../history/events.ts';
import type { WorkflowExecutionDescription } from '../protocol/index.ts';
import { formatDuration } from './format.ts';
import { timelineRows, type Span } from './timeline-model.ts';

const ROW = 24;
const LABEL = 220;
const WIDTH = 1000;
/** Rows drawn at most; a run with thousands of timers would make an SVG too big to scroll. */
const MAX_ROWS = 300;

function spanClass(s: Span): string {
  return `span k-${s.kind}${s.failed ? ' failed' : ''}${s.derived ? ' derived' : ''}`;
}

/**
 * The run drawn to scale: the workflow, each activity with its attempts and the backoff gaps
 * between them, timers and children. Earlier attempts that history does not keep are placed by
 * the retry policy (dashed).
 */
export function Timeline({ events, description, now }: { events: readonly HistoryEvent[]; description?: WorkflowExecutionDescription; now: number }) {
  const all = timelineRows(events, description, now);
  if (all.length === 0) return null;
  const rows = all.slice(0, MAX_ROWS);
  const from = Math.min(...rows.flatMap((r) => r.spans.map((s) => s.from)));
  const to = Math.max(from + 1, ...rows.flatMap((r) => r.spans.map((s) => s.to)));
  const plot = WIDTH - LABEL - 10;
  const x = (ms: number) => LABEL + ((ms - from) / (to - from)) * plot;
  const height = rows.length * ROW + 24;
  const ticks = Array.from({ length: 6 }, (_, i) => from + ((to - from) * i) / 5);
  return (
    <>
      {all.length > rows.length && <p class="note">The first {rows.length} of {all.length} rows.</p>}
      <svg class="timeline" data-testid="timeline" viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label="timeline">
        {ticks.map((tk, i) => (
          <g key={tk}>
            <line class="tick" x1={x(tk)} x2={x(tk)} y1={0} y2={rows.length * ROW} />
            <text class="axis" x={x(tk)} y={rows.length * ROW + 16} text-anchor={i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'}>+{formatDuration(tk - from)}</text>
          </g>
        ))}
        {rows.map((r, i) => (
          <g key={r.key} data-row={r.label} transform={`translate(0 ${i * ROW})`}>
            <text class="label" x={4} y={ROW / 2 + 4}>{r.label.length > 32 ? `${r.label.slice(0, 31)}…` : r.label}</text>
            {r.spans.map((s, j) => {
              const x1 = x(s.from);
              const w = Math.max(3, x(s.to) - x1);
              return (
                <rect key={j} class={spanClass(s)} data-kind={s.kind} x={x1} y={s.kind === 'backoff' ? 9 : 4} width={w} height={s.kind === 'backoff' ? 6 : ROW - 8} rx={2}>
                  <title>{`${s.label} (${formatDuration(s.to - s.from)})`}</title>
                </rect>
              );
            })}
          </g>
        ))}
      </svg>
    </>
  );
}
