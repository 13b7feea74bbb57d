/**
 * What `rarelens annotate` shares between its in-process path and its worker threads: opening
 * the KB, the reader and the annotator for an input, and turning a block of VCF lines into JSONL
 * (encodeBlock: the engine's AnnotationJsonlWriter, with a short path for the intergenic
 * single-base substitutions that make up much of a genome).
 */
import {
  createAnnotator,
  declaredAfKeys,
  readsPredictorInfo,
  UPSTREAM_DISTANCE,
  zygosityOf,
  type AnnotatedVariant,
  type AnnotationJsonlWriter,
  type GenomeKb,
  type TranscriptModel,
  KbSourceError,
  loadChain,
  loadGenomeKb,
  readVcf,
  type Annotator,
  type Assembly,
  type VcfHeader,
  type VcfReader,
  type VcfVariant,
} from '@rarelens/engine';

export interface AnnotateInput {
  vcf: string;
  assembly?: Assembly;
  sample?: string;
  kb: string;
  fasta?: string;
  /** Every line through the parser and the annotator (no IntergenicSnvPath): for tests comparing the two. */
  fullPathOnly?: boolean;
}

/** The header declares population frequencies (INFO keys or CSQ/ANN frequency fields). */
export function hasPopulationData(h: VcfHeader): boolean {
  return declaredAfKeys(h).length > 0 || h.annotations.some((l) => l.fields.some((f) => /^(gnomAD|gnomADe|gnomADg|MAX_AF|ExAC)(_|$)/.test(f) || f === 'AF'));
}

/** The KB, the reader (header read) and the annotator for one input, as the command uses them. */
export async function openAnnotation(input: AnnotateInput): Promise<{ reader: VcfReader; annotator: Annotator; kb: GenomeKb }> {
  const kb = await loadGenomeKb(input.kb);
  // The liftover chain only for GRCh37 input (the header says which before any record is read).
  let reader = await readVcf(input.vcf, { sample: input.sample, assembly: input.assembly });
  if (reader.assembly === 'GRCh37') {
    reader.close();
    if (!kb.chainPath) throw new KbSourceError(input.kb, 'the input is GRCh37 but the KB has no hg19ToHg38 chain; rebuild it with the liftover/ chain in the sources');
    reader = await readVcf(input.vcf, { sample: input.sample, assembly: input.assembly, liftover: await loadChain(kb.chainPath) });
  }
  const annotator = createAnnotator(kb, { fasta: input.fasta, populationDataInInput: hasPopulationData(reader.header), infoKeys: new Set(reader.header.info.keys()) });
  return { reader, annotator, kb };
}

/** IntergenicSnvPath.eligible(): a line of a contig the reader has not seen yet. */
const NEW_CONTIG = 2;

/** Character codes of the bases a short-path line may have as REF and ALT. */
const A = 65;
const C = 67;
const G = 71;
const T = 84;
/** The one-letter allele strings, by character code (no string made per line). */
const BASE_STRINGS: Record<number, string> = { [A]: 'A', [C]: 'C', [G]: 'G', [T]: 'T' };

/** Whether `c` is the character code of A, C, G or T (upper case). */
function isBase(c: number): boolean {
  return c === A || c === C || c === G || c === T;
}

/** Whether `gt` would be the first field of `sample` (a FORMAT of GT alone). */
function firstField(text: string, s: number, e: number): number {
  const c = text.indexOf(':', s);
  return c === -1 || c > e ? e : c;
}

/**
 * The short path of `rarelens annotate` for a line that is a single-base substitution (one ALT,
 * upper-case A/C/G/T) far from every transcript model (UPSTREAM_DISTANCE, as the annotator
 * looks), in no gene span and with no ClinVar record, in a file whose header gives the
 * annotator nothing else to read for it (one sample, FORMAT GT only on the line, no CSQ/ANN, no
 * frequency or predictor INFO keys, no liftover, no frequency table in the KB): the annotator's
 * answer for every such line is the same evidence-free intergenic result, so the line's JSONL
 * record is written straight from its text (AnnotationJsonlWriter.addSnv) with the members from
 * "gene" on copied from the first such record, which goes through the full path (the parser, the
 * annotator and the writer's add()) and is checked to be that result. Everything else (and every
 * line of a contig the reader has not parsed a record of yet) goes the full path, so errors,
 * summaries and output are those of the full path (test: annotate.test.ts, both paths on the
 * same files, byte for byte).
 */
