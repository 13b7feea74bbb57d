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

export class AnnotationJsonlWriter {
  private buf: Buffer;
  private pos = 0;

  /** `initial`: bytes of the first buffer (it doubles as needed; take() starts a new one this size). */
  constructor(private readonly initial = 8 << 20) {
    this.buf = Buffer.allocUnsafeSlow(initial);
  }

  /** Bytes written since the last take(). */
  get length(): number {
    return this.pos;
  }

  /** The lines so far (a view of a buffer no longer written to); the writer starts afresh. */
  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafeSlow(this.initial);
    this.pos = 0;
    return out;
  }

  /** Appends one record and its newline. */
  add(v: AnnotatedVariant): void {
    const g = v.genotype;
    this.raw('{"chrom":');
    this.str(v.chrom);
    this.raw(',"pos":');
    this.num(v.pos);
    this.raw(',"ref":');
    this.str(v.ref);
    this.raw(',"alt":');
    this.str(v.alt);
    const i = v.input;
    this.raw(',"input":{"chrom":');
    this.str(i.chrom);
    this.raw(',"pos":');
    this.num(i.pos);
    this.raw(',"ref":');
    this.str(i.ref);
    this.raw(',"alt":');
    this.str(i.alt);
    this.raw(',"line":');
    this.num(i.line);
    this.raw('},"genotype":{"gt":');
    this.str(g.gt);
    this.raw(',"zygosity":');
    this.str(g.zygosity);
    if (g.depth != null) {
      this.raw(',"depth":');
      this.num(g.depth);
    }
    if (g.genotypeQuality != null) {
      this.raw(',"genotype_quality":');
      this.num(g.genotypeQuality);
    }
    if (g.alleleDepths) {
      this.raw(',"allele_depths":');
      this.nums(g.alleleDepths);
    }
    this.raw('},"filter":');
    this.strs(v.filter);
    this.raw(',"qual":');
    this.numOrNull(v.qual);
    this.raw(',"gene":');
    this.strOrNull(v.gene);
    this.raw(',"hgnc_id":');
    this.strOrNull(v.hgncId ?? null);
    this.raw(',"transcript":');
    this.strOrNull(v.transcript);
    this.raw(v.isManeSelect === true ? ',"is_mane_select":true,"consequences":' : ',"is_mane_select":false,"consequences":');
    this.strs(v.consequences);
    this.raw(',"impact":');
    this.str(v.impact);
    this.raw(',"hgvs_c":');
    this.strOrNull(v.hgvsC);
    this.raw(',"hgvs_p":');
    this.strOrNull(v.hgvsP);
    this.raw(',"af":');
    this.numOrNull(v.af);
    this.raw(',"af_source":');
    this.strOrNull(v.afSource ?? null);
    const c = v.clinvar;
    if (c) {
      this.raw(',"clinvar":{"significance":');
      this.str(c.significance);
      this.raw(',"stars":');
      this.num(c.stars);
      this.raw(',"match":');
      this.str(c.match);
      this.raw(',"id":');
      this.strOrNull(c.id ?? null);
      this.raw(',"conditions":');
      this.strs(c.conditions ?? []);
      this.raw('}');
    } else this.raw(',"clinvar":null');
    const acmg = v.acmg;
    this.raw(',"acmg":{"classification":');
    this.str(acmg.classification);
    this.raw(',"points":');
    this.num(acmg.points);
    this.raw(',"criteria":[');
    for (let k = 0; k < acmg.criteria.length; k++) {
      const cr = acmg.criteria[k]!;
      this.raw(k === 0 ? '{"code":' : ',{"code":');
      this.str(cr.code);
      this.raw(',"strength":');
      this.str(cr.strength);
      this.raw(',"points":');
      this.num(cr.points);
      this.raw(',"reason":');
      this.str(cr.reason);
      this.raw('}');
    }
    this.raw('],"not_assessed":[');
    const na = acmg.notAssessed ?? [];
    for (let k = 0; k < na.length; k++) {
      this.raw(k === 0 ? '{"code":' : ',{"code":');
      this.str(na[k]!.code);
      this.raw(',"reason":');
      this.str(na[k]!.reason);
      this.raw('}');
    }
    this.raw(']},"score":');
    this.num(Math.round(v.score * 10000) / 10000);
    this.raw(',"other_genes":[');
    const og = v.otherGenes ?? [];
    for (let k = 0; k < og.length; k++) {
      const o = og[k]!;
      this.raw(k === 0 ? '{"gene":' : ',{"gene":');
      this.str(o.gene);
      this.raw(',"transcript":');
      this.str(o.transcript);
      this.raw(',"consequences":');
      this.strs(o.consequences);
      this.raw(',"impact":');
      this.str(o.impact);
      this.raw('}');
    }
    const gc = v.geneConstraint;
    if (gc) {
      this.raw('],"gene_constraint":{"pli":');
      this.numOrNull(gc.pLI);
      this.raw(',"loeuf":');
      this.numOrNull(gc.loeuf);
      this.raw(',"mis_z":');
      this.numOrNull(gc.misZ);
      this.raw(',"source":');
      this.str(gc.source);
      this.raw('}}\n');
    } else this.raw('],"gene_constraint":null}\n');
  }

  /** Room for `n` more bytes. */
  private ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(need, this.buf.length * 2));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A constant ASCII piece of the record (keys, punctuation). */
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

  private strEscaped(s: string): void {
    const j = JSON.stringify(s);
    // UTF-8 takes at most 3 bytes per UTF-16 unit (JSON.stringify escapes lone surrogates).
    this.ensure(j.length * 3);
    this.pos += this.buf.write(j, this.pos);
  }

  private strOrNull(s: string | null): void {
    if (s === null) this.raw('null');
    else this.str(s);
  }

  private strs(xs: readonly string[]): void {
    this.raw('[');
    for (let k = 0; k < xs.length; k++) {
      if (k > 0) this.raw(',');
      this.str(xs[k]!);
    }
    this.raw(']');
  }

  /** A JSON number: what JSON.stringify writes (non-finite -> null, -0 -> 0). */
  private num(x: number): void {
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
    if (x === null) this.raw('null');
    else this.num(x);
  }

  private nums(xs: readonly number[]): void {
    this.raw('[');
    for (let k = 0; k < xs.length; k++) {
      if (k > 0) this.raw(',');
      // JSON.stringify writes a missing array element as null.
      this.numOrNull(xs[k] ?? null);
    }
    this.raw(']');
  }
}
