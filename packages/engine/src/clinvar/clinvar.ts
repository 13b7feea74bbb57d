/**
 * ClinVar alleles and ClinVar-derived pathogenic missense positions (InterVar PS1 table), held
 * per chromosome in position-sorted columns for binary search. Positions are 1-based VCF POS.
 */
import { decodeInt32, numOrNull, packTable, TableView, type PackedTable, type StrColumn } from '../kb/io.ts';

/** Review status -> gold stars, per ClinVar's documented mapping (MacArthur files write ', ' as '..'). */
export function starsFromReviewStatus(status: string): number {
  const s = status.replace(/\.\./g, ',_').toLowerCase();
  if (s.includes('practice_guideline')) return 4;
  if (s.includes('reviewed_by_expert_panel')) return 3;
  if (s.includes('criteria_provided') && s.includes('multiple_submitters') && s.includes('no_conflicts')) return 2;
  if (s.includes('criteria_provided') && (s.includes('single_submitter') || s.includes('conflicting'))) return 1;
  return 0;
}

/** ClinVar's review-status wording for a star count, for records that kept only the stars. */
export function reviewStatusOfStars(stars: number): string {
  switch (stars) {
    case 4:
      return 'practice guideline';
    case 3:
      return 'reviewed by expert panel';
    case 2:
      return 'criteria provided, multiple submitters, no conflicts';
    case 1:
      return 'criteria provided, single submitter or conflicting classifications';
    default:
      return 'no assertion criteria provided';
  }
}

/** Review status as ClinVar displays it: 'criteria_provided,_single_submitter' -> 'criteria provided, single submitter'. */
export function formatReviewStatus(status: string): string {
  return status
    .replace(/\.\./g, ',_')
    .replace(/_/g, ' ')
    .replace(/\s*,\s*/g, ', ')
    .replace(/\s+/g, ' ')
    .trim();
}

export type ClinvarClass = 'P' | 'LP' | 'VUS' | 'LB' | 'B' | 'conflicting' | 'other';

/** Broad class of a ClinVar significance string ('Pathogenic', 'Likely_pathogenic', 'Pathogenic/Likely_pathogenic', 'Benign|not_provided' ...). */
export function classifySignificance(sig: string): ClinvarClass {
  const s = sig.toLowerCase().replace(/_/g, ' ');
  const parts = s.split(/[|/,;]/).map((p) => p.trim()).filter((p) => p && p !== 'not provided' && !p.startsWith('other') && p !== 'risk factor' && p !== 'drug response' && p !== 'association' && p !== 'protective');
  if (s.includes('conflicting')) return 'conflicting';
  const has = (x: string): boolean => parts.includes(x);
  const path = has('pathogenic') || has('likely pathogenic') || has('pathogenic, low penetrance') || has('likely pathogenic, low penetrance');
  const ben = has('benign') || has('likely benign');
  const vus = has('uncertain significance');
  if (path && (ben || vus)) return 'conflicting';
  if (ben && vus) return 'conflicting';
  if (path) return has('pathogenic') ? 'P' : 'LP';
  if (ben) return has('benign') ? 'B' : 'LB';
  if (vus) return 'VUS';
  return 'other';
}

export interface ClinvarAllele {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  id: string | null;
  significance: string;
  stars: number;
  /** Review status as ClinVar displays it ('criteria provided, single submitter'); from the stars for KBs built before it was kept. */
  reviewStatus: string;
  conditions: string[];
  gene: string | null;
  /** Population AF carried by the ClinVar record (ExAC/ESP/1000G max), null when absent. */
  af: number | null;
  afSource: string | null;
  /** 'grch38' native record or 'grch37-lifted'. */
  origin: 'grch38' | 'grch37-lifted';
}

export type ClinvarOrigin = ClinvarAllele['origin'];

/** ClinVar release of each origin's source file (e.g. { grch38: '2026-02-26', 'grch37-lifted': '2016-09' }). */
export type ClinvarReleases = Partial<Record<ClinvarOrigin, string>>;

/** On-disk ClinVar: one packed table sorted by (chrom, pos), chromosome row ranges, interned strings. */
export interface ClinvarFile {
  strings: string[];
  chroms: Record<string, [number, number]>;
  table: PackedTable;
  /** Absent in KBs built before releases were recorded (the loader then reads the manifest). */
  releases?: ClinvarReleases;
}

