/**
 * Transcript models (exons + CDS) and their coordinate maths. All genomic coordinates here are
 * 0-based half-open (BED convention); HGVS numbers are produced only by the `hgvs*` helpers.
 */

export type ManeStatus = 'select' | 'plus_clinical' | null;

export interface Transcript {
  /** Accession as the source writes it (RefSeq from the UCSC BED12 is unversioned, e.g. 'NM_000141'). */
  id: string;
  gene: string | null;
  hgncId: string | null;
  chrom: string;
  strand: 1 | -1;
  start: number;
  end: number;
  /** CDS [cdsStart, cdsEnd) including the stop codon (UCSC convention); equal for non-coding transcripts. */
  cdsStart: number;
  cdsEnd: number;
  /** Exons ascending in genomic order. */
  exonStarts: Int32Array;
  exonEnds: Int32Array;
  mane: ManeStatus;
}

/** Transcript + precomputed cDNA offsets, built once per KB load. */
export class TranscriptModel {
  readonly tx: Transcript;
  readonly isCoding: boolean;
  /** cDNA (1-based) position of the first CDS base and of the last CDS base; 0 when non-coding. */
  readonly cdnaCdsStart: number;
  readonly cdnaCdsEnd: number;
  readonly cdnaLength: number;
  /** cDNA offset (0-based) of each exon in genomic order (for '-' strand counted from the 3' end of the genome). */
  private readonly exonCdnaStart: Int32Array;

  constructor(tx: Transcript) {
    this.tx = tx;
    this.isCoding = tx.cdsEnd > tx.cdsStart;
    const n = tx.exonStarts.length;
    this.exonCdnaStart = new Int32Array(n);
    let acc = 0;
    if (tx.strand === 1) {
      for (let i = 0; i < n; i++) {
        this.exonCdnaStart[i] = acc;
        acc += tx.exonEnds[i]! - tx.exonStarts[i]!;
      }
    } else {
      for (let i = n - 1; i >= 0; i--) {
        this.exonCdnaStart[i] = acc;
        acc += tx.exonEnds[i]! - tx.exonStarts[i]!;
      }
    }
    this.cdnaLength = acc;
    if (this.isCoding) {
      const a = this.cdnaOf(tx.strand === 1 ? tx.cdsStart : tx.cdsEnd - 1);
      const b = this.cdnaOf(tx.strand === 1 ? tx.cdsEnd - 1 : tx.cdsStart);
      this.cdnaCdsStart = a ?? 0;
      this.cdnaCdsEnd = b ?? 0;
    } else {
      this.cdnaCdsStart = 0;
      this.cdnaCdsEnd = 0;
    }
  }

  get cdsLength(): number {
    return this.isCoding ? this.cdnaCdsEnd - this.cdnaCdsStart + 1 : 0;
  }

