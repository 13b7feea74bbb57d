/**
 * One ALT allele of a VCF record, after multi-allelic splitting (and liftover, when asked).
 * Fixed columns are parsed eagerly; INFO, CSQ/ANN and population frequencies only on demand,
 * from the raw record text shared by every allele of the record.
 */

import type { Assembly, Genotype, VariantKey } from '../types.ts';
import { isVepFrequencyField, parseAnnotationEntry, POPULATION_AF_INFO_KEYS, vepAlleleStrings, type PopulationFrequency, type TranscriptAnnotation } from './annotations.ts';
import type { VcfFieldDefinition, VcfHeader } from './header.ts';

export type InfoValue = string | number | boolean | null | Array<string | number | null>;

/** Per-file state shared by every record (derived from the header once). */
export interface RecordContext {
  header: VcfHeader;
  /** Recognised population-frequency INFO keys declared in this header. */
  afKeys: Array<{ key: string; mode: 'A' | 'R' }>;
}

/**
 * Column offsets of one data line inside the decoded chunk it came from. Columns are sliced
 * only when read, so a record costs one object, not a string per column.
 */
export interface RecordSpans {
  /** Start of the line (CHROM), its end (before any CR/LF), and the tab after each of the first 7 columns. */
  lineStart: number;
  lineEnd: number;
  t1: number;
  t2: number;
  t3: number;
  t4: number;
  t5: number;
  t6: number;
  t7: number;
  /** End of INFO (the next tab or the end of the line). */
  infoEnd: number;
  /** FORMAT and chosen-sample column bounds, -1 when absent. */
  formatStart: number;
  formatEnd: number;
  sampleStart: number;
  sampleEnd: number;
}

/** The raw text of one VCF data line, shared by its split alleles. */
export class VcfRecord {
  private infoMap: Map<string, string | true> | null = null;
  private annotationCache: Map<string, TranscriptAnnotation[]> | null = null;
  private readonly lineStart: number;
  private readonly lineEnd: number;
  private readonly t1: number;
  private readonly t2: number;
  private readonly t3: number;
  private readonly t4: number;
  private readonly t5: number;
  private readonly t6: number;
  private readonly t7: number;
  private readonly infoEnd: number;
  private readonly formatStart: number;
  private readonly formatEnd: number;
  private readonly sampleStart: number;
  private readonly sampleEnd: number;

  constructor(
    readonly ctx: RecordContext,
    /** The decoded text chunk holding the line. */
    private readonly text: string,
    spans: RecordSpans,
    readonly line: number,
    readonly pos: number,
    readonly ref: string,
    readonly alts: readonly string[],
  ) {
    this.lineStart = spans.lineStart;
    this.lineEnd = spans.lineEnd;
    this.t1 = spans.t1;
    this.t2 = spans.t2;
    this.t3 = spans.t3;
    this.t4 = spans.t4;
    this.t5 = spans.t5;
    this.t6 = spans.t6;
    this.t7 = spans.t7;
    this.infoEnd = spans.infoEnd;
    this.formatStart = spans.formatStart;
    this.formatEnd = spans.formatEnd;
    this.sampleStart = spans.sampleStart;
    this.sampleEnd = spans.sampleEnd;
  }

  /**
   * A copy of this record holding only its own line. A record references the decoded chunk
   * (about 1 MiB) it was read from; keep a detached copy when retaining a few records long-term.
   */
  detach(): VcfRecord {
    const start = this.lineStart;
    const end = this.lineEnd;
    const own = (' ' + this.text.slice(start, end)).slice(1);
    const shift = (n: number): number => (n < 0 ? n : n - start);
    return new VcfRecord(
      this.ctx,
      own,
      {
        lineStart: 0,
        lineEnd: shift(end),
        t1: shift(this.t1), t2: shift(this.t2), t3: shift(this.t3), t4: shift(this.t4), t5: shift(this.t5), t6: shift(this.t6), t7: shift(this.t7),
        infoEnd: shift(this.infoEnd), formatStart: shift(this.formatStart), formatEnd: shift(this.formatEnd),
        sampleStart: shift(this.sampleStart), sampleEnd: shift(this.sampleEnd),
      },
      this.line, this.pos, this.ref, this.alts,
    );
  }

