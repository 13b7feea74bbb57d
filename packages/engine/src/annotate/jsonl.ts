/**
 * The JSONL record of `rarelens annotate` written straight into a reusable byte buffer: the
 * bytes of `JSON.stringify(toAnnotationJson(v))` + '\n' (same keys, same order, same number
 * and string spelling), without the intermediate snake_case object, the JSON string and its
 * UTF-8 encoding per record. Printable ASCII strings (nearly all of them) are copied byte by
 * byte; any other string goes through JSON.stringify, so escapes and UTF-8 stay those of JSON.
 * toAnnotationJson (output.ts) stays the definition of the record; jsonl.test.ts checks the two
 * agree byte for byte on real files.
 */
import type { AnnotatedVariant } from '../types.ts';

/** The record's constant pieces (keys and punctuation), encoded once. */
const K = encodeAll({
  chromFirst: '{"chrom":',
  pos: ',"pos":',
  ref: ',"ref":',
  alt: ',"alt":',
  input: ',"input":{"chrom":',
  line: ',"line":',
  genotype: '},"genotype":{"gt":',
  zygosity: ',"zygosity":',
  depth: ',"depth":',
  genotypeQuality: ',"genotype_quality":',
  alleleDepths: ',"allele_depths":',
  heteroplasmy: ',"heteroplasmy":',
  filter: '},"filter":',
  qual: ',"qual":',
  gene: ',"gene":',
  hgncId: ',"hgnc_id":',
  transcript: ',"transcript":',
  impact: ',"impact":',
  hgvsC: ',"hgvs_c":',
  hgvsP: ',"hgvs_p":',
  af: ',"af":',
  afSource: ',"af_source":',
  clinvar: ',"clinvar":{"significance":',
  stars: ',"stars":',
  match: ',"match":',
  id: ',"id":',
  conditions: ',"conditions":',
  close: '}',
  noClinvar: ',"clinvar":null',
  acmg: ',"acmg":{"classification":',
  points: ',"points":',
  criteria: ',"criteria":[',
  strength: ',"strength":',
  reason: ',"reason":',
  notAssessed: '],"not_assessed":[',
  score: ']},"score":',
  otherGenes: ',"other_genes":[',
  consequences: ',"consequences":',
  geneConstraint: '],"gene_constraint":{"pli":',
  loeuf: ',"loeuf":',
  misZ: ',"mis_z":',
  source: ',"source":',
  end: '}}\n',
  noConstraintEnd: '],"gene_constraint":null}\n',
  null: 'null',
  maneTrue: ',"is_mane_select":true,"consequences":',
  maneFalse: ',"is_mane_select":false,"consequences":',
  codeFirst: '{"code":',
  code: ',{"code":',
  geneFirst: '{"gene":',
  geneNext: ',{"gene":',
  codingOutcome: ',"coding_outcome":[',
  termFirst: '{"term":',
  termNext: ',{"term":',
  p: ',"p":',
  closeArray: '}]',
});

function encodeAll<T extends Record<string, string>>(pieces: T): { readonly [k in keyof T]: Uint8Array } {
  return Object.fromEntries(Object.entries(pieces).map(([k, v]) => [k, Buffer.from(v, 'latin1')])) as unknown as { [k in keyof T]: Uint8Array };
}

const EMPTY: Uint8Array = new Uint8Array(0);

/** The two ASCII digits of 0-99 (DIGIT_PAIRS[2n], DIGIT_PAIRS[2n + 1]): num() writes two digits per division. */
const DIGIT_PAIRS: Uint8Array = Uint8Array.from({ length: 200 }, (_, k) => 48 + (k & 1 ? (k >> 1) % 10 : Math.floor((k >> 1) / 10)));

/** Distinct GT values whose genotype bytes a writer keeps. */
const MAX_GENOTYPE_RUNS = 256;

/** Strings whose JSON bytes a writer keeps. */
const CACHED_STRINGS = 16_384;
/** Buffers recycle() keeps for reuse. */
const MAX_SPARE_BUFFERS = 8;