export class IntergenicSnvPath {
  private readonly scratch: TranscriptModel[] = [];
  /** Members from "gene" on of the records written here, and their ACMG class (null: not yet seen). */
  private tail: Uint8Array | null = null;
  private classification = '';
  /** Set when the first record taken the full path to learn the tail was not the expected result. */
  private off = false;
  private count = 0;
  // The last contig seen (CHROM as written) and what a record of it needs.
  private raw = '';
  private contig = '';
  private maxPos = 0;
  private chromRun: Uint8Array = new Uint8Array(0);
  private inputChromRun: Uint8Array = new Uint8Array(0);
  // Runs kept by the text they come from (FILTER, GT).
  private readonly filters = new Map<string, Uint8Array>();
  private readonly genotypes = new Map<string, Uint8Array>();
  /** Runs of three-character GTs (0/1, 1|1, ...) by their character codes (c0 << 16 | c1 << 8 | c2). */
  private readonly shortGenotypes = new Map<number, Uint8Array>();
  private lastFilterRaw = '\u0000';
  private lastFilter: Uint8Array = new Uint8Array(0);
  // The fields of the line eligible() last accepted, for write().
  private t1 = 0;
  private t2 = 0;
  private ref = 0;
  private alt = 0;
  private qual: number | null = null;
  private filter: Uint8Array = new Uint8Array(0);
  private genotype: Uint8Array = new Uint8Array(0);

  private constructor(
    private readonly reader: VcfReader,
    private readonly kb: GenomeKb,
    private readonly writer: AnnotationJsonlWriter,
  ) {}

  /** The short path for this reader's file, or null when its header (or the KB) rules it out. */
  static open(reader: VcfReader, kb: GenomeKb, writer: AnnotationJsonlWriter): IntergenicSnvPath | null {
    const h = reader.header;
    if (reader.outputAssembly !== reader.assembly || h.samples.length !== 1 || reader.sampleIndex !== 0) return null;
    if (h.annotations.length > 0 || hasPopulationData(h) || readsPredictorInfo(new Set(h.info.keys())) || kb.frequencies !== null) return null;
    return new IntergenicSnvPath(reader, kb, writer);
  }

  /** Whether the first record is still to be learnt from (see learn()). */
  get learning(): boolean {
    return this.tail === null && !this.off;
  }

  /** Records written by write() so far. */
  get written(): number {
    return this.count;
  }

  /** Records written here so far get this ACMG class. */
  get acmgClass(): string {
    return this.classification;
  }

