import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatDuration } from './format.ts';

/** Counts of `values` in `bins` equal bins: their centres and counts. */
export function histogram(values: Float64Array, bins: number): [number[], number[]] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (!(hi > lo)) return [[lo], [values.length]];
  const width = (hi - lo) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - lo) / width))]! += 1;
  return [counts.map((_, i) => lo + width * (i + 0.5)), counts];
}

/** A bar chart (uPlot) of how one retry's delay spreads over many sampled runs. */
export function DelayChart({ values, title }: { values: Float64Array; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const [xs, ys] = histogram(values, 40);
    const style = getComputedStyle(document.documentElement);
    const ink = style.getPropertyValue('--ink').trim() || '#222';
    const accent = style.getPropertyValue('--accent').trim() || '#3b6fd8';
    const plot = new uPlot({
      width: Math.max(320, el.clientWidth),
      height: 260,
      title,
      scales: { x: { time: false } },
      legend: { show: false },
      series: [
        {},
        { label: 'runs', fill: accent, stroke: accent, paths: uPlot.paths.bars!({ size: [0.9, 40] }), points: { show: false } },
      ],
      axes: [
        { stroke: ink, values: (_u, vals) => vals.map((v) => formatDuration(v)), grid: { stroke: 'rgba(128,128,128,0.2)' } },
        { stroke: ink, grid: { stroke: 'rgba(128,128,128,0.2)' } },
      ],
    }, [xs, ys], el);
    return () => plot.destroy();
  }, [values, title]);
  return <div class="chart" data-testid="delay-chart" ref={box} />;
}