export class AnnotationJsonlWriter {
  private buf: Buffer;
  private pos = 0;
  private readonly cache = new Map<string, Uint8Array>();
  private readonly spare: ArrayBuffer[] = [];
  /** JSON bytes of frozen (shared, unchangeable) ACMG results, from the "acmg" key to the end of not_assessed. */
  private readonly acmgBytes = new WeakMap<object, Uint8Array>();
  /** Bytes from the "genotype" key to the zygosity value, by GT and zygosity. */
  private readonly genotypeRuns = new Map<string, Map<string, Uint8Array>>();
  /** The last values of each repeating run of the record and the run's bytes (see add()). */
  private readonly seg = {
    chrom: '\u0000',
    chromBytes: EMPTY,
    inputChrom: '\u0000',
    inputChromBytes: EMPTY,
    filter: '\u0000',
    filterBytes: EMPTY,
    gene: '\u0000' as string | null,
    hgncId: null as string | null,
    transcript: null as string | null,
    mane: false,
    consequences: null as readonly string[] | null,
    impact: '',
    geneBytes: EMPTY,
    acmg: null as object | null,
    score: NaN,
    afSource: null as string | null,
    gcSource: '\u0000' as string | null,
    pLI: null as number | null,
    loeuf: null as number | null,
    misZ: null as number | null,
    tailBytes: EMPTY,
  };

  /** `initial`: bytes of the first buffer (it doubles as needed; take() starts a new one this size). */
  constructor(private readonly initial = 8 << 20) {
    this.buf = Buffer.allocUnsafeSlow(initial);
  }

  /** Bytes written since the last take(). */
  get length(): number {
    return this.pos;
  }

