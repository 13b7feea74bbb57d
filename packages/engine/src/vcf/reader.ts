/**
 * Streaming VCF reader (VCF 4.1–4.3; plain, gzip or BGZF).
 *
 * Design (after htslib's lazy bcf_unpack): only the fixed columns, GT/DP/GQ/AD of the chosen
 * sample and the header-declared population-frequency keys are parsed per record; INFO values
 * and CSQ/ANN are parsed when asked for. Records arrive in batches, one per decoded chunk, so
 * the per-record cost is a handful of indexOf calls and slices, not an await.
 *
 * Output coordinates are VCF-style (1-based POS) on the output assembly: the input assembly, or
 * GRCh38 when a GRCh37 file is read with a liftover chain. Nothing is dropped silently: every
 * skipped allele and every liftover failure is counted in the summary, and malformed lines are
 * errors (thrown, or collected when `collectErrors` is set).
 */

import { isAscii } from 'node:buffer';
import type { Assembly, Genotype } from '../types.ts';
import { AssemblyConflictError, detectAssemblyWithEvidence, type AssemblyEvidence } from '../genome/assembly.ts';
import { CONTIG_LENGTHS, HG19_CHRM_LENGTH, assemblyOfContigAlias, normalizeContig } from '../genome/contigs.ts';
import type { SequenceSource } from '../genome/fasta.ts';
import type { LiftFailureReason, LiftoverChain } from '../liftover/chain.ts';
import { leftAlign, trimAlleles } from '../normalize/normalize.ts';
import { AssemblyRequiredError, UnknownSampleError, VcfParseError } from './errors.ts';
import { zygosityOf } from './genotype.ts';
import { VcfHeaderBuilder, type VcfHeader } from './header.ts';
import { openTextSource, type Compression, type VcfInput } from './source.ts';
import { VcfRecord, VcfVariant, declaredAfKeys, type RecordContext, type RecordSpans } from './variant.ts';

export interface ReadVcfOptions {
  /** Sample whose genotype is reported; default the first sample column. */
  sample?: string;
  /** Assembly of the input, when the user gives it. Must agree with the header when both say. */
  assembly?: Assembly;
  /** GRCh37 -> GRCh38 chain: GRCh37 input is lifted and reported on GRCh38. */
  liftover?: LiftoverChain;
  /** Reference of the OUTPUT assembly; when given, indels are left-aligned and REF is checked. */
  reference?: SequenceSource;
  signal?: AbortSignal;
  /** Collect malformed lines in summary.errors instead of failing on the first one. */
  collectErrors?: boolean;
  /** With collectErrors: fail once this many lines are malformed (default 1000). */
  maxErrors?: number;
  /** Trim alleles shared by REF and ALT after splitting (default true). */
  trim?: boolean;
  /** Name used in messages when reading a stream. */
  name?: string;
}

export interface LiftFailureEntry {
  line: number;
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  reason: LiftFailureReason;
  detail: string;
}

/**
 * How many alleles failed the liftover for each reason (only reasons that occur), e.g. hg19 chrM
 * bases the chain leaves unaligned (1-base gaps where hg19's chrM differs from the rCRS) count
 * as 'unmapped'. Run counts and command summaries report these beside the total.
 */
export function liftFailuresByReason(failed: readonly LiftFailureEntry[]): Partial<Record<LiftFailureReason, number>> {
  const out: Partial<Record<LiftFailureReason, number>> = {};
  for (const f of failed) out[f.reason] = (out[f.reason] ?? 0) + 1;
  return out;
}

/**
 * One line for a command's summary: how many alleles failed the liftover, by reason, and the
 * first with its line and why ("failed to lift: 2 (unmapped 2); first: line 4 chrM:150 T>C: MT:150
 * is not covered by the chain ..."); '' when none did.
 */
export function describeLiftFailures(failed: readonly LiftFailureEntry[]): string {
  const first = failed[0];
  if (first === undefined) return '';
  const reasons = Object.entries(liftFailuresByReason(failed)).map(([r, n]) => `${r} ${n}`).join(', ');
  return `failed to lift: ${failed.length} (${reasons}); first: line ${first.line} ${first.chrom}:${first.pos} ${first.ref}>${first.alt}: ${first.detail}`;
}

export interface RefMismatchEntry {
  line: number;
  chrom: string;
  pos: number;
  ref: string;
  reference: string;
}

export interface VcfSummary {
  /** Data lines read (including skipped reference blocks and erroneous lines). */
  records: number;
  /** Variant alleles yielded. */
  alleles: number;
  /** '*' alleles (overlapping deletion) skipped. */
  skippedStar: number;
  /** '<NON_REF>' / '<*>' alleles skipped in variant records. */
  skippedNonRef: number;
  /** gVCF reference blocks (ALT only <NON_REF>/<*>) skipped. */
  skippedRefBlocks: number;
  /** Records with ALT '.' (reference calls) skipped. */
  skippedNoAlt: number;
  /** POS 0 records (telomere breakends/insertions before the first base): valid, not analysable. */
  skippedTelomere: number;
  /** Structural (symbolic or breakend) alleles yielded. */
  structural: number;
  liftFailed: LiftFailureEntry[];
  /** REF disagreeing with the configured reference (count; first 100 listed). */
  refMismatchCount: number;
  refMismatches: RefMismatchEntry[];
  errors: VcfParseError[];
}

