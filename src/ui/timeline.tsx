import { useState } from 'preact/hooks';
import type { HistoryEvent } from '../history/events.ts';
import type { WorkflowExecutionDescription } from '../protocol/index.ts';
import { formatDuration } from './format.ts';
import { timelineRows, type Span } from './timeline-model.ts';

const ROW = 24;
const LABEL = 220;
const WIDTH = 1000;
/** Rows in view at once; the rest are reached by scrolling the box. */
const VIEW_ROWS = 20;
/** Rows drawn above and below the view, so a scroll shows drawn rows before the next render. */
const OVERSCAN = 10;

/** A row's text cut to what fits beside the spans (32 characters). */
const cut = (text: string) => (text.length > 32 ? `${text.slice(0, 31)}…` : text);

function spanClass(s: Span): string {
  return `span k-${s.kind}${s.failed ? ' failed' : ''}${s.derived ? ' derived' : ''}`;
}

/**
 * The run drawn to scale: the workflow, each activity with its attempts and the backoff gaps
 * between them, timers and children. Earlier attempts that history does not keep are placed by
 * the retry policy (dashed). Every row is reachable: the box scrolls, and only the rows in view
 * (and a few around them) are drawn, so a run with thousands of activities stays light.
 */
export function Timeline({ events, description, now }: { events: readonly HistoryEvent[]; description?: WorkflowExecutionDescription; now: number }) {
  const [top, setTop] = useState(0);
  const all = timelineRows(events, description, now);
  if (all.length === 0) return null;
  let from = Infinity;
  let to = -Infinity;
  for (const r of all) {
    for (const sp of r.spans) {
      from = Math.min(from, sp.from);
      to = Math.max(to, sp.to);
    }
  }
  to = Math.max(from + 1, to);
  const plot = WIDTH - LABEL - 10;
  const x = (ms: number) => LABEL + ((ms - from) / (to - from)) * plot;
  const viewHeight = Math.min(all.length, VIEW_ROWS) * ROW;
  const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
  const last = Math.min(all.length, Math.ceil((top + viewHeight) / ROW) + OVERSCAN);
  const rows = all.slice(first, last);
  const ticks = Array.from({ length: 6 }, (_, i) => from + ((to - from) * i) / 5);
  const grid = ticks.map((tk) => <line key={tk} class="tick" x1={x(tk)} x2={x(tk)} y1={first * ROW} y2={last * ROW} />);
  return (
    <div class="timeline-box" data-testid="timeline" data-rows={all.length}>
      {all.length > VIEW_ROWS && <p class="note">{all.length} rows; scroll the timeline to see them all.</p>}
      <div class="timeline-scroll" data-testid="timeline-scroll" style={{ height: `${viewHeight}px` }}
        onScroll={(e) => setTop((e.currentTarget as HTMLElement).scrollTop)}>
        <svg class="timeline" width={WIDTH} height={all.length * ROW} role="img" aria-label="timeline">
          {grid}
          {rows.map((r, i) => (
            <g key={r.key} data-row={r.label} data-index={first + i} transform={`translate(0 ${(first + i) * ROW})`}>
              <text class="label" x={4} y={ROW / 2 + 4} data-summary={r.summary}>
                {r.summary !== undefined && <title>{r.label}</title>}
                {cut(r.summary ?? r.label)}
              </text>
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
      </div>
      <svg class="timeline-axis" width={WIDTH} height={20} aria-hidden="true">
        {ticks.map((tk, i) => (
          <text key={tk} class="axis" x={x(tk)} y={14} text-anchor={i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'}>+{formatDuration(tk - from)}</text>
        ))}
      </svg>
    </div>
  );
}