/** Builds the on-disk table (records need not be sorted). */
export function toClinvarFile(records: ClinvarAllele[], releases: ClinvarReleases = {}): ClinvarFile {
  const strings: string[] = [];
  const sIdx = new Map<string, number>();
  const intern = (s: string | null): number => {
    if (s == null || s === '') return -1;
    let i = sIdx.get(s);
    if (i == null) {
      i = strings.length;
      strings.push(s.replace(/[\t\n]/g, ' '));
      sIdx.set(s, i);
    }
    return i;
  };
  const list = [...records].sort((a, b) => (a.chrom < b.chrom ? -1 : a.chrom > b.chrom ? 1 : a.pos - b.pos));
  const chroms: Record<string, [number, number]> = {};
  list.forEach((r, i) => {
    const range = chroms[r.chrom];
    if (range) range[1] = i + 1;
    else chroms[r.chrom] = [i, i + 1];
  });
  const col = <T>(f: (r: ClinvarAllele) => T): T[] => list.map(f);
  return {
    strings,
    chroms,
    releases,
    table: packTable(list.length, {
      i32: {
        pos: col((r) => r.pos),
        sig: col((r) => intern(r.significance)),
        stars: col((r) => r.stars),
        rev: col((r) => intern(r.reviewStatus)),
        cond: col((r) => intern(r.conditions.join('|'))),
        gene: col((r) => intern(r.gene)),
        afSrc: col((r) => intern(r.afSource)),
        origin: col((r) => (r.origin === 'grch38' ? 0 : 1)),
      },
      f64: { af: col((r) => r.af) },
      str: { ref: col((r) => r.ref), alt: col((r) => r.alt), id: col((r) => r.id) },
    }),
  };
}