  /** CHROM as written. */
  get chrom(): string {
    return this.text.slice(this.lineStart, this.t1);
  }
  get id(): string {
    return this.text.slice(this.t2 + 1, this.t3);
  }
  get qualRaw(): string {
    return this.text.slice(this.t5 + 1, this.t6);
  }
  get filterRaw(): string {
    return this.text.slice(this.t6 + 1, this.t7);
  }
  /** FILTER as a list: [] for '.', ['PASS'] when passed (checked in place, no slice). */
  filters(): string[] {
    const s = this.t6 + 1;
    const n = this.t7 - s;
    if (n === 1 && this.text.charCodeAt(s) === 46) return [];
    if (n === 4 && this.text.startsWith('PASS', s)) return ['PASS'];
    return this.filterRaw.split(';');
  }
  get infoRaw(): string {
    return this.text.slice(this.t7 + 1, this.infoEnd);
  }
  get formatRaw(): string | null {
    return this.formatStart < 0 ? null : this.text.slice(this.formatStart, this.formatEnd);
  }
  get sampleRaw(): string | null {
    return this.sampleStart < 0 ? null : this.text.slice(this.sampleStart, this.sampleEnd);
  }
  /** The whole line as written (without its line break). */
  get lineText(): string {
    return this.text.slice(this.lineStart, this.lineEnd);
  }

  /**
   * GT of every sample column, in header order ('' where FORMAT has no GT). For family analysis;
   * parsed from the line on each call.
   */
  sampleGenotypes(): string[] {
    if (this.formatStart < 0 || this.formatEnd >= this.lineEnd) return [];
    const gtIndex = this.text.slice(this.formatStart, this.formatEnd).split(':').indexOf('GT');
    const cols = this.text.slice(this.formatEnd + 1, this.lineEnd).split('\t');
    return cols.map((c) => (gtIndex < 0 ? '' : (c.split(':')[gtIndex] ?? '')));
  }

  /** The raw INFO value of a key: string, true for a flag, undefined when absent. */
  rawInfo(key: string): string | true | undefined {
    if (this.infoMap !== null) return this.infoMap.get(key);
    const info = this.infoRaw;
    if (info === '.' || info === '') return undefined;
    let from = 0;
    for (;;) {
      const idx = info.indexOf(key, from);
      if (idx === -1) return undefined;
      const end = idx + key.length;
      if (idx === 0 || info.charCodeAt(idx - 1) === 59 /* ; */) {
        if (end === info.length || info.charCodeAt(end) === 59) return true;
        if (info.charCodeAt(end) === 61 /* = */) {
          const semi = info.indexOf(';', end + 1);
          return info.slice(end + 1, semi === -1 ? info.length : semi);
        }
      }
      from = idx + 1;
    }
  }

  /** All INFO entries (parsed once, cached). */
  infoEntries(): Map<string, string | true> {
    if (this.infoMap === null) {
      const m = new Map<string, string | true>();
      if (this.infoRaw !== '.' && this.infoRaw !== '') {
        for (const part of this.infoRaw.split(';')) {
          if (part === '') continue;
          const eq = part.indexOf('=');
          if (eq === -1) m.set(part, true);
          else m.set(part.slice(0, eq), part.slice(eq + 1));
        }
      }
      this.infoMap = m;
    }
    return this.infoMap;
  }

  /** FORMAT values of the chosen sample, by key. */
  sampleValue(key: string): string | undefined {
    if (this.formatRaw === null || this.sampleRaw === null) return undefined;
    const keys = this.formatRaw.split(':');
    const idx = keys.indexOf(key);
    if (idx === -1) return undefined;
    return this.sampleRaw.split(':')[idx];
  }

