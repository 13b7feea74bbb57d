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
  /** The checked records, a decompressed chunk's worth at a time (never empty). */
  batches: AsyncGenerator<FastqRecord[]>;
  /** Compressed bytes consumed so far (progress). */
  bytesRead(): number;
  /** Records read (parsed and checked) so far. */
  count(): number;
  close(): void;
}

/**
 * Checks lines one at a time (synchronously: a chunk of text is split and checked in one go, with
 * no promise per line or record) and collects the records they complete.
 */
class FastqLineChecker {
  /** 1-based number of the last line taken. */
  lineNo = 0;
  /** Records completed so far. */
  count = 0;
  out: FastqRecord[] = [];
  /** The lines of the record being read (0-3 of them). */
  private header = '';
  private seq = '';
  private plus = '';
  private filled = 0;
  private recordLine = 0;
  /** Line of a blank line met between records (an error unless only blank lines follow). */
  private blankAt = 0;

  constructor(private readonly name: string) {}

  private fail(line: number, reason: string): FastqParseError {
    return new FastqParseError(this.name, this.count + 1, line, reason);
  }

  take(line: string): void {
    const at = ++this.lineNo;
    if (this.filled === 0) {
      if (line === '') {
        // Blank lines at the very end are tolerated; anywhere else they break the 4-line layout.
        if (this.blankAt === 0) this.blankAt = at;
        return;
      }
      if (this.blankAt !== 0) throw this.fail(this.blankAt, 'blank line inside the file (a FASTQ record is exactly 4 lines)');
      if (line.charCodeAt(0) !== 64 /* @ */) throw this.fail(at, `a record must begin with an "@" header line, found ${describeLine(line)}`);
      if (line.length === 1) throw this.fail(at, 'the header line has no read name');
      this.header = line;
      this.recordLine = at;
      this.filled = 1;
    } else if (this.filled === 1) {
      this.seq = line;
      this.filled = 2;
    } else if (this.filled === 2) {
      this.plus = line;
      this.filled = 3;
    } else {
      const { seq, plus, recordLine: r } = this;
      this.filled = 0;
      if (seq.length === 0) throw this.fail(r + 1, 'empty sequence line');
      if (!SEQ.test(seq)) throw this.fail(r + 1, `the sequence line is not bases: ${describeLine(seq)}`);
      if (plus.charCodeAt(0) !== 43 /* + */) throw this.fail(r + 2, `the third line must begin with "+", found ${describeLine(plus)}`);
      if (line.length !== seq.length) throw this.fail(r + 3, `${seq.length} bases but ${line.length} quality values (they must be equal)`);
      if (!QUAL.test(line)) throw this.fail(r + 3, `the quality line has characters outside "!".."~": ${describeLine(line)}`);
      this.count++;
      const h = this.header.slice(1);
      this.out.push({ header: h, name: readName(h), seq, qual: line });
    }
  }

  /** The end of the text: a record cut short is an error. */
  end(): void {
    if (this.filled !== 0) {
      throw this.fail(this.recordLine, `the file ends inside this record (${this.filled} of its 4 lines): truncated upload or file?`);
    }
  }
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
  const checker = new FastqLineChecker(name);
  async function* batches(): AsyncGenerator<FastqRecord[]> {
    let carry = '';
    try {
      for await (const chunk of source.chunks) {
        const text = carry + chunk;
        let start = 0;
        for (;;) {
          const nl = text.indexOf('\n', start);
          if (nl < 0) break;
          const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
          checker.take(text.slice(start, end));
          start = nl + 1;
        }
        carry = text.slice(start);
        if (checker.out.length > 0) {
          const batch = checker.out;
          checker.out = [];
          yield batch;
        }
      }
    } catch (e) {
      if (e instanceof VcfParseError) throw new FastqParseError(name, 0, 0, e.reason);
      throw e;
    }
    if (carry.length > 0) checker.take(carry.endsWith('\r') ? carry.slice(0, -1) : carry);
    checker.end();
    if (checker.out.length > 0) yield checker.out;
  }
  return { batches: batches(), bytesRead: () => source.bytesRead(), count: () => checker.count, close: () => source.destroy() };
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
  /** Reads (single) or read pairs, checked, a chunk at a time (never empty). */
  batches: AsyncGenerator<ReadPair[]>;
  /** Reads (single) or read pairs, checked, one at a time (the same stream as `batches`: use one). */
  pairs: AsyncGenerator<ReadPair>;
  /** Compressed bytes consumed over all files. */
  bytesRead(): number;
  /** Reads (not pairs) handed out so far. */
  reads(): number;
  close(): void;
}

function mateMismatch(file: string, record: number, mate: FastqRecord, other: FastqRecord, where: string): FastqParseError {
  return new FastqParseError(file, record, record * 4 - 3, `read "${mate.name}" is not the mate of "${other.name}" (${where}): mates must be in the same order`);
}

/** The records of a reader, taken one by one or as many as are at hand. */
class RecordQueue {
  private batch: FastqRecord[] = [];
  private at = 0;
  private done = false;

  constructor(private readonly reader: FastqReader) {}

