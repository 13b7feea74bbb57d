/**
 * Source-file helpers for the KB build: streamed line reading of plain/gzip/bgzip text with
 * line numbers, sha256, and compact column encodings for the KB files.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { KbSourceError } from './types.ts';

/** True when the file starts with the gzip magic bytes (covers bgzip too). */
async function isGzip(path: string): Promise<boolean> {
  const fh = await import('node:fs/promises').then((m) => m.open(path, 'r'));
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/**
 * Streams the lines of a text source (plain, gzip or multi-member bgzip), 1-based line numbers.
 * A truncated or corrupt archive becomes a KbSourceError naming the file and the last line read.
 */
export async function* readSourceLines(
  path: string,
  displayName: string,
  signal?: AbortSignal,
): AsyncGenerator<[line: string, lineNo: number]> {
  const gz = await isGzip(path);
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  let input: Readable = file;
  let streamError: Error | null = null;
  if (gz) {
    const gunzip = createGunzip();
    file.on('error', (e) => gunzip.destroy(e));
    input = file.pipe(gunzip);
  }
  input.on('error', (e) => {
    streamError = e;
  });
  const rl = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const raw of rl) {
      lineNo++;
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      yield [raw.endsWith('\r') ? raw.slice(0, -1) : raw, lineNo];
    }
  } catch (e) {
    if (e instanceof KbSourceError) throw e;
    if (signal?.aborted) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new KbSourceError(displayName, `unreadable after line ${lineNo} (${msg}); the file is truncated or corrupt`, lineNo + 1);
  } finally {
    rl.close();
    file.destroy();
  }
  if (streamError) {
    const msg = (streamError as Error).message;
    throw new KbSourceError(displayName, `unreadable after line ${lineNo} (${msg}); the file is truncated or corrupt`, lineNo + 1);
  }
}

/** sha256 (hex) of a file's bytes. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function fileExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The bytes of a 4-byte column as base64 (little endian, as on every platform we run on). */
function columnToBase64(arr: Int32Array | Float32Array): string {
  return Buffer.from(arr.buffer, arr.byteOffset, arr.byteLength).toString('base64');
}

/** A 4-byte column back from base64: `make(n)` allocates the column of n values. */
function columnFromBase64<T extends Int32Array | Float32Array>(b64: string, make: (n: number) => T): T {
  const buf = Buffer.from(b64, 'base64');
  const out = make(buf.byteLength / 4);
  new Uint8Array(out.buffer).set(buf);
  return out;
}

/** Int32 column -> base64. */
export function encodeInt32(values: ArrayLike<number>): string {
  return columnToBase64(Int32Array.from(values));
}

export function decodeInt32(b64: string): Int32Array {
  return columnFromBase64(b64, (n) => new Int32Array(n));
}

export function encodeFloat32(values: ArrayLike<number>): string {
  return columnToBase64(Float32Array.from(values));
}

export function decodeFloat32(b64: string): Float32Array {
  return columnFromBase64(b64, (n) => new Float32Array(n));
}

export async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(jsonTextOf(await readFile(path))) as T;
}

/** Bytes checked at a time for non-ASCII (isAscii is vectorised; the odd non-ASCII slice is walked). */
const ASCII_SLICE = 1 << 16;

/**
 * The text of a UTF-8 JSON file as a one-byte (Latin-1) string: non-ASCII characters, which JSON
 * allows only inside strings, are written as \uXXXX escapes, which JSON.parse reads back to the
 * same characters. Decoding the whole file as UTF-8 would make one two-byte string of it (a
 * single 'é' anywhere does) and every string parsed from it two-byte too: twice the memory, and
 * slower to compare, hash and write for every gene symbol and ClinVar field of the KB.
 */
