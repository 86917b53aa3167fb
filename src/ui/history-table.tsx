import { useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';
import {
  Virtualizer, elementScroll, measureElement, observeElementOffset, observeElementRect,
} from '@tanstack/virtual-core';
import type { HistoryEvent } from '../history/events.ts';
import { formatTime, json } from './format.ts';
import { localActivityLine } from './local-activity-row.ts';
import { useSettings } from './settings.tsx';

/** A short line of an event's attributes for the collapsed row. */
function summary(e: HistoryEvent): string {
  const text = localActivityLine(e) ?? JSON.stringify(e.attributes);
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/**
 * The event history as a compact table, one row per event, each expandable to its JSON. Only
 * the rows in view are in the DOM (virtualized), so tens of thousands of events scroll freely.
 */
export function HistoryTable({ events }: { events: readonly HistoryEvent[] }) {
  const [settings] = useSettings();
  const scroller = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const options = {
    count: events.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i: number) => (open.has(events[i]?.eventId ?? -1) ? 200 : 26),
    overscan: 12,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    measureElement,
    getItemKey: (i: number) => events[i]?.eventId ?? i,
    onChange: () => rerender(undefined),
  };
  const [v] = useState(() => new Virtualizer<HTMLDivElement, HTMLDivElement>(options));
  v.setOptions({ ...v.options, ...options });
  useLayoutEffect(() => v._didMount(), []);
  useLayoutEffect(() => v._willUpdate());

  const toggle = (id: number) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };
  return (
    <div class="history" ref={scroller} data-testid="history">
      <div style={{ height: `${v.getTotalSize()}px`, position: 'relative' }}>
        {v.getVirtualItems().map((item) => {
          const e = events[item.index]!;
          return (
            <div key={item.key} data-index={item.index} ref={(el) => { if (el) v.measureElement(el); }} class="event"
              style={{ transform: `translateY(${item.start}px)` }} data-event-id={e.eventId}>
              <button type="button" class="event-row" onClick={() => toggle(e.eventId)} aria-expanded={open.has(e.eventId)}>
                <span class="num">{e.eventId}</span>
                <span class="mono">{formatTime(e.eventTime, settings.zone)}</span>
                <span class="etype">{e.eventType}</span>
                <span class="sum mono">{summary(e)}</span>
              </button>
              {open.has(e.eventId) && <pre class="json">{json(e)}</pre>}
            </div>
          );
        })}
      </div>
    </div>
  );
}