  /** Records at hand without reading more (0 only at the end of the file). */
  async available(): Promise<number> {
    while (this.at >= this.batch.length && !this.done) {
      const n = await this.reader.batches.next();
      if (n.done === true) this.done = true;
      else {
        this.batch = n.value;
        this.at = 0;
      }
    }
    return this.batch.length - this.at;
  }

  /** Records at hand (no reading). */
  atHand(): number {
    return this.batch.length - this.at;
  }

  /** The next record (call after available() > 0). */
  shift(): FastqRecord {
    return this.batch[this.at++]!;
  }
}

/**
 * Opens one FASTQ file (single-end, or interleaved when its first two reads share a name) or a
 * file and its mate file, and streams checked reads or pairs.
 */
export async function openReads(first: FastqFileInput, mate?: FastqFileInput): Promise<ReadSource> {
  const a = await readFastq(first.input, first.name);
  const qa = new RecordQueue(a);
  let handed = 0;
  const source = (layout: FastqLayout, batches: AsyncGenerator<ReadPair[]>, bytesRead: () => number, close: () => void): ReadSource => {
    async function* pairs(): AsyncGenerator<ReadPair> {
      for await (const batch of batches) yield* batch;
    }
    return { layout, batches, pairs: pairs(), bytesRead, reads: () => handed, close };
  };
  if (mate) {
    const b = await readFastq(mate.input, mate.name);
    const qb = new RecordQueue(b);
    async function* paired(): AsyncGenerator<ReadPair[]> {
      let n = 0;
      for (;;) {
        const [na, nb] = await Promise.all([qa.available(), qb.available()]);
        if (na === 0 && nb === 0) break;
        if (na === 0) {
          throw new FastqParseError(mate!.name, n + 1, (n + 1) * 4 - 3, `${first.name} ended after ${n} reads but this mate file has more: mate files must hold the same reads`);
        }
        if (nb === 0) {
          throw new FastqParseError(first.name, n + 1, (n + 1) * 4 - 3, `the mate file ${mate!.name} ended after ${n} reads but this file has more: mate files must hold the same reads`);
        }
        const out: ReadPair[] = [];
        for (let i = Math.min(na, nb); i > 0; i--) {
          const x = qa.shift();
          const y = qb.shift();
          n++;
          if (x.name !== y.name) throw mateMismatch(mate!.name, n, y, x, `record ${n} of ${first.name}`);
          out.push({ r1: x, r2: y });
        }
        handed += 2 * out.length;
        yield out;
      }
      if (n === 0) throw new FastqParseError(first.name, 0, 0, 'the file holds no reads');
    }
    return source('paired', paired(), () => a.bytesRead() + b.bytesRead(), () => {
      a.close();
      b.close();
    });
  }
  if ((await qa.available()) === 0) {
    a.close();
    throw new FastqParseError(first.name, 0, 0, 'the file holds no reads');
  }
  const r0 = qa.shift();
  const r1 = (await qa.available()) > 0 ? qa.shift() : null;
  const interleaved = r1 !== null && r1.name === r0.name;
  async function* single(): AsyncGenerator<ReadPair[]> {
    const head: ReadPair[] = [{ r1: r0, r2: null }, ...(r1 ? [{ r1, r2: null }] : [])];
    handed += head.length;
    yield head;
    for (;;) {
      const n = await qa.available();
      if (n === 0) return;
      const out: ReadPair[] = [];
      for (let i = 0; i < n; i++) out.push({ r1: qa.shift(), r2: null });
      handed += out.length;
      yield out;
    }
  }
  async function* inter(): AsyncGenerator<ReadPair[]> {
    handed += 2;
    yield [{ r1: r0, r2: r1! }];
    let n = 2;
    while ((await qa.available()) > 0) {
      const out: ReadPair[] = [];
      // Pairs up to the end of the reader's chunk (a mate 2 may open the next one).
      do {
        const x = qa.shift();
        n++;
        if ((await qa.available()) === 0) {
          throw new FastqParseError(first.name, n, n * 4 - 3, `read "${x.name}" has no mate: an interleaved file ends with a mate 2 (the file holds an odd number of reads)`);
        }
        const y = qa.shift();
        n++;
        if (x.name !== y.name) throw mateMismatch(first.name, n, y, x, `the read before it; the file is interleaved since its first two reads are mates`);
        out.push({ r1: x, r2: y });
      } while (qa.atHand() >= 2);
      handed += 2 * out.length;
      yield out;
    }
  }
  return source(interleaved ? 'interleaved' : 'single', interleaved ? inter() : single(), () => a.bytesRead(), () => a.close());
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
  let reads = 0;
  try {
    for await (const p of src.pairs) {
      maxReadLength = Math.max(maxReadLength, p.r1.seq.length, p.r2?.seq.length ?? 0);
      reads += p.r2 ? 2 : 1;
      if (reads >= maxReads) {
        complete = false;
        break;
      }
    }
  } finally {
    src.close();
  }
  return { layout: src.layout, reads, complete, maxReadLength };
}

/** A record as FASTQ text (the header's comment dropped; the aligner ignores it). */
export function formatFastqRecord(r: FastqRecord): string {
  const sp = r.header.search(/[ \t]/);
  return `@${sp < 0 ? r.header : r.header.slice(0, sp)}\n${r.seq}\n+\n${r.qual}\n`;
}