  /**
   * Whether line text[ls, le) (no line break) qualifies (its fields kept for write()). A line
   * that does while learning must go the full path and be handed to learn(). NEW_CONTIG: it does
   * not, and its CHROM is one the reader has not parsed a record of (so the lines before it and
   * it must be parsed before the next line is looked at).
   */
  eligible(text: string, ls: number, le: number): boolean | typeof NEW_CONTIG {
    if (this.off) return false;
    // CHROM ... SAMPLE: ten columns.
    const t1 = text.indexOf('\t', ls);
    if (t1 <= ls || t1 >= le) return false;
    const t2 = text.indexOf('\t', t1 + 1);
    if (t2 === -1 || t2 >= le) return false;
    const t3 = text.indexOf('\t', t2 + 1);
    // REF and ALT: one base each, different.
    if (t3 === -1 || t3 + 4 >= le || text.charCodeAt(t3 + 2) !== 9 || text.charCodeAt(t3 + 4) !== 9) return false;
    const ref = text.charCodeAt(t3 + 1);
    const alt = text.charCodeAt(t3 + 3);
    if (!isBase(ref) || !isBase(alt) || ref === alt) return false;
    const t5 = t3 + 4;
    const t6 = text.indexOf('\t', t5 + 1);
    if (t6 === -1 || t6 >= le) return false;
    const t7 = text.indexOf('\t', t6 + 1);
    if (t7 === -1 || t7 >= le) return false;
    const t8 = text.indexOf('\t', t7 + 1);
    // FORMAT: GT alone.
    if (t8 === -1 || t8 + 4 >= le || text.charCodeAt(t8 + 3) !== 9 || !text.startsWith('GT', t8 + 1)) return false;
    const t9 = t8 + 3;
    const t10 = text.indexOf('\t', t9 + 1);
    if ((t10 !== -1 && t10 < le) || text.charCodeAt(le - 1) === 13) return false;
    // CHROM: a contig the reader knows (not the mitochondrion: heteroplasmy).
    if (t1 - ls !== this.raw.length || !text.startsWith(this.raw, ls)) {
      const raw = text.slice(ls, t1);
      const c = this.reader.knownContig(raw);
      if (c === null) return NEW_CONTIG;
      if (c.name === 'MT') return false;
      this.raw = raw;
      this.contig = c.name;
      this.maxPos = c.maxPos;
      this.chromRun = this.writer.chromRun(c.name, false);
      this.inputChromRun = this.writer.chromRun(raw, true);
    }
    // POS: 1 to 10 digits without a leading zero, within the contig.
    if (t2 - t1 - 1 < 1 || t2 - t1 - 1 > 10 || text.charCodeAt(t1 + 1) === 48) return false;
    let pos = 0;
    for (let i = t1 + 1; i < t2; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return false;
      pos = pos * 10 + d;
    }
    if (pos > this.maxPos) return false;
    // QUAL: '.', or digits with at most one '.' (what the reader reads with Number()).
    let qual: number | null = null;
    if (!(t6 - t5 === 2 && text.charCodeAt(t5 + 1) === 46)) {
      let dots = 0;
      for (let i = t5 + 1; i < t6; i++) {
        const c = text.charCodeAt(i);
        if (c === 46) dots++;
        else if (c < 48 || c > 57) return false;
      }
      if (dots > 1 || t6 - t5 - 1 <= dots) return false;
      qual = Number(text.slice(t5 + 1, t6));
    }
    // The annotator's first look-ups for a substitution: transcripts near it, gene spans, ClinVar.
    const chrom = this.contig;
    if (this.kb.transcripts.overlapping(chrom, pos - 1, pos, UPSTREAM_DISTANCE, this.scratch).length !== 0) return false;
    if (this.kb.geneSpans.first(chrom, pos) !== null) return false;
    if (this.kb.clinvar.exact(chrom, pos, BASE_STRINGS[ref]!, BASE_STRINGS[alt]!) !== null) return false;
    // FILTER as VcfRecord.filters() reads it (the last one's run again without a string made).
    let filter = this.lastFilter;
    if (t7 - t6 - 1 !== this.lastFilterRaw.length || !text.startsWith(this.lastFilterRaw, t6 + 1)) {
      const filterRaw = text.slice(t6 + 1, t7);
      let run = this.filters.get(filterRaw);
      if (run === undefined) {
        run = this.writer.filterRun(filterRaw === '.' ? [] : filterRaw === 'PASS' ? ['PASS'] : filterRaw.split(';'));
        if (this.filters.size < 256) this.filters.set(filterRaw, run);
      }
      this.lastFilterRaw = filterRaw;
      this.lastFilter = filter = run;
    }
    // GT as the reader takes it for a FORMAT of GT alone; the common three-character ones by their codes.
    const ge = firstField(text, t9 + 1, le);
    const key = ge - t9 - 1 === 3 ? (text.charCodeAt(t9 + 1) << 16) | (text.charCodeAt(t9 + 2) << 8) | text.charCodeAt(t9 + 3) : -1;
    let genotype = key >= 0 && key < 1 << 24 ? this.shortGenotypes.get(key) : undefined;
    if (genotype === undefined) {
      const gt = text.slice(t9 + 1, ge);
      genotype = this.genotypes.get(gt);
      if (genotype === undefined) {
        genotype = this.writer.genotypeRun(gt, zygosityOf(gt, 1));
        if (this.genotypes.size < 256) this.genotypes.set(gt, genotype);
      }
      if (key >= 0 && key < 1 << 24) this.shortGenotypes.set(key, genotype);
    }
    this.t1 = t1;
    this.t2 = t2;
    this.ref = ref;
    this.alt = alt;
    this.qual = qual;
    this.filter = filter;
    this.genotype = genotype;
    return true;
  }