const MAX_REF_MISMATCH_LISTED = 100;

interface ContigInfo {
  name: string;
  /** Largest valid POS for this contig, or Infinity when unknown. */
  maxPos: number;
  mitochondrion: 'rCRS' | 'hg19';
}

interface FormatLayout {
  gt: number;
  dp: number;
  gq: number;
  ad: number;
  /** FORMAT AF (allele fraction, Number=A): read on the mitochondrion only (heteroplasmy). */
  af: number;
}

function isBases(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    switch (s.charCodeAt(i)) {
      case 65: case 67: case 71: case 84: case 78: // A C G T N
      case 97: case 99: case 103: case 116: case 110:
        break;
      default:
        return false;
    }
  }
  return s.length > 0;
}

/** QUAL is '.' or a number; plain decimals are checked in place, anything else by Number(). */
function isQual(text: string, s: number, e: number): boolean {
  if (e <= s) return false;
  if (e - s === 1 && text.charCodeAt(s) === 46) return true;
  let dots = 0;
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) dots++;
    else if (c < 48 || c > 57) {
      const q = text.slice(s, e);
      // VCF 4.3 §1.3: floats may also be (+/-)Inf, Infinity or NaN, in any case.
      return /^[-+]?(inf|infinity|nan)$/i.test(q) || Number.isFinite(Number(q));
    }
  }
  return dots <= 1 && e - s > dots;
}

/** A copy of `s` that does not share storage with a larger string. */
export function ownString(s: string): string {
  return (' ' + s).slice(1);
}

/** The next tab after the tab at `prev` within the line ending at `le`; -1 when there is none or `prev` is -1. */
/**
 * The number of lines of a block (newlines, plus a last line without one). A function of its own:
 * as a loop inside textBlocks' per-block closure it was compiled on stack replacement and thrown
 * away at its exit block after block (--trace-deopt).
 */
function linesIn(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  if (text.length > 0 && text.charCodeAt(text.length - 1) !== 10) lines++;
  return lines;
}