/** Lower bound: first index in [lo, hi) with a[i] >= x. */
export function lowerBound(a: Int32Array, x: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class ClinvarIndex {
  private readonly view: TableView;
  private readonly chroms: Map<string, [number, number]>;
  private readonly strings: string[];
  private readonly hasReviewStatus: boolean;
  readonly size: number;
  /** Release of each origin's source file, when known. */
  readonly releases: ClinvarReleases;
  /**
   * The POS, REF and ALT columns, decoded on first use (exact() runs once per annotated variant);
   * REF and ALT read in place (StrColumn): ~400k strings less for every garbage collection to mark.
   */
  private keyColumns: { pos: Int32Array; ref: StrColumn; alt: StrColumn } | null = null;

  constructor(file: ClinvarFile, releases: ClinvarReleases = {}) {
    this.strings = file.strings;
    this.view = new TableView(file.table);
    this.chroms = new Map(Object.entries(file.chroms));
    this.size = file.table.n;
    this.hasReviewStatus = file.table.i32.rev != null;
    this.releases = { ...releases, ...file.releases };
  }

  /** The ClinVar release a record comes from ('2026-02-26'), or null when the KB does not say. */
  releaseOf(origin: ClinvarOrigin): string | null {
    return this.releases[origin] ?? null;
  }

  private at(chrom: string, i: number): ClinvarAllele {
    const v = this.view;
    const s = (k: number): string | null => (k >= 0 ? (this.strings[k] ?? null) : null);
    const cond = s(v.i32('cond')[i]!);
    const id = v.strColumn('id').get(i);
    const stars = v.i32('stars')[i]!;
    return {
      chrom,
      pos: v.i32('pos')[i]!,
      ref: v.strColumn('ref').get(i)!,
      alt: v.strColumn('alt').get(i)!,
      id: id ? id : null,
      significance: s(v.i32('sig')[i]!) ?? 'not_provided',
      stars,
      reviewStatus: (this.hasReviewStatus ? s(v.i32('rev')[i]!) : null) ?? reviewStatusOfStars(stars),
      conditions: cond ? cond.split('|') : [],
      gene: s(v.i32('gene')[i]!),
      af: numOrNull(v.f64('af')[i]),
      afSource: s(v.i32('afSrc')[i]!),
      origin: v.i32('origin')[i] === 0 ? 'grch38' : 'grch37-lifted',
    };
  }

  /** Exact allele (VCF-style, ClinVar's own representation). Native GRCh38 records win over lifted ones, then more stars. */
  exact(chrom: string, pos: number, ref: string, alt: string): ClinvarAllele | null {
    const r = this.chroms.get(chrom);
    if (!r) return null;
    const k = (this.keyColumns ??= { pos: this.view.i32('pos'), ref: this.view.strColumn('ref'), alt: this.view.strColumn('alt') });
    const p = k.pos;
    const refs = k.ref;
    const alts = k.alt;
    let best: ClinvarAllele | null = null;
    for (let i = lowerBound(p, pos, r[0], r[1]); i < r[1] && p[i] === pos; i++) {
      if (refs.equals(i, ref) && alts.equals(i, alt)) {
        const a = this.at(chrom, i);
        if (!best || (best.origin !== 'grch38' && a.origin === 'grch38') || (best.origin === a.origin && a.stars > best.stars)) best = a;
      }
    }
    return best;
  }

  /** All alleles with POS in [from, to] (1-based inclusive). */
  range(chrom: string, from: number, to: number): ClinvarAllele[] {
    const r = this.chroms.get(chrom);
    const out: ClinvarAllele[] = [];
    if (!r) return out;
    const p = this.view.i32('pos');
    for (let i = lowerBound(p, from, r[0], r[1]); i < r[1] && p[i]! <= to; i++) out.push(this.at(chrom, i));
    return out;
  }

  *all(): Generator<ClinvarAllele> {
    for (const [chrom, r] of this.chroms) for (let i = r[0]; i < r[1]; i++) yield this.at(chrom, i);
  }
}

/** One ClinVar pathogenic missense SNV from the InterVar PS1 table (GRCh38). */
export interface PathogenicMissense {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  refAa: string;
  altAa: string;
  pChange: string;
  clinvarId: string;
}

export interface MissenseFile {
  chroms: Record<string, { pos: string; ref: string; alt: string; refAa: string; altAa: string; pChange: string[]; id: string[] }>;
}

export function toMissenseFile(rows: PathogenicMissense[]): MissenseFile {
  const by = new Map<string, PathogenicMissense[]>();
  for (const r of rows) {
    const l = by.get(r.chrom);
    if (l) l.push(r);
    else by.set(r.chrom, [r]);
  }
  const chroms: MissenseFile['chroms'] = {};
  for (const [chrom, l] of by) {
    l.sort((a, b) => a.pos - b.pos || (a.alt < b.alt ? -1 : 1));
    chroms[chrom] = {
      pos: Buffer.from(Int32Array.from(l.map((r) => r.pos)).buffer).toString('base64'),
      ref: l.map((r) => r.ref).join(''),
      alt: l.map((r) => r.alt).join(''),
      refAa: l.map((r) => r.refAa).join(''),
      altAa: l.map((r) => r.altAa).join(''),
      pChange: l.map((r) => r.pChange),
      id: l.map((r) => r.clinvarId),
    };
  }
  return { chroms };
}

export class PathogenicMissenseIndex {
  private readonly chroms = new Map<string, { pos: Int32Array; c: MissenseFile['chroms'][string] }>();
  readonly size: number;

  constructor(file: MissenseFile) {
    let n = 0;
    for (const [chrom, c] of Object.entries(file.chroms)) {
      const pos = decodeInt32(c.pos);
      n += pos.length;
      this.chroms.set(chrom, { pos, c });
    }
    this.size = n;
  }

  /** Entries with POS in [from, to] (1-based inclusive). */
  range(chrom: string, from: number, to: number): PathogenicMissense[] {
    const e = this.chroms.get(chrom);
    const out: PathogenicMissense[] = [];
    if (!e) return out;
    for (let i = lowerBound(e.pos, from); i < e.pos.length && e.pos[i]! <= to; i++) {
      out.push({ chrom, pos: e.pos[i]!, ref: e.c.ref[i]!, alt: e.c.alt[i]!, refAa: e.c.refAa[i]!, altAa: e.c.altAa[i]!, pChange: e.c.pChange[i]!, clinvarId: e.c.id[i]! });
    }
    return out;
  }

  /** Number of distinct positions with an entry in [from, to]. */
  countPositions(chrom: string, from: number, to: number): number {
    const e = this.chroms.get(chrom);
    if (!e) return 0;
    let n = 0;
    let last = -1;
    for (let i = lowerBound(e.pos, from); i < e.pos.length && e.pos[i]! <= to; i++) {
      if (e.pos[i] !== last) n++;
      last = e.pos[i]!;
    }
    return n;
  }

  /** Reference amino acid recorded at a genomic position (1-based), or null; allocation-free. */
  refAaAt(chrom: string, pos: number): string | null {
    const e = this.chroms.get(chrom);
    if (!e) return null;
    const i = lowerBound(e.pos, pos);
    return i < e.pos.length && e.pos[i] === pos ? e.c.refAa[i]! : null;
  }

  /** Reference base at a position when the table records one (used to reconstruct codons), else null. */
  refBase(chrom: string, pos: number): string | null {
    const e = this.chroms.get(chrom);
    if (!e) return null;
    const i = lowerBound(e.pos, pos);
    return i < e.pos.length && e.pos[i] === pos ? e.c.ref[i]! : null;
  }
}
