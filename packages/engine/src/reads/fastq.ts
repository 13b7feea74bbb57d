/**
 * FASTQ reading and checking, streamed (files can be several GB: nothing is held but the current
 * record). A record is four lines: `@name [comment]`, the bases, `+[name]`, the qualities, with
 * as many qualities as bases. Input is plain text, gzip or BGZF (detected from the bytes).
 *
 * Layouts: single-end (one file), paired (a second "mate" file whose record n is the mate of
 * record n of the first) and interleaved (one file holding mate 1, mate 2, mate 1, ...). Mates
 * are matched by read name, with a trailing `/1` or `/2` ignored.
 *
 * Every problem is a FastqParseError naming the file, the record number (1-based) and the line.
 */
import { openTextSource, type VcfInput } from '../vcf/source.ts';
import { VcfParseError } from '../vcf/errors.ts';

export class FastqParseError extends Error {
  constructor(
    readonly file: string,
    /** 1-based record number; 0 when the problem is not in a record (empty file, I/O, gzip). */
    readonly record: number,
    /** 1-based line number in the decompressed text; 0 when not on a line. */
    readonly line: number,
    readonly reason: string,
  ) {
    super(record > 0 ? `${file}: record ${record} (line ${line}): ${reason}` : `${file}: ${reason}`);
    this.name = 'FastqParseError';
  }
}

export interface FastqRecord {
  /** The header line without its '@'. */
  header: string;
  /** Read name: the header up to the first blank, without a trailing /1 or /2. */
  name: string;
  seq: string;
  qual: string;
}

/** Bases: IUPAC letters (either case), '.', '-' or '*' (some instruments write '.' for N). */
const SEQ = /^[A-Za-z.*-]+$/;
/** Phred+33 qualities: printable ASCII '!'..'~'. */
const QUAL = /^[!-~]+$/;

/** The name mates share: the header's first word without /1 or /2. */
export function readName(header: string): string {
  const sp = header.search(/[ \t]/);
  const word = sp < 0 ? header : header.slice(0, sp);
  return /\/[12]$/.test(word) ? word.slice(0, -2) : word;
}

function describeLine(line: string): string {
  const shown = line.length > 40 ? `${line.slice(0, 40)}…` : line;
  // eslint-disable-next-line no-control-regex
  return /[\x00-\x08\x0e-\x1f\x7f-\uffff]/.test(line) ? 'binary content' : JSON.stringify(shown);
}

export interface FastqReader {
  records: AsyncGenerator<FastqRecord>;
  /** Compressed bytes consumed so far (progress). */
  bytesRead(): number;
  /** Records read so far. */
  count(): number;
  close(): void;
}

/** Streams the records of one FASTQ file, checking each. */
export async function readFastq(input: VcfInput, name: string): Promise<FastqReader> {
  let source: Awaited<ReturnType<typeof openTextSource>>;
  try {
    source = await openTextSource(input, name);
  } catch (e) {
    if (e instanceof VcfParseError) throw new FastqParseError(name, 0, 0, e.reason);
    throw e;
  }
  let count = 0;
  async function* lines(): AsyncGenerator<string> {
    let carry = '';
    try {
      for await (const chunk of source.chunks) {
        let text = carry + chunk;
        let start = 0;
        for (;;) {
          const nl = text.indexOf('\n', start);
          if (nl < 0) break;
          const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
          yield text.slice(start, end);
          start = nl + 1;
        }
        carry = text.slice(start);
        text = '';
      }
    } catch (e) {
      if (e instanceof VcfParseError) throw new FastqParseError(name, 0, 0, e.reason);
      throw e;
    }
    if (carry.length > 0) yield carry.endsWith('\r') ? carry.slice(0, -1) : carry;
  }
  async function* records(): AsyncGenerator<FastqRecord> {
    const it = lines();
    let lineNo = 0;
    const next = async (): Promise<string | null> => {
      const n = await it.next();
      if (n.done === true) return null;
      lineNo++;
      return n.value;
    };
    for (;;) {
      const header = await next();
      if (header === null) break;
      const record = count + 1;
      const at = lineNo;
      const fail = (line: number, reason: string) => new FastqParseError(name, record, line, reason);
      if (header === '' ) {
        // Blank lines at the very end are tolerated; anywhere else they break the 4-line layout.
        let rest: string | null;
        while ((rest = await next()) === '');
        if (rest === null) break;
        throw fail(at, 'blank line inside the file (a FASTQ record is exactly 4 lines)');
      }
      if (header.charCodeAt(0) !== 64 /* @ */) {
        throw fail(at, `a record must begin with an "@" header line, found ${describeLine(header)}`);
      }
      if (header.length === 1) throw fail(at, 'the header line has no read name');
      const seq = await next();
      const plus = seq === null ? null : await next();
      const qual = plus === null ? null : await next();
      if (seq === null || plus === null || qual === null) {
        throw fail(at, `the file ends inside this record (${seq === null ? 1 : plus === null ? 2 : 3} of its 4 lines): truncated upload or file?`);
      }
      if (seq.length === 0) throw fail(at + 1, 'empty sequence line');
      if (!SEQ.test(seq)) throw fail(at + 1, `the sequence line is not bases: ${describeLine(seq)}`);
      if (plus.charCodeAt(0) !== 43 /* + */) throw fail(at + 2, `the third line must begin with "+", found ${describeLine(plus)}`);
      if (qual.length !== seq.length) {
        throw fail(at + 3, `${seq.length} bases but ${qual.length} quality values (they must be equal)`);
      }
      if (!QUAL.test(qual)) throw fail(at + 3, `the quality line has characters outside "!".."~": ${describeLine(qual)}`);
      count = record;
      const h = header.slice(1);
      yield { header: h, name: readName(h), seq, qual };
    }
  }
  return { records: records(), bytesRead: () => source.bytesRead(), count: () => count, close: () => source.destroy() };
}