  /**
   * The lines so far (a view of a buffer no longer written to); the writer goes on in a buffer
   * given back by recycle(), else a new one.
   */
  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    const spare = this.spare.pop();
    this.buf = spare !== undefined ? Buffer.from(spare) : Buffer.allocUnsafeSlow(this.initial);
    this.pos = 0;
    return out;
  }

  /**
   * Gives back the memory of an earlier take() whose bytes have been consumed (e.g. written to
   * the file after a transfer to another thread and back): the next take() reuses it instead of
   * allocating (and page-faulting) a new buffer.
   */
  recycle(memory: ArrayBuffer): void {
    if (memory.byteLength >= this.initial && this.spare.length < MAX_SPARE_BUFFERS) this.spare.push(memory);
  }

  /** Appends one record and its newline. */
  add(v: AnnotatedVariant): void {
    const g = v.genotype;
    const i = v.input;
    // Runs of the record that depend on a value or two repeat from record to record (sorted input:
    // same contig, same gene, same genotype, an evidence-free tail): their bytes are kept for the
    // last values seen and copied in one go (segment()).
    const c = this.seg;
    if (v.chrom !== c.chrom) {
      c.chrom = v.chrom;
      c.chromBytes = this.between(K.chromFirst, v.chrom, K.pos);
    }
    this.bytes(c.chromBytes);
    // POS, REF and ALT of the input are most often those of the record (no lift, no trim): their
    // bytes, from the "pos" value to the end of the "alt" value, are then copied from the record's.
    const posStart = this.pos;
    this.num(v.pos);
    this.bytes(K.ref);
    this.str(v.ref);
    this.bytes(K.alt);
    this.str(v.alt);
    const posEnd = this.pos;
    if (i.chrom !== c.inputChrom) {
      c.inputChrom = i.chrom;
      c.inputChromBytes = this.between(K.input, i.chrom, K.pos);
    }
    this.bytes(c.inputChromBytes);
    if (i.pos === v.pos && i.ref === v.ref && i.alt === v.alt) this.again(posStart, posEnd);
    else {
      this.num(i.pos);
      this.bytes(K.ref);
      this.str(i.ref);
      this.bytes(K.alt);
      this.str(i.alt);
    }
    this.bytes(K.line);
    this.num(i.line);
    this.bytes(this.genotypeRun(g.gt, g.zygosity));
    if (g.depth != null) {
      this.bytes(K.depth);
      this.num(g.depth);
    }
    if (g.genotypeQuality != null) {
      this.bytes(K.genotypeQuality);
      this.num(g.genotypeQuality);
    }
    if (g.alleleDepths) {
      this.bytes(K.alleleDepths);
      this.nums(g.alleleDepths);
    }
    if (g.heteroplasmy != null) {
      this.bytes(K.heteroplasmy);
      this.num(g.heteroplasmy);
    }
    const f = v.filter;
    if (f.length === 1 && f[0] === c.filter) this.bytes(c.filterBytes);
    else if (f.length === 1) {
      c.filter = f[0]!;
      c.filterBytes = this.filterRun(f);
      this.bytes(c.filterBytes);
    } else {
      this.bytes(K.filter);
      this.strs(f);
      this.bytes(K.qual);
    }
    this.numOrNull(v.qual);
    // "gene" to "hgvs_c" (key included): a function of the gene, transcript and consequences.
    const co = v.codingOutcome;
    const hgncId = v.hgncId ?? null;
    const mane = v.isManeSelect === true;
    if (!co?.length && v.gene === c.gene && hgncId === c.hgncId && v.transcript === c.transcript && mane === c.mane && v.consequences === c.consequences && v.impact === c.impact) {
      this.bytes(c.geneBytes);
    } else if (!co?.length) {
      c.gene = v.gene;
      c.hgncId = hgncId;
      c.transcript = v.transcript;
      c.mane = mane;
      c.consequences = v.consequences;
      c.impact = v.impact;
      c.geneBytes = this.encoded(() => this.geneMembers(v));
      this.bytes(c.geneBytes);
    } else this.geneMembers(v);
    this.strOrNull(v.hgvsC);
    // "hgvs_p" to the end of the line when there is no protein change, frequency, ClinVar hit or
    // other gene and the ACMG result is a shared (frozen) one: a function of those and the score.
    const gc = v.geneConstraint ?? null;
    const og = v.otherGenes ?? [];
    const afSource = v.afSource ?? null;
    // (c.acmg only ever holds a frozen result: the same object needs no Object.isFrozen call.)
    if (v.hgvsP === null && v.af === null && !v.clinvar && og.length === 0 && (v.acmg === c.acmg || Object.isFrozen(v.acmg))) {
      if (
        v.acmg !== c.acmg || v.score !== c.score || afSource !== c.afSource ||
        (gc === null ? c.gcSource !== null : gc.source !== c.gcSource || gc.pLI !== c.pLI || gc.loeuf !== c.loeuf || gc.misZ !== c.misZ)
      ) {
        c.acmg = v.acmg;
        c.score = v.score;
        c.afSource = afSource;
        c.gcSource = gc?.source ?? null;
        c.pLI = gc?.pLI ?? null;
        c.loeuf = gc?.loeuf ?? null;
        c.misZ = gc?.misZ ?? null;
        c.tailBytes = this.encoded(() => this.tail(v));
      }
      this.bytes(c.tailBytes);
    } else this.tail(v);
  }

  /**
   * The bytes from the "genotype" key to the end of the zygosity value. Genotypes alternate (0/1,
   * 1/1, 0|1, ...): these runs are kept per GT and zygosity, not only the last.
   */
  genotypeRun(gt: string, zygosity: string): Uint8Array {
    let byZygosity = this.genotypeRuns.get(gt);
    if (byZygosity === undefined) {
      byZygosity = new Map<string, Uint8Array>();
      if (this.genotypeRuns.size < MAX_GENOTYPE_RUNS) this.genotypeRuns.set(gt, byZygosity);
    }
    let gb = byZygosity.get(zygosity);
    if (gb === undefined) {
      gb = this.encoded(() => {
        this.bytes(K.genotype);
        this.str(gt);
        this.bytes(K.zygosity);
        this.strCached(zygosity);
      });
      byZygosity.set(zygosity, gb);
    }
    return gb;
  }

  /** The bytes from the end of the genotype to the "qual" key included, for FILTER values `f`. */
  filterRun(f: readonly string[]): Uint8Array {
    return this.encoded(() => {
      this.bytes(K.filter);
      this.strs(f);
      this.bytes(K.qual);
    });
  }

  /** The bytes from the start of a record to its "pos" value (`inInput`: the "input" object's). */
  chromRun(chrom: string, inInput: boolean): Uint8Array {
    return inInput ? this.between(K.input, chrom, K.pos) : this.between(K.chromFirst, chrom, K.pos);
  }

  /**
   * A copy of the bytes of the record written since `start` (this.length before its add()) from
   * its "gene" key to its end: the part of a record that follows "qual". Null when there is none.
   */
  recordTail(start: number): Uint8Array | null {
    const b = this.buf;
    const key = K.gene;
    // A string value never holds a bare '"' (JSON escapes it): the first ',"gene":' is the key.
    outer: for (let p = start; p + key.length <= this.pos; p++) {
      for (let k = 0; k < key.length; k++) if (b[p + k] !== key[k]) continue outer;
      return new Uint8Array(b.subarray(p, this.pos));
    }
    return null;
  }

  /**
   * Appends the record of a substitution of one base by another written as VCF text, whose
   * members from "gene" on are `tail` (recordTail() of a record with the same annotation):
   * `chrom` and `inputChrom` from chromRun(), the POS digits copied from text[posStart, posEnd)
   * (a VCF POS without leading zeros: its JSON spelling), `ref` and `alt` as character codes,
   * `genotype` from genotypeRun() and `filter` from filterRun(). The bytes are those add() writes
   * for the same record (annotate-jsonl.ts, and the test beside this file, compare them).
   */
  addSnv(text: string, posStart: number, posEnd: number, chrom: Uint8Array, inputChrom: Uint8Array, ref: number, alt: number, line: number, genotype: Uint8Array, filter: Uint8Array, qual: number | null, tail: Uint8Array): void {
    const digits = posEnd - posStart;
    this.bytes(chrom);
    this.snvMembers(text, posStart, digits, ref, alt);
    this.bytes(inputChrom);
    this.snvMembers(text, posStart, digits, ref, alt);
    this.bytes(K.line);
    this.num(line);
    this.bytes(genotype);
    this.bytes(filter);
    this.numOrNull(qual);
    this.bytes(tail);
  }

  /** POS digits, then ,"ref":"R","alt":"A" (see addSnv). */
  private snvMembers(text: string, posStart: number, digits: number, ref: number, alt: number): void {
    this.ensure(digits + 24);
    const b = this.buf;
    let p = this.pos;
    for (let k = 0; k < digits; k++) b[p++] = text.charCodeAt(posStart + k);
    const r = K.ref;
    for (let k = 0; k < r.length; k++) b[p++] = r[k]!;
    b[p++] = 34;
    b[p++] = ref;
    b[p++] = 34;
    const a = K.alt;
    for (let k = 0; k < a.length; k++) b[p++] = a[k]!;
    b[p++] = 34;
    b[p++] = alt;
    b[p++] = 34;
    this.pos = p;
  }

  /** From "gene" to the "hgvs_c" key. */
  private geneMembers(v: AnnotatedVariant): void {
    this.bytes(K.gene);
    this.strOrNull(v.gene, true);
    this.bytes(K.hgncId);
    this.strOrNull(v.hgncId ?? null, true);
    this.bytes(K.transcript);
    this.strOrNull(v.transcript, true);
    this.bytes(v.isManeSelect === true ? K.maneTrue : K.maneFalse);
    this.strs(v.consequences);
    const co = v.codingOutcome;
    if (co?.length) {
      this.bytes(K.codingOutcome);
      for (let k = 0; k < co.length; k++) {
        this.bytes(k === 0 ? K.termFirst : K.termNext);
        this.strCached(co[k]!.term);
        this.bytes(K.p);
        this.num(Math.round(co[k]!.p * 1000) / 1000);
        if (k < co.length - 1) this.bytes(K.close);
      }
      this.bytes(K.closeArray);
    }
    this.bytes(K.impact);
    this.strCached(v.impact);
    this.bytes(K.hgvsC);
  }

  /** From "hgvs_p" to the end of the line. */
  private tail(v: AnnotatedVariant): void {
    this.bytes(K.hgvsP);
    this.strOrNull(v.hgvsP);
    this.bytes(K.af);
    this.numOrNull(v.af);
    this.bytes(K.afSource);
    this.strOrNull(v.afSource ?? null, true);
    const c = v.clinvar;
    if (c) {
      this.bytes(K.clinvar);
      this.strCached(c.significance);
      this.bytes(K.stars);
      this.num(c.stars);
      this.bytes(K.match);
      this.strCached(c.match);
      this.bytes(K.id);
      this.strOrNull(c.id ?? null);
      this.bytes(K.conditions);
      this.strs(c.conditions ?? []);
      this.bytes(K.close);
    } else this.bytes(K.noClinvar);
    const acmg = v.acmg;
    // A frozen ACMG result is shared by many records (the annotator's evidence-free variants): its bytes are kept.
    if (Object.isFrozen(acmg)) {
      const kept = this.acmgBytes.get(acmg);
      if (kept !== undefined) this.bytes(kept);
      else {
        const b = this.encoded(() => this.acmg(acmg));
        this.acmgBytes.set(acmg, b);
        this.bytes(b);
      }
    } else this.acmg(acmg);
    this.bytes(K.score);
    this.num(Math.round(v.score * 10000) / 10000);
    this.bytes(K.otherGenes);
    const og = v.otherGenes ?? [];
    for (let k = 0; k < og.length; k++) {
      const o = og[k]!;
      this.bytes(k === 0 ? K.geneFirst : K.geneNext);
      this.strCached(o.gene);
      this.bytes(K.transcript);
      this.strCached(o.transcript);
      this.bytes(K.consequences);
      this.strs(o.consequences);
      this.bytes(K.impact);
      this.strCached(o.impact);
      this.bytes(K.close);
    }
    const gc = v.geneConstraint;
    if (gc) {
      this.bytes(K.geneConstraint);
      this.numOrNull(gc.pLI);
      this.bytes(K.loeuf);
      this.numOrNull(gc.loeuf);
      this.bytes(K.misZ);
      this.numOrNull(gc.misZ);
      this.bytes(K.source);
      this.strCached(gc.source);
      this.bytes(K.end);
    } else this.bytes(K.noConstraintEnd);
  }

  /** The bytes of `before`, the JSON string `s` and `after` (see encoded()). */
  private between(before: Uint8Array, s: string, after: Uint8Array): Uint8Array {
    return this.encoded(() => {
      this.bytes(before);
      this.str(s);
      this.bytes(after);
    });
  }

  /** The bytes `write` writes (a copy to keep), not left in the output: the caller writes them with bytes(). */
  private encoded(write: () => void): Uint8Array {
    const start = this.pos;
    write();
    // A plain Uint8Array (Buffer's own slice would construct a Buffer: slower).
    const b = this.buf;
    const out = new Uint8Array(this.pos - start);
    out.set(new Uint8Array(b.buffer, b.byteOffset + start, out.length));
    this.pos = start;
    return out;
  }

  /** The "acmg" member, from its key to the end of not_assessed. */
  private acmg(acmg: AnnotatedVariant['acmg']): void {
    this.bytes(K.acmg);
    this.strCached(acmg.classification);
    this.bytes(K.points);
    this.num(acmg.points);
    this.bytes(K.criteria);
    for (let k = 0; k < acmg.criteria.length; k++) {
      const cr = acmg.criteria[k]!;
      this.bytes(k === 0 ? K.codeFirst : K.code);
      this.strCached(cr.code);
      this.bytes(K.strength);
      this.strCached(cr.strength);
      this.bytes(K.points);
      this.num(cr.points);
      this.bytes(K.reason);
      this.strCached(cr.reason);
      this.bytes(K.close);
    }
    this.bytes(K.notAssessed);
    const na = acmg.notAssessed ?? [];
    for (let k = 0; k < na.length; k++) {
      this.bytes(k === 0 ? K.codeFirst : K.code);
      this.strCached(na[k]!.code);
      this.bytes(K.reason);
      this.strCached(na[k]!.reason);
      this.bytes(K.close);
    }
  }

  /** Room for `n` more bytes. */
  private ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(need, this.buf.length * 2));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A constant piece of the record. */
  private bytes(b: Uint8Array): void {
    const n = b.length;
    this.ensure(n);
    const buf = this.buf;
    const p = this.pos;
    // A loop for the shortest pieces; TypedArray.set from 17 bytes on (measured: 8, 16 or none alike, 64 slower).
    if (n <= 16) for (let k = 0; k < n; k++) buf[p + k] = b[k]!;
    else buf.set(b, p);
    this.pos = p + n;
  }

  /** The bytes already written at [start, end) of the current buffer, again at the end. */
  private again(start: number, end: number): void {
    const n = end - start;
    this.ensure(n);
    const buf = this.buf;
    const p = this.pos;
    if (n <= 32) for (let k = 0; k < n; k++) buf[p + k] = buf[start + k]!;
    else buf.copyWithin(p, start, end);
    this.pos = p + n;
  }

  private byte(c: number): void {
    this.ensure(1);
    this.buf[this.pos++] = c;
  }

  /** An ASCII piece (a number's spelling). */
  private raw(s: string): void {
    const n = s.length;
    this.ensure(n);
    const b = this.buf;
    let p = this.pos;
    for (let k = 0; k < n; k++) b[p++] = s.charCodeAt(k);
    this.pos = p;
  }

  /** A JSON string: printable ASCII copied as is; anything else spelled by JSON.stringify. */
  private str(s: string): void {
    const n = s.length;
    this.ensure(n + 2);
    const b = this.buf;
    let p = this.pos;
    b[p++] = 34;
    for (let k = 0; k < n; k++) {
      const c = s.charCodeAt(k);
      if (c < 32 || c > 126 || c === 34 || c === 92) return this.strEscaped(s);
      b[p++] = c;
    }
    b[p++] = 34;
    this.pos = p;
  }

  /**
   * A string likely to recur (gene, transcript, consequence, criterion and its reason, ...):
   * its JSON bytes are kept (up to CACHED_STRINGS of them) and copied in one go.
   */
  private strCached(s: string): void {
    if (s.length < 12) return this.str(s);
    let b = this.cache.get(s);
    if (b === undefined) {
      if (this.cache.size >= CACHED_STRINGS) return this.str(s);
      b = Buffer.from(JSON.stringify(s), 'utf8');
      this.cache.set(s, b);
    }
    this.bytes(b);
  }

  private strEscaped(s: string): void {
    const j = JSON.stringify(s);
    // UTF-8 takes at most 3 bytes per UTF-16 unit (JSON.stringify escapes lone surrogates).
    this.ensure(j.length * 3);
    this.pos += this.buf.write(j, this.pos);
  }

  private strOrNull(s: string | null, cached = false): void {
    if (s === null) this.bytes(K.null);
    else if (cached) this.strCached(s);
    else this.str(s);
  }

  private strs(xs: readonly string[]): void {
    this.byte(91); // [
    for (let k = 0; k < xs.length; k++) {
      if (k > 0) this.byte(44); // ,
      this.strCached(xs[k]!);
    }
    this.byte(93); // ]
  }

  /** A JSON number: what JSON.stringify writes (non-finite -> null, -0 -> 0). */
  private num(x: number): void {
    if (x >= 0 && x <= 0x7fffffff && (x | 0) === x) {
      // Positions, line numbers, depths: 32-bit integers (integer arithmetic for the digits).
      this.ensure(10);
      const b = this.buf;
      const digits = x < 10 ? 1 : x < 100 ? 2 : x < 1000 ? 3 : x < 10000 ? 4 : x < 100000 ? 5 : x < 1000000 ? 6 : x < 10000000 ? 7 : x < 100000000 ? 8 : x < 1000000000 ? 9 : 10;
      let p = this.pos + digits;
      this.pos = p;
      let t = x;
      while (t >= 100) {
        const q = (t / 100) | 0;
        const r = (t - q * 100) << 1;
        b[--p] = DIGIT_PAIRS[r + 1]!;
        b[--p] = DIGIT_PAIRS[r]!;
        t = q;
      }
      if (t >= 10) {
        b[--p] = DIGIT_PAIRS[(t << 1) + 1]!;
        b[--p] = DIGIT_PAIRS[t << 1]!;
      } else b[--p] = 48 + t;
      return;
    }
    if (Number.isInteger(x) && x >= 0 && x < 1e15) {
      this.ensure(16);
      const b = this.buf;
      if (x < 10) {
        b[this.pos++] = 48 + x;
        return;
      }
      let digits = 1;
      for (let t = x; t >= 10; t = Math.floor(t / 10)) digits++;
      let p = this.pos + digits;
      this.pos = p;
      for (let t = x; p > this.pos - digits; t = Math.floor(t / 10)) b[--p] = 48 + (t % 10);
      return;
    }
    this.raw(Number.isFinite(x) ? String(x) : 'null');
  }

  private numOrNull(x: number | null): void {
    if (x === null) this.bytes(K.null);
    else this.num(x);
  }

  private nums(xs: readonly number[]): void {
    this.byte(91); // [
    for (let k = 0; k < xs.length; k++) {
      if (k > 0) this.byte(44); // ,
      // JSON.stringify writes a missing array element as null.
      this.numOrNull(xs[k] ?? null);
    }
    this.byte(93); // ]
  }
}
