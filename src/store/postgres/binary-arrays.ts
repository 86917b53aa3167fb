/* Array parameters in PostgreSQL's binary format, for the batch statement: its parameters are
 * one array per column, and node-postgres sends a Buffer parameter as binary. The format is
 * `array_send`'s: dimensions, a has-nulls flag, the element type, then each element as its
 * length and its bytes (length -1 for NULL). Texts go as their UTF-8 bytes, unescaped, so the
 * batch's JSON texts are copied once into the buffer instead of escaped into a text literal,
 * measured and parsed again; integers go as fixed-size big-endian numbers. */
import type { Column } from '../columns.ts';

/** The element type of each column type: `pg_type.oid`, which `array_recv` checks against the parameter's type. */
const ELEMENT_OID: Record<Column['pgType'], number> = { text: 25, integer: 23, bigint: 20, boolean: 16, 'double precision': 701 };
/** Bytes of each fixed-size element type. */
const FIXED_BYTES: Partial<Record<Column['pgType'], number>> = { integer: 4, bigint: 8, boolean: 1, 'double precision': 8 };
/** An empty array: no dimensions, no flags, the element type. */
const EMPTY_BYTES = 12;
/** A one-dimensional array's header: dimensions, flags, element type, length, lower bound. */
const HEADER_BYTES = 20;
const TWO_32 = 2 ** 32;

/** The columns of one batch parameter each: their type, for the element type and encoding, and their values. */
export interface ArrayColumn {
  type: Column['pgType'];
  /** The column's name, for errors. */
  name: string;
  values: readonly unknown[];
}

/**
 * Encodes columns as binary array parameters, all in one buffer (one allocation per batch;
 * each parameter a view of it). A text element is a string; an integer or bigint one a safe
 * integer; a boolean one `true`, `false`, `1` or `0`; `null` and `undefined` are NULL.
 * @throws TypeError naming the column for any other element: the batch's rows hold nothing else.
 */
export function binaryArrays(columns: readonly ArrayColumn[]): Buffer[] {
  let bound = 0;
  for (const c of columns) {
    bound += HEADER_BYTES + 4 * c.values.length;
    const fixed = FIXED_BYTES[c.type];
    if (fixed !== undefined) bound += fixed * c.values.length;
    else for (const v of c.values) if (typeof v === 'string') bound += 3 * v.length;
  }
  const buf = Buffer.allocUnsafe(bound);
  const out: Buffer[] = [];
  let at = 0;
  for (const c of columns) {
    const start = at;
    const n = c.values.length;
    buf.writeInt32BE(n === 0 ? 0 : 1, at);
    buf.writeInt32BE(0, at + 4);
    buf.writeInt32BE(ELEMENT_OID[c.type], at + 8);
    if (n === 0) {
      at += EMPTY_BYTES;
      out.push(buf.subarray(start, at));
      continue;
    }
    buf.writeInt32BE(n, at + 12);
    buf.writeInt32BE(1, at + 16);
    at += HEADER_BYTES;
    let nulls = 0;
    for (let i = 0; i < n; i++) {
      const v = c.values[i];
      if (v === null || v === undefined) {
        buf.writeInt32BE(-1, at);
        at += 4;
        nulls = 1;
        continue;
      }
      at = writeElement(buf, at, c, v);
    }
    buf.writeInt32BE(nulls, start + 4);
    out.push(buf.subarray(start, at));
  }
  return out;
}

/** Writes one element (its length, then its bytes) at `at`; returns where the next one goes. */
function writeElement(buf: Buffer, at: number, c: ArrayColumn, v: unknown): number {
  switch (c.type) {
    case 'text': {
      if (typeof v !== 'string') throw wrongElement(c, v, 'a string');
      const bytes = buf.write(v, at + 4);
      buf.writeInt32BE(bytes, at);
      return at + 4 + bytes;
    }
    case 'integer':
      if (!Number.isSafeInteger(v) || (v as number) < -(2 ** 31) || (v as number) >= 2 ** 31) throw wrongElement(c, v, 'a 32-bit integer');
      buf.writeInt32BE(4, at);
      buf.writeInt32BE(v as number, at + 4);
      return at + 8;
    case 'bigint': {
      if (!Number.isSafeInteger(v)) throw wrongElement(c, v, 'a safe integer');
      // Two's complement in two halves: the high one floored, so the low one is in [0, 2^32).
      const high = Math.floor((v as number) / TWO_32);
      buf.writeInt32BE(8, at);
      buf.writeInt32BE(high, at + 4);
      buf.writeUInt32BE((v as number) - high * TWO_32, at + 8);
      return at + 12;
    }
    case 'boolean':
      if (v !== true && v !== false && v !== 1 && v !== 0) throw wrongElement(c, v, 'a boolean');
      buf.writeInt32BE(1, at);
      buf[at + 4] = v ? 1 : 0;
      return at + 5;
    case 'double precision':
      if (typeof v !== 'number') throw wrongElement(c, v, 'a number');
      buf.writeInt32BE(8, at);
      buf.writeDoubleBE(v, at + 4);
      return at + 12;
  }
}

function wrongElement(c: ArrayColumn, v: unknown, want: string): TypeError {
  const shown = typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v) : typeof v === 'object' ? 'an object' : String(v);
  return new TypeError(`batch column ${c.name} (${c.type}) must hold ${want} or null, got ${shown}`);
}

/** True for an array {@link binaryArrays} wrote without elements. */
export function isEmptyArray(param: Buffer): boolean {
  return param.length === EMPTY_BYTES;
}

/** One empty array of each element type, shared by every batch (node-postgres only reads its parameters). */
const EMPTY = new Map<Column['pgType'], Buffer>();

/** The empty array of a column type: what {@link binaryArrays} writes for a column without rows. */
export function emptyArray(type: Column['pgType']): Buffer {
  let empty = EMPTY.get(type);
  if (!empty) EMPTY.set(type, (empty = binaryArrays([{ type, name: type, values: [] }])[0]!));
  return empty;
}