export function jsonTextOf(buf: Buffer): string {
  if (isAscii(buf)) return buf.toString('latin1');
  const parts: string[] = [];
  let done = 0;
  for (let at = 0; at < buf.length; at += ASCII_SLICE) {
    const end = Math.min(at + ASCII_SLICE, buf.length);
    if (isAscii(buf.subarray(at, end))) continue;
    let i = Math.max(at, done);
    while (i < end) {
      if (buf[i]! < 0x80) {
        i++;
        continue;
      }
      // A run of non-ASCII bytes (whole characters: a run ends at an ASCII byte), escaped.
      let j = i;
      while (j < buf.length && buf[j]! >= 0x80) j++;
      parts.push(buf.toString('latin1', done, i));
      const text = buf.toString('utf8', i, j);
      let esc = '';
      for (let k = 0; k < text.length; k++) esc += `\\u${text.charCodeAt(k).toString(16).padStart(4, '0')}`;
      parts.push(esc);
      done = i = j;
    }
  }
  parts.push(buf.toString('latin1', done));
  return parts.join('');
}

/**
 * A JSON file of a built KB; one that is missing or does not parse is a KbSourceError naming the
 * file, with the reason `problem` words from the underlying error (code ENOENT, a syntax error).
 */
export async function readKbJsonFile<T>(path: string, problem: (e: NodeJS.ErrnoException) => string): Promise<T> {
  try {
    return await readJson<T>(path);
  } catch (e) {
    throw new KbSourceError(path, problem(e as NodeJS.ErrnoException));
  }
}

/** Splits a TSV line, requiring at least `min` columns (clear error otherwise). */
export function splitTsv(line: string, min: number, source: string, lineNo: number, sep = '\t'): string[] {
  const cols = line.split(sep);
  if (cols.length < min) {
    throw new KbSourceError(source, `expected at least ${min} ${sep === '\t' ? 'tab-separated' : `'${sep}'-separated`} columns, found ${cols.length}`, lineNo);
  }
  return cols;
}

/** Parses a required integer field. */
export function parseIntField(value: string | undefined, field: string, source: string, lineNo: number): number {
  const n = value != null && /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new KbSourceError(source, `field ${field}: expected an integer, got '${value ?? ''}'`, lineNo);
  return n;
}

/** Parses an optional float ('', 'NA', '.', '-' -> null). */
export function parseOptFloat(value: string | undefined, field: string, source: string, lineNo: number): number | null {
  if (value == null || value === '' || value === 'NA' || value === '.' || value === '-' || value === 'nan' || value === 'NaN') return null;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new KbSourceError(source, `field ${field}: expected a number, got '${value}'`, lineNo);
  return n;
}

/**
 * Column-packed table for fast KB loading: numbers as base64 typed arrays, strings joined by
 * '\t' into one JSON string (parsing a few long strings is far faster than many small objects).
 * Null numbers are NaN (f64) and null strings are ''.
 */
export interface PackedTable {
  n: number;
  i32: Record<string, string>;
  f64: Record<string, string>;
  str: Record<string, string>;
}

const clean = (s: string | null | undefined): string => (s == null ? '' : s.replace(/[\t\n]/g, ' '));

export function packTable(
  n: number,
  cols: { i32?: Record<string, ArrayLike<number>>; f64?: Record<string, ArrayLike<number | null>>; str?: Record<string, ArrayLike<string | null>> },
): PackedTable {
  const t: PackedTable = { n, i32: {}, f64: {}, str: {} };
  for (const [k, v] of Object.entries(cols.i32 ?? {})) {
    if (v.length !== n) throw new Error(`packTable: column ${k} has ${v.length} values, expected ${n}`);
    t.i32[k] = encodeInt32(v);
  }
  for (const [k, v] of Object.entries(cols.f64 ?? {})) {
    if (v.length !== n) throw new Error(`packTable: column ${k} has ${v.length} values, expected ${n}`);
    const arr = new Float64Array(n);
    for (let i = 0; i < n; i++) arr[i] = v[i] ?? NaN;
    t.f64[k] = Buffer.from(arr.buffer).toString('base64');
  }
  for (const [k, v] of Object.entries(cols.str ?? {})) {
    if (v.length !== n) throw new Error(`packTable: column ${k} has ${v.length} values, expected ${n}`);
    const parts: string[] = new Array<string>(n);
    for (let i = 0; i < n; i++) parts[i] = clean(v[i]);
    t.str[k] = parts.join('\t');
  }
  return t;
}