  /** Writes the record of the line eligible() accepted last (file line `line`) and counts it in the reader's summary. */
  write(text: string, line: number): void {
    this.writer.addSnv(text, this.t1 + 1, this.t2, this.chromRun, this.inputChromRun, this.ref, this.alt, line, this.genotype, this.filter, this.qual, this.tail!);
    this.reader.summary.records++;
    this.reader.summary.alleles++;
    this.count++;
  }

  /**
   * The first eligible line's annotation `a`, written by the writer's add() from `start` (its
   * length before): when it is the evidence-free intergenic result, its members from "gene" on
   * serve every later eligible line; otherwise the short path is off for the file.
   */
  learn(a: AnnotatedVariant, start: number): void {
    const tail = this.writer.recordTail(start);
    const intergenic = a.consequences.length === 1 && a.consequences[0] === 'intergenic_variant' && a.gene === null && a.transcript === null;
    const noEvidence = a.clinvar === null && a.af === null && a.afSource === null && a.hgvsC === null && a.hgvsP === null && !a.codingOutcome?.length;
    if (tail === null || !intergenic || !noEvidence || (a.otherGenes?.length ?? 0) > 0 || a.geneConstraint !== null || !Object.isFrozen(a.acmg)) {
      this.off = true;
      return;
    }
    this.tail = tail;
    this.classification = a.acmg.classification;
  }
}

/**
 * Parses, annotates and encodes one block of whole VCF lines (textBlocks() of a reader of the
 * same file; `firstLine`: the file line number of its first line) into `writer`, adding to
 * `counts` (ACMG class -> variants). Lines the short path takes are written from their text;
 * runs of the others go through reader.parseBlockEach. Returns the number of variants.
 */
export function encodeBlock(
  text: string,
  firstLine: number,
  reader: VcfReader,
  annotator: Annotator,
  writer: AnnotationJsonlWriter,
  short: IntergenicSnvPath | null,
  counts: Record<string, number>,
): number {
  // The full path for one variant: annotated, counted, encoded.
  const full = (v: VcfVariant): AnnotatedVariant => {
    const a = annotator.annotate(v);
    const c = a.acmg.classification;
    counts[c] = (counts[c] ?? 0) + 1;
    writer.add(a);
    return a;
  };
  if (short === null) return reader.parseBlockEach(text, firstLine, full);
  let alleles = 0;
  let shortCount = 0;
  // The run of lines not yet parsed: text[runStart, ls), its first line runLine.
  let runStart = 0;
  let runLine = firstLine;
  let line = firstLine - 1;
  const len = text.length;
  for (let ls = 0; ls < len; ) {
    let nl = text.indexOf('\n', ls);
    if (nl === -1) nl = len;
    line++;
    const eligible = short.eligible(text, ls, nl);
    if (eligible === NEW_CONTIG) {
      // Parsed now (it and the lines before it): the reader learns the contig for the lines after it.
      alleles += reader.parseBlockEach(text, runLine, full, runStart, nl);
      runStart = nl + 1;
      runLine = line + 1;
    } else if (eligible) {
      if (runStart < ls) alleles += reader.parseBlockEach(text, runLine, full, runStart, ls);
      if (short.learning) {
        alleles += reader.parseBlockEach(
          text,
          line,
          (v) => {
            const start = writer.length;
            short.learn(full(v), start);
          },
          ls,
          nl,
        );
      } else {
        short.write(text, line);
        shortCount++;
      }
      runStart = nl + 1;
      runLine = line + 1;
    }
    ls = nl + 1;
  }
  if (runStart < len) alleles += reader.parseBlockEach(text, runLine, full, runStart, len);
  if (shortCount > 0) counts[short.acmgClass] = (counts[short.acmgClass] ?? 0) + shortCount;
  return alleles + shortCount;
}