  /** Parsed CSQ/ANN entries of one annotation key for the whole record. */
  annotationEntries(key: string): TranscriptAnnotation[] {
    this.annotationCache ??= new Map();
    const cached = this.annotationCache.get(key);
    if (cached !== undefined) return cached;
    const layout = this.ctx.header.annotations.find((l) => l.key === key);
    const raw = this.rawInfo(key);
    let out: TranscriptAnnotation[] = [];
    if (layout !== undefined && typeof raw === 'string' && raw !== '.') {
      out = raw.split(',').map((e) => parseAnnotationEntry(e, layout));
    }
    this.annotationCache.set(key, out);
    return out;
  }
}

/** VCF 4.3 percent-encoding (%3B, %3D, %2C, %25 ...) of INFO/FORMAT strings. */
function decodePercent(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function parseScalar(raw: string, def: VcfFieldDefinition | undefined, percentEncoded: boolean): string | number | null {
  if (raw === '.' || raw === '') return null;
  if (def === undefined) return raw;
  if (def.type === 'Integer' || def.type === 'Float') {
    const n = Number(raw);
    return Number.isFinite(n) ? n : raw;
  }
  return percentEncoded && raw.includes('%') ? decodePercent(raw) : raw;
}

export interface VariantLift {
  from: Assembly;
  strand: '+' | '-';
}

export class VcfVariant implements VariantKey {
  /** True when ALT is symbolic (<DEL>, <DUP>, ...) or a breakend: a structural record. */
  readonly isStructural: boolean;

  constructor(
    readonly record: VcfRecord,
    /** 1-based index of this ALT in the record. */
    readonly altIndex: number,
    readonly chrom: string,
    readonly pos: number,
    readonly ref: string,
    readonly alt: string,
    readonly assembly: Assembly,
    readonly genotype: Genotype,
    readonly lift: VariantLift | null,
  ) {
    this.isStructural = alt.charCodeAt(0) === 60 || alt.includes('[') || alt.includes(']');
  }

  /** A copy that no longer references the decoded chunk (see VcfRecord.detach). */
  detach(): VcfVariant {
    return new VcfVariant(this.record.detach(), this.altIndex, this.chrom, this.pos, this.ref, this.alt, this.assembly, this.genotype, this.lift);
  }

  /** The record as written in the input (contig name verbatim, before split/trim/liftover). */
  get input(): VariantKey & { line: number } {
    const r = this.record;
    return { chrom: r.chrom, pos: r.pos, ref: r.ref, alt: r.alts[this.altIndex - 1] ?? '', line: r.line };
  }

  get id(): string | null {
    return this.record.id === '.' ? null : this.record.id;
  }

  get qual(): number | null {
    const q = this.record.qualRaw;
    if (q === '.') return null;
    const n = Number(q);
    return Number.isFinite(n) ? n : null;
  }

  /** FILTER values; [] when '.', ['PASS'] when passed. */
  get filter(): string[] {
    return this.record.filters();
  }


  /** SVTYPE (or the symbolic allele's type) for structural records. */
  get svType(): string | null {
    if (!this.isStructural) return null;
    const t = this.record.rawInfo('SVTYPE');
    if (typeof t === 'string') return t;
    if (this.alt.startsWith('<')) return this.alt.slice(1, -1).split(':')[0] ?? null;
    return 'BND';
  }

  /**
   * A typed INFO value for this allele. Number=A gives this ALT's value, Number=R gives
   * [REF value, this ALT's value]; Flags are true; absent keys undefined; '.' is null.
   */
  info(key: string): InfoValue | undefined {
    const raw = this.record.rawInfo(key);
    if (raw === undefined) return undefined;
    const def = this.record.ctx.header.info.get(key);
    if (raw === true) return true;
    if (def === undefined) return raw;
    if (def.type === 'Flag') return true;
    const n = def.number;
    const ff = this.record.ctx.header.fileformat;
    const pct = ff !== null && ff >= 'VCFv4.3';
    if (n === 1) return parseScalar(raw, def, pct);
    const parts = raw.split(',');
    if (n === 'A') return parseScalar(parts[this.altIndex - 1] ?? '.', def, pct);
    if (n === 'R') return [parseScalar(parts[0] ?? '.', def, pct), parseScalar(parts[this.altIndex] ?? '.', def, pct)];
    return parts.map((p) => parseScalar(p, def, pct));
  }

  /** CSQ/ANN annotations for this ALT allele, from every annotation field in the header. */
  annotations(): TranscriptAnnotation[] {
    const layouts = this.record.ctx.header.annotations;
    if (layouts.length === 0) return [];
    const r = this.record;
    const rawAlt = r.alts[this.altIndex - 1] ?? '';
    const out: TranscriptAnnotation[] = [];
    for (const layout of layouts) {
      const entries = r.annotationEntries(layout.key);
      if (entries.length === 0) continue;
      const hasAlleleNum = layout.fields.includes('ALLELE_NUM');
      const vepAllele = layout.style === 'vep' ? (vepAlleleStrings(r.ref, r.alts)[this.altIndex - 1] ?? rawAlt) : rawAlt;
      for (const e of entries) {
        if (hasAlleleNum) {
          if (e.fields.ALLELE_NUM === String(this.altIndex)) out.push(e);
        } else if (e.allele === vepAllele || e.allele === rawAlt || r.alts.length === 1) {
          out.push(e);
        }
      }
    }
    return out;
  }

  /**
   * Population allele frequency for this ALT: the highest value over recognised INFO keys and
   * CSQ frequency fields (never the caller's own INFO AF). Null when the file carries none.
   */
  populationFrequency(): PopulationFrequency | null {
    // No recognised frequency key and no CSQ/ANN in the header (most files): nothing to read.
    if (this.record.ctx.afKeys.length === 0 && this.record.ctx.header.annotations.length === 0) return null;
    const all: Record<string, number> = {};
    let bestAf = -1;
    let bestSource = '';
    const record = this.record;
    const alts = record.alts.length;
    for (const { key, mode } of record.ctx.afKeys) {
      const raw = record.rawInfo(key);
      if (typeof raw !== 'string') continue;
      const parts = raw.split(',');
      // A key declared Number=1 (or '.') on a multi-allelic record is ambiguous unless it has one value per ALT.
      const idx = mode === 'R' ? this.altIndex : parts.length === alts ? this.altIndex - 1 : alts === 1 ? 0 : -1;
      if (idx < 0) continue;
      const val = parts[idx];
      if (val === undefined || val === '.' || val === '') continue;
      const af = Number(val);
      if (!Number.isFinite(af) || af < 0 || af > 1) continue;
      all[key] = Math.max(all[key] ?? 0, af);
      if (af > bestAf) {
        bestAf = af;
        bestSource = key;
      }
    }
    if (record.ctx.header.annotations.length > 0) {
      for (const a of this.annotations()) {
        const prefix = a.source === 'vep' ? 'CSQ:' : 'ANN:';
        for (const k in a.frequencies) {
          const af = a.frequencies[k]!;
          const source = prefix + k;
          all[source] = Math.max(all[source] ?? 0, af);
          if (af > bestAf) {
            bestAf = af;
            bestSource = source;
          }
        }
      }
    }
    return bestAf < 0 ? null : { af: bestAf, source: bestSource, all };
  }
}

/**
 * True when the file carries population frequencies (declared gnomAD/ExAC/1000G INFO keys or
 * CSQ frequency fields): a variant without a value is then absent from those data.
 */
export function headerHasPopulationFrequencies(header: VcfHeader): boolean {
  return declaredAfKeys(header).length > 0 || header.annotations.some((l) => l.style === 'vep' && l.fields.some((f) => isVepFrequencyField(f)));
}

/** Keys of POPULATION_AF_INFO_KEYS that a header declares, with their allele mapping. */
export function declaredAfKeys(header: VcfHeader): Array<{ key: string; mode: 'A' | 'R' }> {
  const out: Array<{ key: string; mode: 'A' | 'R' }> = [];
  for (const [key, mode] of Object.entries(POPULATION_AF_INFO_KEYS)) {
    if (header.info.has(key)) out.push({ key, mode });
  }
  return out;
}