  /** Index of the exon holding genomic position p, or -1. */
  exonIndexOf(p: number): number {
    const s = this.tx.exonStarts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid]! <= p) lo = mid + 1;
      else hi = mid - 1;
    }
    if (hi >= 0 && p < this.tx.exonEnds[hi]!) return hi;
    return -1;
  }

  /** 1-based cDNA position of an exonic genomic position, or null when intronic/outside. */
  cdnaOf(p: number): number | null {
    const i = this.exonIndexOf(p);
    if (i < 0) return null;
    const off = this.tx.strand === 1 ? p - this.tx.exonStarts[i]! : this.tx.exonEnds[i]! - 1 - p;
    return this.exonCdnaStart[i]! + off + 1;
  }

  /** Genomic position of a 1-based cDNA position (inverse of cdnaOf), or null when out of range. */
  genomicOfCdna(c: number): number | null {
    if (c < 1 || c > this.cdnaLength) return null;
    const n = this.tx.exonStarts.length;
    for (let i = 0; i < n; i++) {
      const len = this.tx.exonEnds[i]! - this.tx.exonStarts[i]!;
      const off = c - 1 - this.exonCdnaStart[i]!;
      if (off >= 0 && off < len) return this.tx.strand === 1 ? this.tx.exonStarts[i]! + off : this.tx.exonEnds[i]! - 1 - off;
    }
    return null;
  }

  /** 1-based CDS position (c. number, 1 = A of ATG) of an exonic coding position, else null. */
  cdsPosOf(p: number): number | null {
    if (!this.isCoding || p < this.tx.cdsStart || p >= this.tx.cdsEnd) return null;
    const c = this.cdnaOf(p);
    return c == null ? null : c - this.cdnaCdsStart + 1;
  }

  genomicOfCds(cdsPos: number): number | null {
    return this.genomicOfCdna(cdsPos + this.cdnaCdsStart - 1);
  }

  /** HGVS position string for a cDNA position (c. numbering for coding, n. for non-coding). */
  private cdnaLabel(cdna: number): string {
    if (!this.isCoding) return String(cdna);
    if (cdna < this.cdnaCdsStart) return String(cdna - this.cdnaCdsStart);
    if (cdna > this.cdnaCdsEnd) return `*${cdna - this.cdnaCdsEnd}`;
    return String(cdna - this.cdnaCdsStart + 1);
  }

  /**
   * HGVS coordinate (without the 'c.' prefix) of a genomic position inside the transcript span:
   * exonic '123', '-15', '*20'; intronic '123+5' / '124-2' relative to the nearest exon base.
   * Null outside the transcript.
   */
  hgvsPos(p: number): string | null {
    const tx = this.tx;
    if (p < tx.start || p >= tx.end) return null;
    const cdna = this.cdnaOf(p);
    if (cdna != null) return this.cdnaLabel(cdna);
    // Intronic: exons i (left) and i+1 (right) flank p.
    const s = tx.exonStarts;
    let i = 0;
    while (i + 1 < s.length && s[i + 1]! <= p) i++;
    const leftLast = tx.exonEnds[i]! - 1;
    const rightFirst = s[i + 1];
    if (rightFirst == null) return null;
    const dLeft = p - leftLast;
    const dRight = rightFirst - p;
    // On '+' the left exon is upstream; on '-' the right exon is upstream in transcript order.
    const upAnchor = tx.strand === 1 ? leftLast : rightFirst;
    const downAnchor = tx.strand === 1 ? rightFirst : leftLast;
    const dUp = tx.strand === 1 ? dLeft : dRight;
    const dDown = tx.strand === 1 ? dRight : dLeft;
    if (dUp <= dDown) return `${this.cdnaLabel(this.cdnaOf(upAnchor)!)}+${dUp}`;
    return `${this.cdnaLabel(this.cdnaOf(downAnchor)!)}-${dDown}`;
  }

  /** 'c.' for coding, 'n.' for non-coding transcripts. */
  get hgvsPrefix(): string {
    return this.isCoding ? 'c.' : 'n.';
  }
}

const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A', N: 'N' };

/** Reverse complement of an upper-case DNA string (IUPAC N kept). */
export function reverseComplement(seq: string): string {
  let out = '';
  for (let i = seq.length - 1; i >= 0; i--) out += COMPLEMENT[seq[i]!] ?? 'N';
  return out;
}

/** Column arrays of transcripts sorted by (chrom, start); exons flattened. */
export interface TranscriptColumns {
  id: string[];
  gene: string[];
  hgncId: string[];
  chrom: string[];
  strand: Int32Array;
  start: Int32Array;
  end: Int32Array;
  cdsStart: Int32Array;
  cdsEnd: Int32Array;
  mane: Int32Array;
  exonOffset: Int32Array;
  exonCount: Int32Array;
  exonStarts: Int32Array;
  exonEnds: Int32Array;
}