export type FastqLayout = 'single' | 'paired' | 'interleaved';

export interface FastqFileInput {
  input: VcfInput;
  /** The name the user knows (in every message). */
  name: string;
}

export interface ReadPair {
  /** Mate 1, or the read of a single-end file. */
  r1: FastqRecord;
  /** Mate 2 (paired and interleaved layouts). */
  r2: FastqRecord | null;
}

export interface ReadSource {
  layout: FastqLayout;
  /** Reads (single) or read pairs, checked. */
  pairs: AsyncGenerator<ReadPair>;
  /** Compressed bytes consumed over all files. */
  bytesRead(): number;
  /** Reads (not pairs) read so far. */
  reads(): number;
  close(): void;
}

function mateMismatch(file: string, record: number, mate: FastqRecord, other: FastqRecord, where: string): FastqParseError {
  return new FastqParseError(file, record, record * 4 - 3, `read "${mate.name}" is not the mate of "${other.name}" (${where}): mates must be in the same order`);
}

/**
 * Opens one FASTQ file (single-end, or interleaved when its first two reads share a name) or a
 * file and its mate file, and streams checked reads or pairs.
 */
export async function openReads(first: FastqFileInput, mate?: FastqFileInput): Promise<ReadSource> {
  const a = await readFastq(first.input, first.name);
  if (mate) {
    const b = await readFastq(mate.input, mate.name);
    async function* paired(): AsyncGenerator<ReadPair> {
      for (;;) {
        const [x, y] = await Promise.all([a.records.next(), b.records.next()]);
        if (x.done === true && y.done === true) break;
        if (x.done === true) {
          throw new FastqParseError(mate!.name, b.count(), b.count() * 4 - 3, `${first.name} ended after ${a.count()} reads but this mate file has more: mate files must hold the same reads`);
        }
        if (y.done === true) {
          throw new FastqParseError(first.name, a.count(), a.count() * 4 - 3, `the mate file ${mate!.name} ended after ${b.count()} reads but this file has more: mate files must hold the same reads`);
        }
        if (x.value.name !== y.value.name) throw mateMismatch(mate!.name, b.count(), y.value, x.value, `record ${a.count()} of ${first.name}`);
        yield { r1: x.value, r2: y.value };
      }
      if (a.count() === 0) throw new FastqParseError(first.name, 0, 0, 'the file holds no reads');
    }
    return {
      layout: 'paired',
      pairs: paired(),
      bytesRead: () => a.bytesRead() + b.bytesRead(),
      reads: () => a.count() + b.count(),
      close: () => {
        a.close();
        b.close();
      },
    };
  }
  const r0 = await a.records.next();
  if (r0.done === true) {
    a.close();
    throw new FastqParseError(first.name, 0, 0, 'the file holds no reads');
  }
  const r1 = await a.records.next();
  const interleaved = r1.done !== true && r1.value.name === r0.value.name;
  async function* single(): AsyncGenerator<ReadPair> {
    yield { r1: r0.value as FastqRecord, r2: null };
    if (r1.done === true) return;
    yield { r1: r1.value, r2: null };
    for await (const r of a.records) yield { r1: r, r2: null };
  }
  async function* inter(): AsyncGenerator<ReadPair> {
    yield { r1: r0.value as FastqRecord, r2: (r1 as IteratorYieldResult<FastqRecord>).value };
    for (;;) {
      const x = await a.records.next();
      if (x.done === true) return;
      const y = await a.records.next();
      if (y.done === true) {
        throw new FastqParseError(first.name, a.count(), a.count() * 4 - 3, `read "${x.value.name}" has no mate: an interleaved file ends with a mate 2 (the file holds an odd number of reads)`);
      }
      if (x.value.name !== y.value.name) throw mateMismatch(first.name, a.count(), y.value, x.value, `the read before it; the file is interleaved since its first two reads are mates`);
      yield { r1: x.value, r2: y.value };
    }
  }
  return {
    layout: interleaved ? 'interleaved' : 'single',
    pairs: interleaved ? inter() : single(),
    bytesRead: () => a.bytesRead(),
    reads: () => a.count(),
    close: () => a.close(),
  };
}

export interface FastqCheck {
  layout: FastqLayout;
  /** Reads checked. */
  reads: number;
  /** True when the whole input was read (false: stopped at `maxReads`). */
  complete: boolean;
  /** Longest read seen. */
  maxReadLength: number;
}

/**
 * Checks the first `maxReads` reads (all of them when absent): the check made at upload, before
 * the case is queued. Throws FastqParseError.
 */
export async function checkFastq(first: FastqFileInput, mate?: FastqFileInput, maxReads = Infinity): Promise<FastqCheck> {
  const src = await openReads(first, mate);
  let maxReadLength = 0;
  let complete = true;
  try {
    for await (const p of src.pairs) {
      maxReadLength = Math.max(maxReadLength, p.r1.seq.length, p.r2?.seq.length ?? 0);
      if (src.reads() >= maxReads) {
        complete = false;
        break;
      }
    }
  } finally {
    src.close();
  }
  return { layout: src.layout, reads: src.reads(), complete, maxReadLength };
}

/** A record as FASTQ text (the header's comment dropped; the aligner ignores it). */
export function formatFastqRecord(r: FastqRecord): string {
  const sp = r.header.search(/[ \t]/);
  return `@${sp < 0 ? r.header : r.header.slice(0, sp)}\n${r.seq}\n+\n${r.qual}\n`;
}
