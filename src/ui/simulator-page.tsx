import { useMemo, useState } from 'preact/hooks';
import { backoffDelay, delayPercentiles, isRandomized, simulateTimeline, type BackoffSchedule } from '../retry/index.ts';
import { foldSeed } from '../retry/random.ts';
import { DelayChart } from './delay-chart.tsx';
import { formatDuration } from './format.ts';
import { STRATEGIES, buildSchedule, labelledPoints, retriesShown, type Strategy } from './simulator-schedule.ts';

/** Attempts drawn to scale: each attempt a tick, each backoff gap a bar. */
function AttemptTimeline({ rows }: { rows: { attempt: number; delayMs: number; sinceFirstMs: number }[] }) {
  const total = Math.max(1, rows[rows.length - 1]!.sinceFirstMs);
  const W = 1000;
  const x = (ms: number) => 20 + (ms / total) * (W - 40);
  // A label is about 70 units wide at this scale: closer labels would overlap.
  const labelled = labelledPoints(rows.map((r) => x(r.sinceFirstMs)), 80);
  const anchor = (i: number) => (i === 0 ? 'start' : i === rows.length - 1 ? 'end' : 'middle');
  return (
    <svg class="timeline" data-testid="sim-timeline" viewBox={`0 0 ${W} 70`} width="100%" role="img" aria-label="attempt timeline">
      <line class="tick" x1={x(0)} x2={x(total)} y1={30} y2={30} />
      {rows.map((r, i) => (
        <g key={r.attempt}>
          {i > 0 && <rect class="span k-backoff" x={x(rows[i - 1]!.sinceFirstMs)} y={26} width={Math.max(1, x(r.sinceFirstMs) - x(rows[i - 1]!.sinceFirstMs))} height={8}><title>{`backoff ${formatDuration(r.delayMs)}`}</title></rect>}
          <circle class="attempt-dot" cx={x(r.sinceFirstMs)} cy={30} r={6}><title>{`attempt ${r.attempt} at +${formatDuration(r.sinceFirstMs)}`}</title></circle>
          {labelled.has(i) && <text class="axis" x={x(r.sinceFirstMs)} y={58} text-anchor={anchor(i)}>{`+${formatDuration(r.sinceFirstMs)}`}</text>}
        </g>
      ))}
    </svg>
  );
}

/** The retry simulator: edit a policy of any strategy and see its attempts and delay spread. */
export function SimulatorPage() {
  const [strategy, setStrategy] = useState<Strategy>('temporal');
  const [fields, setFields] = useState<Record<string, string>>({ ...STRATEGIES.temporal.fields });
  const [seed, setSeed] = useState('1');
  const [samples, setSamples] = useState('5000');
  const [retry, setRetry] = useState(1);

  const result = useMemo(() => {
    try {
      const s = Number(seed);
      const schedule: BackoffSchedule = buildSchedule(strategy, fields, s);
      const n = retriesShown(schedule);
      return { schedule, rows: simulateTimeline(schedule, n, s), n, seed: s };
    } catch (err) {
      return { error: (err as Error).message };
    }
  }, [strategy, fields, seed]);

  const spread = useMemo(() => {
    if (!('schedule' in result) || !result.schedule || !isRandomized(result.schedule) || result.n === 0) return undefined;
    const count = Math.min(200_000, Math.max(1, Math.floor(Number(samples)) || 1));
    const r = Math.min(retry, result.n);
    const values = new Float64Array(count);
    for (let i = 0; i < count; i++) values[i] = backoffDelay(result.schedule, r, foldSeed(result.seed + i));
    return { values, r, count, percentiles: delayPercentiles(result.schedule, result.n, Math.min(count, 20_000), result.seed) };
  }, [result, samples, retry]);

  return (
    <section class="simulator">
      <h2>Retry simulator</h2>
      <p class="note">Each attempt is assumed to fail at once; delays are computed by steadfast/retry exactly as the engine and <code>retry()</code> compute them.</p>
      <form class="policy" onSubmit={(e) => e.preventDefault()}>
        <label>strategy
          <select name="strategy" value={strategy} onChange={(e) => {
            const s = e.currentTarget.value as Strategy;
            setStrategy(s);
            setFields({ ...STRATEGIES[s].fields });
            setRetry(1);
          }}>
            {Object.entries(STRATEGIES).map(([k, v]) => <option key={k} value={k}>{v.title}</option>)}
          </select>
        </label>
        {Object.keys(STRATEGIES[strategy].fields).map((name) => (
          <label key={name}>{name}
            {name === 'fastFirst'
              ? <input type="checkbox" name={name} checked={fields[name] === 'true'} onChange={(e) => setFields({ ...fields, [name]: String(e.currentTarget.checked) })} />
              : <input name={name} value={fields[name] ?? ''} size={10} onInput={(e) => setFields({ ...fields, [name]: e.currentTarget.value })} />}
          </label>
        ))}
        <label>seed <input name="seed" value={seed} size={6} onInput={(e) => setSeed(e.currentTarget.value)} /></label>
      </form>
      {'error' in result ? <p class="error" data-testid="sim-error">{result.error}</p> : (
        <>
          <p data-testid="sim-summary">{result.rows.length} attempts over {formatDuration(result.rows[result.rows.length - 1]!.sinceFirstMs)}{isRandomized(result.schedule) ? ' (randomized: this seed)' : ''}</p>
          <AttemptTimeline rows={result.rows} />
          <table class="grid narrow">
            <thead><tr><th>Attempt</th><th>Delay before</th><th>Since first</th>{spread && <><th>p5</th><th>p50</th><th>p95</th></>}</tr></thead>
            <tbody>
              {result.rows.map((r) => {
                const p = spread?.percentiles[r.attempt - 2];
                return (
                  <tr key={r.attempt}>
                    <td class="num">{r.attempt}</td><td class="num">{formatDuration(r.delayMs)}</td><td class="num">{formatDuration(r.sinceFirstMs)}</td>
                    {spread && <><td class="num">{p ? formatDuration(p.p5) : ''}</td><td class="num">{p ? formatDuration(p.p50) : ''}</td><td class="num">{p ? formatDuration(p.p95) : ''}</td></>}
                  </tr>
                );
              })}
            </tbody>
          </table>
          {spread && (
            <div class="spread">
              <label>retry <select name="retry" value={String(spread.r)} onChange={(e) => setRetry(Number(e.currentTarget.value))}>
                {Array.from({ length: result.n }, (_, i) => <option key={i} value={String(i + 1)}>{i + 1}</option>)}
              </select></label>
              <label>samples <input name="samples" value={samples} size={7} onInput={(e) => setSamples(e.currentTarget.value)} /></label>
              <DelayChart values={spread.values} title={`Delay before attempt ${spread.r + 1} over ${spread.count} runs`} />
            </div>
          )}
        </>
      )}
    </section>
  );
}