/**
 * The start of each tab-separated field of `text` and, after the last, one past its end (+1), in
 * one pass sized for the `expected` fields of a packed column (grown if there are more). A
 * function of its own rather than loops in StrColumn's constructor: V8 compiled those loops on
 * stack replacement and threw the code away at their exit, for each of the ~20 columns a KB load
 * reads (about 45 deoptimisations and recompilations per isolate); this one is optimised once.
 */
function fieldStarts(text: string, expected: number): Int32Array {
  let starts = new Int32Array(expected + 1);
  let fields = 1;
  for (let t = text.indexOf('\t'); t !== -1; t = text.indexOf('\t', t + 1)) {
    if (fields === starts.length - 1) {
      const grown = new Int32Array(starts.length * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[fields++] = t + 1;
  }
  starts[fields] = text.length + 1;
  return starts.subarray(0, fields + 1);
}

/**
 * A string column of a packed table read row by row without splitting it: the offsets of its
 * fields are found once (a scan for tabs, no string per row), and a row's string is sliced when
 * asked for. For tables of which a few rows are read (the genes a genome touches).
 */
export class StrColumn {
  /** Start of each field, and one past the end of the text (+1) after the last. */
  private readonly starts: Int32Array;
  /** Number of fields (what split('\t') would return; 0 for an empty table). */
  readonly length: number;

  constructor(readonly text: string, n: number) {
    if (n === 0) {
      this.length = 0;
      this.starts = new Int32Array(1);
      return;
    }
    this.starts = fieldStarts(text, n);
    this.length = this.starts.length - 1;
  }

  /** The field of row i (as split('\t')[i]), undefined outside the column. */
  get(i: number): string | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    return this.text.slice(this.starts[i], this.starts[i + 1]! - 1);
  }

  /** Whether the field of row i is `s` (as split('\t')[i] === s), without slicing it. */
  equals(i: number, s: string): boolean {
    if (!(i >= 0 && i < this.length)) return false;
    const start = this.starts[i]!;
    return this.starts[i + 1]! - 1 - start === s.length && this.text.startsWith(s, start);
  }

  /** The row whose field holds the character at `offset` of the text. */
  rowOf(offset: number): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

export class TableView {
  private readonly cache = new Map<string, Int32Array | Float64Array | string[] | StrColumn>();
  constructor(readonly table: PackedTable) {}
  get n(): number {
    return this.table.n;
  }
  i32(name: string): Int32Array {
    let c = this.cache.get(name) as Int32Array | undefined;
    if (!c) {
      const b = this.table.i32[name];
      if (b == null) throw new Error(`KB table has no int column '${name}'`);
      c = decodeInt32(b);
      this.cache.set(name, c);
    }
    return c;
  }
  f64(name: string): Float64Array {
    let c = this.cache.get(name) as Float64Array | undefined;
    if (!c) {
      const b = this.table.f64[name];
      if (b == null) throw new Error(`KB table has no float column '${name}'`);
      const buf = Buffer.from(b, 'base64');
      c = new Float64Array(buf.byteLength / 8);
      new Uint8Array(c.buffer).set(buf);
      this.cache.set(name, c);
    }
    return c;
  }
  str(name: string): string[] {
    let c = this.cache.get(name) as string[] | undefined;
    if (!c) {
      const s = this.table.str[name];
      if (s == null) throw new Error(`KB table has no string column '${name}'`);
      c = this.table.n === 0 ? [] : s.split('\t');
      this.cache.set(name, c);
    }
    return c;
  }
  /** The string column read by row (StrColumn): no string per row until that row is read. */
  strColumn(name: string): StrColumn {
    const key = `${name}\u0000rows`;
    let c = this.cache.get(key) as StrColumn | undefined;
    if (!c) {
      const s = this.table.str[name];
      if (s == null) throw new Error(`KB table has no string column '${name}'`);
      c = new StrColumn(s, this.table.n);
      this.cache.set(key, c);
    }
    return c;
  }
}

/** NaN -> null. */
export const numOrNull = (x: number | undefined): number | null => (x == null || Number.isNaN(x) ? null : x);