/** The number of lines of a block of bytes (as linesIn). */
function linesInBytes(bytes: Uint8Array): number {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let lines = 0;
  for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
  if (b.length > 0 && b[b.length - 1] !== 10) lines++;
  return lines;
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * The text of a block from VcfReader.byteBlocks(), as textBlocks() gives it: ASCII (nearly
 * every VCF) copied byte for byte, anything else decoded as UTF-8.
 */
export function decodeBlock(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b.toString(isAscii(b) ? 'latin1' : 'utf8');
}

function nextTab(text: string, prev: number, le: number): number {
  if (prev === -1) return -1;
  const t = text.indexOf('\t', prev + 1);
  return t >= le ? -1 : t;
}

/**
 * Fraction of the mitochondrial reads that carry allele `altIndex`: FORMAT AF (one value per ALT,
 * as GATK Mutect2's mitochondria mode and mtDNA callers write it) when given, else AD (this
 * allele's reads over all reads of the site); undefined when neither is there or no read covers
 * the site. An AF that is not a number in [0, 1] is an error naming the line and field.
 */
function heteroplasmyOf(af: string[] | null, ad: string[] | null, altIndex: number, file: string, lineNo: number): number | undefined {
  const a = af?.[altIndex - 1];
  if (a !== undefined && a !== '.') {
    const f = Number(a);
    if (a === '' || !Number.isFinite(f) || f < 0 || f > 1) throw new VcfParseError(file, lineNo, `bad FORMAT AF "${a.slice(0, 40)}" for ALT ${altIndex}: must be an allele fraction between 0 and 1`);
    return f;
  }
  if (ad === null) return undefined;
  const alt = Number(ad[altIndex]);
  let total = 0;
  for (const d of ad) {
    const n = Number(d);
    if (Number.isFinite(n)) total += n;
  }
  return Number.isFinite(alt) && total > 0 ? alt / total : undefined;
}

function optInt(s: string | undefined): number | undefined {
  if (s === undefined || s === '.' || s === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

export class VcfReader implements AsyncIterable<VcfVariant> {
  readonly summary: VcfSummary = {
    records: 0,
    alleles: 0,
    skippedStar: 0,
    skippedNonRef: 0,
    skippedRefBlocks: 0,
    skippedNoAlt: 0,
    skippedTelomere: 0,
    structural: 0,
    liftFailed: [],
    refMismatchCount: 0,
    refMismatches: [],
    errors: [],
  };
  /** Assembly of the coordinates yielded. */
  readonly outputAssembly: Assembly;
  private readonly ctx: RecordContext;
  private readonly contigs = new Map<string, ContigInfo>();
  private readonly formats = new Map<string, FormatLayout>();
  private readonly expectedTabs: number;
  private readonly sampleColumn: number;
  private started = false;
  // The previous record's contig and FORMAT: records are sorted, so these almost always repeat.
  private lastContigRaw = '';
  private lastContig: ContigInfo | null = null;
  private lastFormatRaw = '';
  private lastFormat: FormatLayout | null = null;
  /**
   * The variants of one line on their way to parseBlockEach's consumer: one list for every block
   * (a new list per block started with another array map: "wrong map" at its push in optimised
   * parseLine, and a recompilation).
   */
  private readonly lineVariants: VcfVariant[] = [];
  private readonly spans: RecordSpans = {
    lineStart: 0, lineEnd: 0, t1: 0, t2: 0, t3: 0, t4: 0, t5: 0, t6: 0, t7: 0,
    infoEnd: 0, formatStart: -1, formatEnd: -1, sampleStart: -1, sampleEnd: -1,
  };

  constructor(
    readonly file: string,
    readonly header: VcfHeader,
    /** Assembly of the input file. */
    readonly assembly: Assembly,
    readonly assemblyEvidence: readonly AssemblyEvidence[],
    /** Chosen sample name, or null for a sites-only VCF. */
    readonly sample: string | null,
    readonly sampleIndex: number,
    readonly compression: Compression,
    private readonly chunks: AsyncIterator<string>,
    private pending: string,
    private lineNo: number,
    private readonly opts: ReadVcfOptions,
    private readonly destroySource: () => void,
    /** The input after the text `chunks` taken so far, as bytes (TextSource.rest). */
    private readonly restBytes: (() => AsyncIterator<Uint8Array>) | null = null,
  ) {
    this.ctx = { header, afKeys: declaredAfKeys(header) };
    this.outputAssembly = assembly === 'GRCh37' && opts.liftover !== undefined ? 'GRCh38' : assembly;
    this.expectedTabs = header.samples.length > 0 ? 8 + header.samples.length : 7;
    this.sampleColumn = sampleIndex >= 0 ? 9 + sampleIndex : -1;
  }

  private contigInfo(raw: string, lineNo: number): ContigInfo {
    // Records come sorted: the contig of the previous record is almost always this one.
    if (this.lastContig !== null && raw === this.lastContigRaw) return this.lastContig;
    let info = this.contigs.get(raw);
    if (info !== undefined) {
      this.lastContigRaw = raw;
      this.lastContig = info;
      return info;
    }
    const name = normalizeContig(raw);
    const pinned = assemblyOfContigAlias(raw);
    if (pinned !== null && pinned !== this.assembly) {
      throw new VcfParseError(this.file, lineNo, `contig ${raw} is a ${pinned} accession but the file is ${this.assembly}: records from mixed assemblies`);
    }
    const declared = this.header.contigs.get(name);
    let maxPos = Infinity;
    let mitochondrion: 'rCRS' | 'hg19' = 'rCRS';
    if (name === 'MT') {
      const len = declared?.length ?? (raw === 'chrM' && this.assembly === 'GRCh37' ? HG19_CHRM_LENGTH : null);
      if (len === HG19_CHRM_LENGTH) mitochondrion = 'hg19';
      maxPos = len ?? HG19_CHRM_LENGTH;
    } else if (declared?.length != null) {
      maxPos = declared.length;
    } else {
      maxPos = CONTIG_LENGTHS[this.assembly][name] ?? Infinity;
    }
    // A declared length that is the other assembly's length is caught by header detection;
    // a record past the end of its contig in this assembly means the records disagree with it.
    const asmLen = CONTIG_LENGTHS[this.assembly][name];
    if (asmLen !== undefined && name !== 'MT' && asmLen < maxPos) maxPos = asmLen;
    info = { name, maxPos, mitochondrion };
    this.contigs.set(raw, info);
    this.lastContigRaw = raw;
    this.lastContig = info;
    return info;
  }

  /**
   * The contig a record's CHROM `raw` names (reported name and largest valid POS), once a record
   * of it has been parsed by this reader; null before that. No side effects (for callers that
   * handle some lines themselves and leave the rest, and every new contig, to this reader).
   */
  knownContig(raw: string): { readonly name: string; readonly maxPos: number } | null {
    return this.contigs.get(raw) ?? null;
  }

  private formatLayout(format: string): FormatLayout {
    if (this.lastFormat !== null && format === this.lastFormatRaw) return this.lastFormat;
    let f = this.formats.get(format);
    if (f === undefined) {
      const keys = format.split(':');
      f = { gt: keys.indexOf('GT'), dp: keys.indexOf('DP'), gq: keys.indexOf('GQ'), ad: keys.indexOf('AD'), af: keys.indexOf('AF') };
      this.formats.set(format, f);
    }
    this.lastFormatRaw = format;
    this.lastFormat = f;
    return f;
  }

  private fail(err: VcfParseError): void {
    if (this.opts.collectErrors !== true) throw err;
    const max = this.opts.maxErrors ?? 1000;
    if (this.summary.errors.length >= max) {
      throw new VcfParseError(this.file, err.line, `more than ${max} malformed lines; giving up (first: ${this.summary.errors[0]?.message ?? err.message})`);
    }
    this.summary.errors.push(err);
  }

  /** Parse one data line, text[ls, le), into split alleles (appended to `out`). */
  private parseLine(text: string, ls: number, le: number, lineNo: number, out: VcfVariant[]): void {
    const file = this.file;
    // Fixed columns: the first 7 tabs, each must fall inside the line.
    let t1 = text.indexOf('\t', ls);
    if (t1 >= le) t1 = -1;
    const t2 = nextTab(text, t1, le);
    const t3 = nextTab(text, t2, le);
    const t4 = nextTab(text, t3, le);
    const t5 = nextTab(text, t4, le);
    const t6 = nextTab(text, t5, le);
    const t7 = nextTab(text, t6, le);
    if (t7 === -1) {
      const cols = text.slice(ls, le).split('\t').length;
      throw new VcfParseError(file, lineNo, `wrong column count: ${cols} tab-separated columns, expected ${this.expectedTabs + 1}`);
    }
    const t8 = nextTab(text, t7, le);
    const infoEnd = t8 === -1 ? le : t8;
    let formatStart = -1;
    let formatEnd = -1;
    let sampleStart = -1;
    let sampleEnd = -1;
    let tabs = 7;
    if (t8 !== -1) {
      tabs = 8;
      const t9 = nextTab(text, t8, le);
      formatStart = t8 + 1;
      formatEnd = t9 === -1 ? le : t9;
      if (t9 !== -1) {
        let col = 9;
        let start = t9 + 1;
        let next = t9;
        while (next !== -1) {
          tabs++;
          next = text.indexOf('\t', start);
          if (next >= le) next = -1;
          if (col === this.sampleColumn) {
            sampleStart = start;
            sampleEnd = next === -1 ? le : next;
          }
          col++;
          start = next + 1;
        }
      }
    }
    if (tabs !== this.expectedTabs && !(this.header.samples.length === 0 && tabs === 8)) {
      throw new VcfParseError(file, lineNo, `wrong column count: ${tabs + 1} tab-separated columns, expected ${this.expectedTabs + 1}`);
    }
    if (t1 === ls) throw new VcfParseError(file, lineNo, 'empty CHROM');
    // POS: digits only, parsed in place.
    let pos = 0;
    if (t2 - t1 - 1 < 1 || t2 - t1 - 1 > 10) pos = NaN;
    for (let i = t1 + 1; i < t2; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) {
        pos = NaN;
        break;
      }
      pos = pos * 10 + d;
    }
    if (!(pos >= 0)) throw new VcfParseError(file, lineNo, `bad POS "${text.slice(t1 + 1, t2)}": not a non-negative integer`);
    // Slices of 13+ characters would share (and keep alive) the whole decoded chunk; long
    // alleles are copied so a retained variant does not pin a megabyte of text.
    const ref = t4 - t3 - 1 > 12 ? ownString(text.slice(t3 + 1, t4)) : text.slice(t3 + 1, t4);
    if (!isBases(ref)) throw new VcfParseError(file, lineNo, `bad REF "${ref.slice(0, 40)}": must be A, C, G, T or N bases`);
    if (!isQual(text, t5 + 1, t6)) throw new VcfParseError(file, lineNo, `bad QUAL "${text.slice(t5 + 1, t6)}"`);
    // Records are sorted by contig: compare with the previous record's CHROM in place.
    const last = this.lastContigRaw;
    const contig =
      this.lastContig !== null && t1 - ls === last.length && text.startsWith(last, ls)
        ? this.lastContig
        : this.contigInfo(text.slice(ls, t1), lineNo);
    if (pos === 0) {
      // VCF allows POS 0 for a telomere (a breakend or insertion before the first base). There
      // is no base to annotate: counted and reported, never a failed case.
      this.summary.skippedTelomere++;
      return;
    }
    if (pos > contig.maxPos) {
      throw new VcfParseError(
        file,
        lineNo,
        `POS ${pos} is beyond the end of ${text.slice(ls, t1)} (${contig.maxPos} bp in ${this.assembly}): records from mixed assemblies or a wrong assembly`,
      );
    }
    const summary = this.summary;
    if (t5 - t4 === 2 && text.charCodeAt(t4 + 1) === 46 /* . */) {
      summary.skippedNoAlt++;
      return;
    }
    const altRaw = t5 - t4 - 1 > 12 ? ownString(text.slice(t4 + 1, t5)) : text.slice(t4 + 1, t5);
    // split's array itself, long alleles replaced in place: Array.prototype.map, inlined in
    // optimised code, makes a holey array, whose map differs from the one-ALT literal's, so the
    // first multi-allelic record after optimisation deoptimised parseLine (--trace-deopt: "wrong
    // map" at alts.length) and had it compiled again, in every worker.
    const alts = altRaw.indexOf(',') === -1 ? [altRaw] : altRaw.split(',');
    if (alts.length > 1) {
      for (let k = 0; k < alts.length; k++) if (alts[k]!.length > 12) alts[k] = ownString(alts[k]!);
    }
    if (alts.length === 1 && (altRaw === '<NON_REF>' || altRaw === '<*>')) {
      summary.skippedRefBlocks++;
      return;
    }
    // The constructor copies the spans: one scratch object serves every record.
    const sp = this.spans;
    sp.lineStart = ls;
    sp.lineEnd = le;
    sp.t1 = t1;
    sp.t2 = t2;
    sp.t3 = t3;
    sp.t4 = t4;
    sp.t5 = t5;
    sp.t6 = t6;
    sp.t7 = t7;
    sp.infoEnd = infoEnd;
    sp.formatStart = formatStart;
    sp.formatEnd = formatEnd;
    sp.sampleStart = sampleStart;
    sp.sampleEnd = sampleEnd;
    const record = new VcfRecord(
      this.ctx,
      text,
      sp,
      lineNo,
      pos,
      ref,
      alts,
    );

    // Genotype fields of the chosen sample.
    let gt = '';
    let depth: number | undefined;
    let gq: number | undefined;
    let ad: string[] | null = null;
    let af: string[] | null = null;
    const mito = contig.name === 'MT';
    if (formatStart >= 0 && sampleStart >= 0) {
      const lf = this.lastFormatRaw;
      const layout =
        this.lastFormat !== null && formatEnd - formatStart === lf.length && text.startsWith(lf, formatStart)
          ? this.lastFormat
          : this.formatLayout(text.slice(formatStart, formatEnd));
      if (layout.dp === -1 && layout.ad === -1 && layout.gq === -1 && (layout.af === -1 || !mito)) {
        if (layout.gt === 0) {
          let c = text.indexOf(':', sampleStart);
          if (c === -1 || c > sampleEnd) c = sampleEnd;
          gt = text.slice(sampleStart, c);
        } else if (layout.gt > 0) {
          gt = text.slice(sampleStart, sampleEnd).split(':')[layout.gt] ?? '';
        }
      } else {
        const vals = text.slice(sampleStart, sampleEnd).split(':');
        if (layout.gt >= 0) gt = vals[layout.gt] ?? '';
        if (layout.dp >= 0) depth = optInt(vals[layout.dp]);
        if (layout.gq >= 0) gq = optInt(vals[layout.gq]);
        if (layout.ad >= 0) {
          const a = vals[layout.ad];
          if (a !== undefined && a !== '.') ad = a.split(',');
        }
        if (mito && layout.af >= 0) {
          const a = vals[layout.af];
          if (a !== undefined && a !== '.') af = a.split(',');
        }
      }
    }

    const trim = this.opts.trim !== false;
    const chain = this.outputAssembly !== this.assembly ? this.opts.liftover : undefined;
    for (let k = 0; k < alts.length; k++) {
      const alt = alts[k]!;
      const altIndex = k + 1;
      if (alt === '*') {
        summary.skippedStar++;
        continue;
      }
      if (alt === '<NON_REF>' || alt === '<*>') {
        summary.skippedNonRef++;
        continue;
      }
      // Symbolic (<DEL>), mate breakends (G]17:198982]) and single breakends (.A, A.).
      const structural =
        alt.charCodeAt(0) === 60 || alt.includes('[') || alt.includes(']') || (alt.length > 1 && (alt.charCodeAt(0) === 46 || alt.charCodeAt(alt.length - 1) === 46));
      if (!structural && !isBases(alt)) {
        throw new VcfParseError(file, lineNo, `bad ALT "${alt.slice(0, 40)}": must be bases, '*', <ID> or a breakend`);
      }
      if (structural) summary.structural++;
      const genotype: Genotype = { gt, zygosity: gt === '' ? 'unknown' : zygosityOf(gt, altIndex) };
      if (depth !== undefined) genotype.depth = depth;
      if (gq !== undefined) genotype.genotypeQuality = gq;
      if (ad !== null) {
        const r = Number(ad[0]);
        const a = Number(ad[altIndex]);
        if (Number.isFinite(r) && Number.isFinite(a)) genotype.alleleDepths = [r, a];
      }
      if (mito) {
        const h = heteroplasmyOf(af, ad, altIndex, file, lineNo);
        if (h !== undefined) genotype.heteroplasmy = h;
      }
      let vChrom = contig.name;
      let vPos = pos;
      let vRef = ref;
      let vAlt = alt;
      if (trim && !structural && (ref.length > 1 || alt.length > 1)) {
        const t = trimAlleles({ chrom: vChrom, pos, ref, alt });
        vPos = t.pos;
        vRef = t.ref;
        vAlt = t.alt;
      }
      let lift: VcfVariant['lift'] = null;
      if (chain !== undefined) {
        const lifted = chain.liftVariant({ chrom: vChrom, pos: vPos, ref: vRef, alt: vAlt }, { mitochondrion: contig.mitochondrion });
        if ('failed' in lifted) {
          summary.liftFailed.push({ line: lineNo, chrom: text.slice(ls, t1), pos, ref, alt, reason: lifted.failed, detail: lifted.detail });
          continue;
        }
        vChrom = lifted.chrom;
        vPos = lifted.pos;
        vRef = lifted.ref;
        vAlt = lifted.alt;
        lift = { from: this.assembly, strand: lifted.strand };
      }
      out.push(new VcfVariant(record, altIndex, vChrom, vPos, vRef, vAlt, this.outputAssembly, genotype, lift));
      summary.alleles++;
    }
  }

  /** Parses the lines of text[from, to) (to: text.length by default). */
  private parseText(text: string, out: VcfVariant[], isFinal: boolean, sink: ((v: VcfVariant) => void) | null = null, from = 0, to = text.length): void {
    let start = from;
    const len = to;
    let lineNo = this.lineNo;
    let records = 0;
    try {
      for (;;) {
        let nl = text.indexOf('\n', start);
        if (nl === -1 || nl > len) {
          if (!isFinal || start >= len) break;
          nl = len;
        }
        lineNo++;
        let end = nl;
        if (end > start && text.charCodeAt(end - 1) === 13) end--;
        if (end > start) {
          if (text.charCodeAt(start) === 35 /* # */) {
            this.fail(new VcfParseError(this.file, lineNo, 'header line after the #CHROM line'));
          } else {
            records++;
            try {
              this.parseLine(text, start, end, lineNo, out);
            } catch (err) {
              if (!(err instanceof VcfParseError)) throw err;
              this.fail(err);
            }
            if (sink !== null && out.length > 0) {
              for (let k = 0; k < out.length; k++) sink(out[k]!);
              out.length = 0;
            }
          }
        }
        start = nl + 1;
        if (start > len) break;
      }
    } finally {
      this.lineNo = lineNo;
      this.summary.records += records;
    }
    this.pending = start < len ? text.slice(start, len) : '';
  }

  private async normalizeBatch(batch: VcfVariant[]): Promise<VcfVariant[]> {
    const reference = this.opts.reference;
    if (reference === undefined) return batch;
    const out: VcfVariant[] = [];
    for (const v of batch) {
      if (v.isStructural) {
        out.push(v);
        continue;
      }
      if (reference.contigLength(v.chrom) === null) {
        out.push(v);
        continue;
      }
      const r = await leftAlign({ chrom: v.chrom, pos: v.pos, ref: v.ref, alt: v.alt }, reference);
      if (!r.refMatches) {
        this.summary.refMismatchCount++;
        if (this.summary.refMismatches.length < MAX_REF_MISMATCH_LISTED) {
          this.summary.refMismatches.push({ line: v.record.line, chrom: v.chrom, pos: v.pos, ref: v.ref, reference: r.referenceAtPos });
        }
      }
      const n = r.variant;
      out.push(n.pos === v.pos && n.ref === v.ref && n.alt === v.alt ? v : new VcfVariant(v.record, v.altIndex, n.chrom, n.pos, n.ref, n.alt, v.assembly, v.genotype, v.lift));
    }
    return out;
  }

  /** Variants in batches (one per decoded chunk): the fast way to consume a large file. */
  async *batches(): AsyncGenerator<VcfVariant[]> {
    if (this.started) throw new Error('a VcfReader can be iterated once');
    this.started = true;
    const signal = this.opts.signal;
    try {
      if (this.pending.length > 0) {
        const text = this.pending;
        this.pending = '';
        const out: VcfVariant[] = [];
        this.parseText(text, out, false);
        if (out.length > 0) yield await this.normalizeBatch(out);
      }
      for (;;) {
        signal?.throwIfAborted();
        const n = await this.chunks.next();
        if (n.done === true) break;
        const out: VcfVariant[] = [];
        this.parseText(this.pending.length > 0 ? this.pending + n.value : n.value, out, false);
        if (out.length > 0) yield await this.normalizeBatch(out);
      }
      signal?.throwIfAborted();
      if (this.pending.length > 0) {
        const out: VcfVariant[] = [];
        const text = this.pending;
        this.pending = '';
        this.parseText(text, out, true);
        if (out.length > 0) yield await this.normalizeBatch(out);
      }
    } catch (err) {
      if (err instanceof VcfParseError && err.line === 0) {
        // Decompression/read errors carry no line: name the last line reached.
        throw new VcfParseError(this.file, 0, `${err.reason} (after line ${this.lineNo})`);
      }
      throw err;
    } finally {
      this.destroySource();
    }
  }

  /**
   * The records' text in blocks of whole lines (one per decoded chunk), each with the number of
   * its first line, for parsing elsewhere (another thread's reader of the same file: parseBlockEach).
   * Like batches(), a reader yields its records once.
   */
  async *textBlocks(): AsyncGenerator<{ text: string; firstLine: number; lines: number }> {
    if (this.started) throw new Error('a VcfReader can be iterated once');
    this.started = true;
    const signal = this.opts.signal;
    let lineNo = this.lineNo;
    const block = (text: string) => {
      const lines = linesIn(text);
      const b = { text, firstLine: lineNo + 1, lines };
      lineNo += lines;
      return b;
    };
    try {
      let pending = this.pending;
      this.pending = '';
      for (;;) {
        signal?.throwIfAborted();
        const n = await this.chunks.next();
        if (n.done === true) break;
        const text = pending.length > 0 ? pending + n.value : n.value;
        const cut = text.lastIndexOf('\n') + 1;
        pending = cut < text.length ? text.slice(cut) : '';
        if (cut > 0) yield block(cut < text.length ? text.slice(0, cut) : text);
      }
      signal?.throwIfAborted();
      if (pending.length > 0) yield block(pending);
    } catch (err) {
      throw this.readError(err, lineNo);
    } finally {
      this.lineNo = lineNo;
      this.destroySource();
    }
  }

  /** A read or decompression error (no line) named by the last line reached; any other error as it is. */
  private readError(err: unknown, lineNo: number): unknown {
    return err instanceof VcfParseError && err.line === 0 ? new VcfParseError(this.file, 0, `${err.reason} (after line ${lineNo})`) : err;
  }

  /**
   * The records as bytes (UTF-8, decompressed) in blocks of whole lines (one per decompressed
   * chunk, about 1 MiB), each with the number of its first line and its number of lines: what
   * textBlocks() yields, not decoded, for parsing in another thread (the block's memory can be
   * transferred; decodeBlock() there gives textBlocks()' text). Each block is copied into memory
   * from `alloc(n)` (at least n bytes; a consumer can hand back memory of blocks it is done
   * with), and is a view of its first bytes. Like textBlocks(), a reader yields its records once.
   */
  async *byteBlocks(alloc: (bytes: number) => Uint8Array = (n) => new Uint8Array(n)): AsyncGenerator<{ bytes: Uint8Array; firstLine: number; lines: number }> {
    if (this.started) throw new Error('a VcfReader can be iterated once');
    if (this.restBytes === null) throw new Error('byteBlocks needs a reader from readVcf');
    this.started = true;
    const signal = this.opts.signal;
    let lineNo = this.lineNo;
    // The text read with the header and not parsed (whole lines and the start of one), as bytes.
    let carry: Uint8Array = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    const block = (a: Uint8Array, aEnd: number, b: Uint8Array, bEnd: number) => {
      const bytes = alloc(aEnd + bEnd).subarray(0, aEnd + bEnd);
      bytes.set(a.subarray(0, aEnd), 0);
      bytes.set(b.subarray(0, bEnd), aEnd);
      const lines = linesInBytes(bytes);
      const out = { bytes, firstLine: lineNo + 1, lines };
      lineNo += lines;
      return out;
    };
    const rest = this.restBytes();
    try {
      for (;;) {
        signal?.throwIfAborted();
        const n = await rest.next();
        if (n.done === true) break;
        const chunk = n.value;
        const cut = chunk.lastIndexOf(10) + 1;
        if (cut === 0) {
          carry = concatBytes(carry, chunk);
          continue;
        }
        const b = block(carry, carry.length, chunk, cut);
        carry = chunk.slice(cut);
        yield b;
      }
      signal?.throwIfAborted();
      if (carry.length > 0) yield block(carry, carry.length, carry, 0);
    } catch (err) {
      throw this.readError(err, lineNo);
    } finally {
      this.lineNo = lineNo;
      this.destroySource();
    }
  }

  /**
   * Parse one block of whole lines from textBlocks() of a reader of the same file (same header,
   * sample and options), handing each variant to `each` as soon as its line is parsed, with the
   * line numbers of the file: nothing of a line need outlive its consumer (a block's variants are
   * not kept alive together through the young generation). Counts go to this reader's summary.
   * Returns the number of variants. Without `reference` only (left-alignment is asynchronous).
   * `from`, `to`: only the whole lines of text[from, to) (`firstLine` is the number of the line
   * at `from`), without a substring made for them.
   */
  parseBlockEach(text: string, firstLine: number, each: (v: VcfVariant) => void, from = 0, to = text.length): number {
    if (this.opts.reference !== undefined) throw new Error('parseBlockEach does not left-align: read with batches() when a reference is given');
    const before = this.summary.alleles;
    this.lineNo = firstLine - 1;
    this.pending = '';
    // (Emptied first: a consumer that threw left its line's other variants in it.)
    this.lineVariants.length = 0;
    this.parseText(text, this.lineVariants, true, each, from, to);
    this.pending = '';
    return this.summary.alleles - before;
  }

  /** Variants one by one (a plain iterator over the batches: cheaper than a generator per item). */
  [Symbol.asyncIterator](): AsyncIterator<VcfVariant> {
    const batches = this.batches();
    let batch: VcfVariant[] = [];
    let i = 0;
    return {
      next: async (): Promise<IteratorResult<VcfVariant>> => {
        while (i >= batch.length) {
          const n = await batches.next();
          if (n.done === true) return { done: true, value: undefined };
          batch = n.value;
          i = 0;
        }
        return { done: false, value: batch[i++]! };
      },
      return: async (): Promise<IteratorResult<VcfVariant>> => {
        await batches.return(undefined);
        return { done: true, value: undefined };
      },
    };
  }

  /** Releases the input without reading the records (e.g. after looking at the header only). */
  close(): void {
    if (!this.started) this.destroySource();
  }

  /** Read everything into memory (small files and tests). */
  async toArray(): Promise<VcfVariant[]> {
    const all: VcfVariant[] = [];
    for await (const batch of this.batches()) for (const v of batch) all.push(v);
    return all;
  }
}

/**
 * Open a VCF: read and check the header, settle the assembly and the sample, and return a
 * reader to iterate. Throws VcfParseError (bad header, not a VCF), AssemblyRequiredError
 * (header silent and no assembly given) or UnknownSampleError.
 */
export async function readVcf(input: VcfInput, opts: ReadVcfOptions = {}): Promise<VcfReader> {
  opts.signal?.throwIfAborted();
  const source = await openTextSource(input, opts.name);
  const file = source.name;
  const it = source.chunks[Symbol.asyncIterator]();
  const builder = new VcfHeaderBuilder(file);
  let pending = '';
  let lineNo = 0;
  let header: VcfHeader | null = null;
  try {
    let eof = false;
    while (header === null) {
      let nl = pending.indexOf('\n');
      while (nl === -1 && !eof) {
        const n = await it.next();
        if (n.done === true) eof = true;
        else pending += n.value;
        nl = pending.indexOf('\n');
        if (lineNo === 0 && pending.length > 0 && pending.charCodeAt(0) !== 35) break;
      }
      if (nl === -1 && eof && pending.length === 0) {
        throw new VcfParseError(file, lineNo, lineNo === 0 ? 'empty file: not a VCF' : 'missing #CHROM header line (file ends in the header)');
      }
      const end = nl === -1 ? pending.length : nl;
      let line = pending.slice(0, end);
      pending = nl === -1 ? '' : pending.slice(nl + 1);
      lineNo++;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      // A UTF-8 byte-order mark (files saved by some Windows editors).
      if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      if (line.startsWith('##')) {
        builder.addMeta(line, lineNo);
      } else if (line.startsWith('#CHROM')) {
        header = builder.finish(line, lineNo);
      } else if (line.startsWith('#')) {
        throw new VcfParseError(file, lineNo, `bad header: unexpected line "${line.slice(0, 40)}"`);
      } else if (lineNo === 1) {
        const printable = /^[\x20-\x7e\t]*$/.test(line.slice(0, 200));
        const looksLikeRecord = line.split('\t').length >= 8;
        if (line.startsWith('BCF')) throw new VcfParseError(file, 1, 'this is a BCF (binary) file; convert it with `bcftools view -Oz`');
        throw new VcfParseError(
          file,
          1,
          printable && looksLikeRecord ? 'missing header: data before the #CHROM line' : 'not a VCF file (no ##fileformat or #CHROM header)',
        );
      } else if (line.length > 0) {
        throw new VcfParseError(file, lineNo, 'missing header: data before the #CHROM line');
      }
    }
  } catch (err) {
    source.destroy();
    throw err;
  }

  let detection: ReturnType<typeof detectAssemblyWithEvidence>;
  try {
    detection = detectAssemblyWithEvidence(header.meta);
  } catch (err) {
    source.destroy();
    if (err instanceof AssemblyConflictError) throw new VcfParseError(file, 0, `contigs from mixed assemblies: ${err.message}`);
    throw err;
  }
  if (opts.assembly !== undefined && detection.assembly !== null && detection.assembly !== opts.assembly) {
    source.destroy();
    throw new VcfParseError(
      file,
      0,
      `${opts.assembly} was given but the header says ${detection.assembly} (${detection.evidence[0]?.source ?? ''})`,
    );
  }
  const assembly = opts.assembly ?? detection.assembly;
  if (assembly === null) {
    source.destroy();
    throw new AssemblyRequiredError(file);
  }
  if (opts.liftover !== undefined && assembly === 'GRCh37') {
    const size1 = opts.liftover.sourceSizes.get('1');
    if (size1 !== undefined && size1 !== CONTIG_LENGTHS.GRCh37['1']) {
      source.destroy();
      throw new VcfParseError(file, 0, `the liftover chain ${opts.liftover.source} does not start from GRCh37 (chr1 is ${size1} bp)`);
    }
  }

  let sampleIndex = -1;
  let sample: string | null = null;
  if (opts.sample !== undefined) {
    sampleIndex = header.samples.indexOf(opts.sample);
    if (sampleIndex === -1) {
      source.destroy();
      throw new UnknownSampleError(file, opts.sample, header.samples);
    }
    sample = opts.sample;
  } else if (header.samples.length > 0) {
    sampleIndex = 0;
    sample = header.samples[0]!;
  }

  return new VcfReader(file, header, assembly, detection.evidence, sample, sampleIndex, source.compression, it, pending, lineNo, opts, () => source.destroy(), source.rest);
}
