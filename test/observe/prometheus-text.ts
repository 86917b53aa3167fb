/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses the Prometheus text format (0.0.4): `# HELP`/`# TYPE` lines, and samples
 * `name{label="value",…} number`, with `\\`, `\"` and `\n` escapes in label values.
 * Throws on a line it cannot read, so a malformed exposition fails the test.
 */
export function parsePrometheusText(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line);
      if (!m) throw new Error(`line ${i + 1}: bad comment: ${line}`);
      if (m[1] === 'TYPE') types.set(m[2]!, m[3]!);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? ([^ ]+)( \d+)?$/.exec(line);
    if (!m) throw new Error(`line ${i + 1}: bad sample: ${line}`);
    const labels: Record<string, string> = {};
    let rest = m[3] ?? '';
    while (rest.length > 0) {
      const l = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/.exec(rest);
      if (!l) throw new Error(`line ${i + 1}: bad labels: ${m[3]}`);
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(l[0].length);
    }
    // Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case.
    const word = m[4]!.toLowerCase();
    const value = word === 'nan' ? NaN : word === '+inf' || word === 'inf' ? Infinity : word === '-inf' ? -Infinity : Number(m[4]);
    if (Number.isNaN(value) && word !== 'nan') throw new Error(`line ${i + 1}: bad value: ${m[4]}`);
    samples.push({ name: m[1]!, labels, value });
  }
  return { types, samples };
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
