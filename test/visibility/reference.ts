import type { VisibilityRecord } from '../../src/store/visibility/index.ts';
import {
  textWords, type CheckedFilter, type CheckedQuery, type QueryValue, type ResolvedAttribute,
} from '../../src/visibility/index.ts';

/**
 * The meaning of a checked query, evaluated on records in plain JavaScript: the oracle the
 * property test holds both stores to. It follows docs/visibility.md, not the SQL.
 */
type Value = string | number | boolean | readonly string[] | undefined;

function valueOf(r: VisibilityRecord, a: ResolvedAttribute): Value {
  switch (a.name) {
    case 'WorkflowId': return r.workflowId;
    case 'WorkflowType': return r.workflowType;
    case 'RunId': return r.runId;
    case 'ExecutionStatus': return r.status;
    case 'TaskQueue': return r.taskQueue;
    case 'StartTime': return r.startTime;
    case 'CloseTime': return r.closeTime;
    case 'ExecutionTime': return r.executionTime;
    case 'ExecutionDuration': return r.closeTime === undefined ? undefined : Math.max(0, r.closeTime - r.executionTime);
    case 'HistoryLength': return r.historyLength;
    case 'TemporalScheduledById': return r.scheduledById;
    case 'TemporalScheduledStartTime': return r.scheduledStartTime;
  }
  const v = r.searchAttributes?.[a.name];
  return a.type === 'Datetime' && typeof v === 'string' ? Date.parse(v) : v;
}

/** Code point order for strings (as SQLite BINARY and PostgreSQL "C"), numeric for numbers, false < true. */
export function compareValues(x: string | number | boolean, y: string | number | boolean): number {
  if (typeof x === 'string' && typeof y === 'string') {
    const a = [...x].map((c) => c.codePointAt(0)!);
    const b = [...y].map((c) => c.codePointAt(0)!);
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
  return Number(x) - Number(y);
}

function matches(r: VisibilityRecord, f: CheckedFilter): boolean {
  if (f.kind === 'and') return f.operands.every((o) => matches(r, o));
  if (f.kind === 'or') return f.operands.some((o) => matches(r, o));
  const v = valueOf(r, f.attribute);
  if (f.kind === 'isNull') return (v === undefined) !== f.negated;
  if (v === undefined) return false;
  const type = f.attribute.type;
  const eq = (q: QueryValue) => (type === 'KeywordList' ? (v as string[]).includes(q as string) : compareValues(v as string, q) === 0);
  switch (f.kind) {
    case 'compare': {
      if (type === 'Text') {
        const words = new Set(textWords(v as string));
        return textWords(f.value as string).every((w) => words.has(w)) === (f.op === '=');
      }
      if (type === 'KeywordList') return eq(f.value) === (f.op === '=');
      const c = compareValues(v as string, f.value);
      return { '=': c === 0, '!=': c !== 0, '>': c > 0, '>=': c >= 0, '<': c < 0, '<=': c <= 0 }[f.op];
    }
    case 'in': return f.values.some(eq) !== f.negated;
    case 'between':
      return (compareValues(v as string, f.low) >= 0 && compareValues(v as string, f.high) <= 0) !== f.negated;
    case 'startsWith': return (v as string).startsWith(f.prefix as string) !== f.negated;
  }
}

/** The run ids a list query answers, in order (missing values last, RunId breaking ties). */
export function referenceList(records: readonly VisibilityRecord[], q: CheckedQuery): string[] {
  const terms = q.orderBy.length > 0 ? [...q.orderBy] : [{ attribute: { name: 'StartTime', type: 'Datetime', builtIn: true, nullable: false } as ResolvedAttribute, direction: 'DESC' as const }];
  if (!terms.some((t) => t.attribute.name === 'RunId')) {
    terms.push({ attribute: { name: 'RunId', type: 'Keyword', builtIn: true, nullable: false }, direction: terms[terms.length - 1]!.direction });
  }
  return records.filter((r) => !q.filter || matches(r, q.filter)).sort((x, y) => {
    for (const t of terms) {
      const a = valueOf(x, t.attribute) as string | undefined;
      const b = valueOf(y, t.attribute) as string | undefined;
      if (a === undefined || b === undefined) {
        if (a !== b) return a === undefined ? 1 : -1;
        continue;
      }
      const c = compareValues(a, b);
      if (c !== 0) return t.direction === 'ASC' ? c : -c;
    }
    return 0;
  }).map((r) => r.runId);
}