/** A string column read by row: the KB's packed column (StrColumn, no string per row until read) or an array. */
export interface StringRows {
  readonly length: number;
  get(i: number): string | undefined;
  equals(i: number, s: string): boolean;
}

/** TranscriptColumns with the string columns read by row (as loaded from the KB: unpackTranscripts). */
export interface TranscriptRowColumns extends Omit<TranscriptColumns, 'id' | 'gene' | 'hgncId' | 'chrom'> {
  id: StringRows;
  gene: StringRows;
  hgncId: StringRows;
  chrom: StringRows;
}

function arrayRows(a: readonly string[]): StringRows {
  return { length: a.length, get: (i) => a[i], equals: (i, s) => i >= 0 && i < a.length && a[i] === s };
}

function rowColumns(c: TranscriptColumns): TranscriptRowColumns {
  return { ...c, id: arrayRows(c.id), gene: arrayRows(c.gene), hgncId: arrayRows(c.hgncId), chrom: arrayRows(c.chrom) };
}

function rowsToArray(r: StringRows): string[] {
  return Array.from({ length: r.length }, (_, i) => r.get(i)!);
}

/** Sorts transcripts and flattens them into columns (KB writer and tests). */
export function toTranscriptColumns(list: Transcript[]): TranscriptColumns {
  const sorted = [...list].sort((a, b) => (a.chrom < b.chrom ? -1 : a.chrom > b.chrom ? 1 : a.start - b.start || a.end - b.end));
  const n = sorted.length;
  let m = 0;
  for (const t of sorted) m += t.exonStarts.length;
  const c: TranscriptColumns = {
    id: [], gene: [], hgncId: [], chrom: [],
    strand: new Int32Array(n), start: new Int32Array(n), end: new Int32Array(n), cdsStart: new Int32Array(n), cdsEnd: new Int32Array(n),
    mane: new Int32Array(n), exonOffset: new Int32Array(n), exonCount: new Int32Array(n), exonStarts: new Int32Array(m), exonEnds: new Int32Array(m),
  };
  let off = 0;
  sorted.forEach((t, i) => {
    c.id.push(t.id);
    c.gene.push(t.gene ?? '');
    c.hgncId.push(t.hgncId ?? '');
    c.chrom.push(t.chrom);
    c.strand[i] = t.strand;
    c.start[i] = t.start;
    c.end[i] = t.end;
    c.cdsStart[i] = t.cdsStart;
    c.cdsEnd[i] = t.cdsEnd;
    c.mane[i] = t.mane === 'select' ? 1 : t.mane === 'plus_clinical' ? 2 : 0;
    c.exonOffset[i] = off;
    c.exonCount[i] = t.exonStarts.length;
    c.exonStarts.set(t.exonStarts, off);
    c.exonEnds.set(t.exonEnds, off);
    off += t.exonStarts.length;
  });
  return c;
}

/**
 * Interval index over transcripts of one assembly: per chromosome, sorted starts with a running
 * maximum of ends, so one binary search plus a short backward walk finds every overlap.
 * TranscriptModel objects are created on first use (fast KB load).
 */
export class TranscriptIndex {
  private readonly c: TranscriptRowColumns;
  private readonly ranges = new Map<string, [number, number]>();
  private readonly maxEnd: Int32Array;
  private readonly models: (TranscriptModel | undefined)[];
  private byId: Map<string, number> | null = null;
  readonly size: number;

  constructor(input: Transcript[] | TranscriptColumns | TranscriptRowColumns) {
    const c = Array.isArray(input) ? rowColumns(toTranscriptColumns(input)) : Array.isArray(input.id) ? rowColumns(input as TranscriptColumns) : (input as TranscriptRowColumns);
    this.c = c;
    const n = c.id.length;
    this.size = n;
    this.models = new Array<TranscriptModel | undefined>(n);
    this.maxEnd = new Int32Array(n);
    let i = 0;
    while (i < n) {
      const chrom = c.chrom.get(i)!;
      let j = i;
      let running = -1;
      while (j < n && c.chrom.equals(j, chrom)) {
        if (j > i && c.start[j]! < c.start[j - 1]!) throw new Error(`transcripts not sorted by start on ${chrom}`);
        running = Math.max(running, c.end[j]!);
        this.maxEnd[j] = running;
        j++;
      }
      if (this.ranges.has(chrom)) throw new Error(`transcripts of ${chrom} are not contiguous`);
      this.ranges.set(chrom, [i, j]);
      i = j;
    }
  }

  /** The model at row i (created once). */
  model(i: number): TranscriptModel {
    let m = this.models[i];
    if (!m) {
      const c = this.c;
      const off = c.exonOffset[i]!;
      const cnt = c.exonCount[i]!;
      const mane = c.mane[i];
      m = new TranscriptModel({
        id: c.id.get(i)!,
        gene: c.gene.get(i) || null,
        hgncId: c.hgncId.get(i) || null,
        chrom: c.chrom.get(i)!,
        strand: c.strand[i] === 1 ? 1 : -1,
        start: c.start[i]!,
        end: c.end[i]!,
        cdsStart: c.cdsStart[i]!,
        cdsEnd: c.cdsEnd[i]!,
        exonStarts: c.exonStarts.subarray(off, off + cnt),
        exonEnds: c.exonEnds.subarray(off, off + cnt),
        mane: mane === 1 ? 'select' : mane === 2 ? 'plus_clinical' : null,
      });
      this.models[i] = m;
    }
    return m;
  }

  /** Transcripts whose span, padded by `pad` on both sides, overlaps [start, end) (end > start; use start+1 for insertions). */
  overlapping(chrom: string, start: number, end: number, pad = 0, out: TranscriptModel[] = []): TranscriptModel[] {
    // (Setting length is a runtime call even when it is already 0: most queries find nothing.)
    if (out.length !== 0) out.length = 0;
    const r = this.ranges.get(chrom);
    if (!r) return out;
    const qEnd = end + pad;
    const qStart = start - pad;
    const starts = this.c.start;
    // Last row in range with start < qEnd.
    let lo = r[0];
    let hi = r[1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! < qEnd) lo = mid + 1;
      else hi = mid - 1;
    }
    for (let i = hi; i >= r[0] && this.maxEnd[i]! > qStart; i--) {
      if (this.c.end[i]! > qStart) out.push(this.model(i));
    }
    return out;
  }

  /** By accession, versioned or not; the MANE copy wins when an accession maps to several loci. */
  get(id: string): TranscriptModel | undefined {
    if (!this.byId) {
      this.byId = new Map();
      for (let i = 0; i < this.size; i++) {
        const key = this.c.id.get(i)!.replace(/\.\d+$/, '');
        const prev = this.byId.get(key);
        if (prev == null || (this.c.mane[i] !== 0 && this.c.mane[prev] === 0)) this.byId.set(key, i);
      }
    }
    const i = this.byId.get(id.replace(/\.\d+$/, ''));
    return i == null ? undefined : this.model(i);
  }

  /** Transcripts of a gene symbol (MANE Select first). */
  forGene(symbol: string): TranscriptModel[] {
    const out: TranscriptModel[] = [];
    for (let i = 0; i < this.size; i++) if (this.c.gene.equals(i, symbol)) out.push(this.model(i));
    return out.sort((a, b) => (b.tx.mane === 'select' ? 1 : 0) - (a.tx.mane === 'select' ? 1 : 0));
  }

  chromosomes(): string[] {
    return [...this.ranges.keys()];
  }

  /** The column arrays (for the KB writer). */
  columns(): TranscriptColumns {
    const c = this.c;
    return { ...c, id: rowsToArray(c.id), gene: rowsToArray(c.gene), hgncId: rowsToArray(c.hgncId), chrom: rowsToArray(c.chrom) };
  }
}
