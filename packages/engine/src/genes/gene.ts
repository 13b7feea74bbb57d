/**
 * Gene records of the KB (HGNC + MANE + constraint + ClinVar gene-level counts) and the lookup
 * by symbol, alias, previous symbol and identifiers.
 */
import { numOrNull, packTable, TableView, type PackedTable, type StrColumn } from '../kb/io.ts';

export interface GeneConstraint {
  /** Probability of LoF intolerance. */
  pLI: number | null;
  /** Upper bound of the observed/expected LoF 90% CI (LOEUF). */
  loeuf: number | null;
  oeLof: number | null;
  /** Missense Z score (gnomAD v4.1 only). */
  misZ: number | null;
  oeMis: number | null;
  source: 'gnomAD v4.1' | 'gnomAD v2.1.1';
  transcript: string | null;
}

/** Gene-level ClinVar counts. `plp*`/`blb*` by consequence are computed over the KB's own ClinVar alleles. */
export interface GeneClinvarStats {
  /** From ClinVar's gene_specific_summary (all alleles reported for the gene). */
  totalAlleles: number | null;
  plpAlleles: number | null;
  uncertain: number | null;
  conflicts: number | null;
  /** P/LP alleles in the KB whose consequence is null (frameshift, stop gained, canonical splice). */
  plpLof: number;
  /** P/LP missense alleles in the KB (ClinVar molecular consequence or the InterVar missense table). */
  plpMissense: number;
  /** B/LB missense alleles in the KB (ClinVar molecular consequence, where stated). */
  blbMissense: number;
}

export interface GeneRecord {
  symbol: string;
  hgncId: string;
  name: string;
  locusGroup: string;
  locusType: string;
  /** Cytogenetic location, e.g. '10q26.13'. */
  location: string;
  aliases: string[];
  previousSymbols: string[];
  entrezId: string | null;
  ensemblId: string | null;
  omimIds: string[];
  /** MANE Select transcript ids (versioned) as HGNC/MANE state them. */
  maneSelect: { refseq: string | null; ensembl: string | null } | null;
  /** GRCh38 gene span from the MANE summary (1-based inclusive, as NCBI writes it). */
  span38: { chrom: string; start: number; end: number; strand: '+' | '-' } | null;
  constraint: GeneConstraint | null;
  /** Mean AlphaMissense pathogenicity over the gene's transcript (CC BY-NC-SA 4.0). */
  alphaMissenseMean: number | null;
  clinvar: GeneClinvarStats | null;
}

/** Float columns of the packed gene table. */
type GeneFloatColumn = 'pLI' | 'loeuf' | 'oeLof' | 'misZ' | 'oeMis' | 'am' | 'cvTotal' | 'cvPlp' | 'cvUncertain' | 'cvConflicts';

/** Gene records -> packed KB table. */
export function packGenes(genes: GeneRecord[]): PackedTable {
  const col = <T>(f: (g: GeneRecord) => T): T[] => genes.map(f);
  return packTable(genes.length, {
    str: {
      symbol: col((g) => g.symbol),
      hgncId: col((g) => g.hgncId),
      name: col((g) => g.name),
      locusGroup: col((g) => g.locusGroup),
      locusType: col((g) => g.locusType),
      location: col((g) => g.location),
      aliases: col((g) => g.aliases.join('|')),
      previousSymbols: col((g) => g.previousSymbols.join('|')),
      entrezId: col((g) => g.entrezId),
      ensemblId: col((g) => g.ensemblId),
      omimIds: col((g) => g.omimIds.join('|')),
      maneRefseq: col((g) => g.maneSelect?.refseq ?? null),
      maneEnsembl: col((g) => g.maneSelect?.ensembl ?? null),
      spanChrom: col((g) => g.span38?.chrom ?? null),
      spanStrand: col((g) => g.span38?.strand ?? null),
      cSource: col((g) => g.constraint?.source ?? null),
      cTranscript: col((g) => g.constraint?.transcript ?? null),
    },
    i32: {
      spanStart: col((g) => g.span38?.start ?? 0),
      spanEnd: col((g) => g.span38?.end ?? 0),
      hasClinvar: col((g) => (g.clinvar ? 1 : 0)),
      cvPlpLof: col((g) => g.clinvar?.plpLof ?? 0),
      cvPlpMissense: col((g) => g.clinvar?.plpMissense ?? 0),
      cvBlbMissense: col((g) => g.clinvar?.blbMissense ?? 0),
    },
    f64: {
      pLI: col((g) => g.constraint?.pLI ?? null),
      loeuf: col((g) => g.constraint?.loeuf ?? null),
      oeLof: col((g) => g.constraint?.oeLof ?? null),
      misZ: col((g) => g.constraint?.misZ ?? null),
      oeMis: col((g) => g.constraint?.oeMis ?? null),
      am: col((g) => g.alphaMissenseMean),
      cvTotal: col((g) => g.clinvar?.totalAlleles ?? null),
      cvPlp: col((g) => g.clinvar?.plpAlleles ?? null),
      cvUncertain: col((g) => g.clinvar?.uncertain ?? null),
      cvConflicts: col((g) => g.clinvar?.conflicts ?? null),
    },
  });
}

/**
 * The packed gene table's columns, decoded once; the string columns are read by row (StrColumn):
 * a genome materialises a few thousand of the ~44k records, and splitting all 17 string columns
 * made ~750k strings for them.
 */
interface GeneColumns {
  str: Record<'symbol' | 'hgncId' | 'name' | 'locusGroup' | 'locusType' | 'location' | 'aliases' | 'previousSymbols' | 'entrezId' | 'ensemblId' | 'omimIds' | 'maneRefseq' | 'maneEnsembl' | 'spanChrom' | 'spanStrand' | 'cSource' | 'cTranscript', StrColumn>;
  f64: Record<GeneFloatColumn, Float64Array>;
  spanStart: Int32Array;
  spanEnd: Int32Array;
  hasClinvar: Int32Array;
  cvPlpLof: Int32Array;
  cvPlpMissense: Int32Array;
  cvBlbMissense: Int32Array;
}

function geneColumns(v: TableView): GeneColumns {
  const strNames = ['symbol', 'hgncId', 'name', 'locusGroup', 'locusType', 'location', 'aliases', 'previousSymbols', 'entrezId', 'ensemblId', 'omimIds', 'maneRefseq', 'maneEnsembl', 'spanChrom', 'spanStrand', 'cSource', 'cTranscript'] as const;
  const f64Names: GeneFloatColumn[] = ['pLI', 'loeuf', 'oeLof', 'misZ', 'oeMis', 'am', 'cvTotal', 'cvPlp', 'cvUncertain', 'cvConflicts'];
  return {
    str: Object.fromEntries(strNames.map((k) => [k, v.strColumn(k)])) as GeneColumns['str'],
    f64: Object.fromEntries(f64Names.map((k) => [k, v.f64(k)])) as GeneColumns['f64'],
    spanStart: v.i32('spanStart'),
    spanEnd: v.i32('spanEnd'),
    hasClinvar: v.i32('hasClinvar'),
    cvPlpLof: v.i32('cvPlpLof'),
    cvPlpMissense: v.i32('cvPlpMissense'),
    cvBlbMissense: v.i32('cvBlbMissense'),
  };
}

const listOf = (x: string): string[] => (x ? x.split('|') : []);

function recordAt(c: GeneColumns, i: number): GeneRecord {
  const s = c.str;
  const f = c.f64;
  const cSource = s.cSource.get(i) ?? '';
  const strand = s.spanStrand.get(i) ?? '';
  const spanChrom = s.spanChrom.get(i) ?? '';
  const maneRefseq = s.maneRefseq.get(i) ?? '';
  const maneEnsembl = s.maneEnsembl.get(i) ?? '';
  return {
    symbol: s.symbol.get(i) ?? '',
    hgncId: s.hgncId.get(i) ?? '',
    name: s.name.get(i) ?? '',
    locusGroup: s.locusGroup.get(i) ?? '',
    locusType: s.locusType.get(i) ?? '',
    location: s.location.get(i) ?? '',
    aliases: listOf(s.aliases.get(i) ?? ''),
    previousSymbols: listOf(s.previousSymbols.get(i) ?? ''),
    entrezId: s.entrezId.get(i) || null,
    ensemblId: s.ensemblId.get(i) || null,
    omimIds: listOf(s.omimIds.get(i) ?? ''),
    maneSelect: maneRefseq || maneEnsembl ? { refseq: maneRefseq || null, ensembl: maneEnsembl || null } : null,
    span38: spanChrom && (strand === '+' || strand === '-') ? { chrom: spanChrom, start: c.spanStart[i]!, end: c.spanEnd[i]!, strand } : null,
    constraint:
      cSource === 'gnomAD v4.1' || cSource === 'gnomAD v2.1.1'
        ? { pLI: numOrNull(f.pLI[i]), loeuf: numOrNull(f.loeuf[i]), oeLof: numOrNull(f.oeLof[i]), misZ: numOrNull(f.misZ[i]), oeMis: numOrNull(f.oeMis[i]), source: cSource, transcript: s.cTranscript.get(i) || null }
        : null,
    alphaMissenseMean: numOrNull(f.am[i]),
    clinvar: c.hasClinvar[i]
      ? {
          totalAlleles: numOrNull(f.cvTotal[i]),
          plpAlleles: numOrNull(f.cvPlp[i]),
          uncertain: numOrNull(f.cvUncertain[i]),
          conflicts: numOrNull(f.cvConflicts[i]),
          plpLof: c.cvPlpLof[i]!,
          plpMissense: c.cvPlpMissense[i]!,
          blbMissense: c.cvBlbMissense[i]!,
        }
      : null,
  };
}

/**
 * Alias lookups searched in the packed columns before the alias map is built: an annotator asks
 * about a handful of symbols (~0.05 s for the map, ~0.1 ms a search); a caller that asks about many
 * gets the map.
 */
const ALIAS_SCANS_BEFORE_MAP = 32;

/** Symbol/alias/id lookup over gene records (records are materialised on first access). */
export class GeneIndex {
  private readonly view: TableView | null;
  private readonly records: (GeneRecord | undefined)[];
  private readonly bySymbol = new Map<string, number>();
  private byAlias: Map<string, number[]> | null = null;
  /** The packed previous-symbol and alias columns with their upper case (aliasRowByScan), null when not searchable. */
  private aliasText: { col: StrColumn; upper: string }[] | null | undefined = undefined;
  /** Alias lookups answered by aliasRowByScan; past ALIAS_SCANS_BEFORE_MAP the map is built. */
  private aliasScans = 0;
  private columns: GeneColumns | null = null;
  private byId: Map<string, number> | null = null;
  readonly size: number;

  constructor(input: GeneRecord[] | PackedTable) {
    if (Array.isArray(input)) {
      this.view = null;
      this.records = input;
    } else {
      this.view = new TableView(input);
      this.records = new Array<GeneRecord | undefined>(input.n);
    }
    this.size = this.records.length;
    const symbols = this.view ? this.view.str('symbol') : input instanceof Array ? input.map((g) => g.symbol) : [];
    symbols.forEach((sym, i) => this.bySymbol.set(sym.toUpperCase(), i));
  }

  /** Record at row i. */
  at(i: number): GeneRecord {
    let r = this.records[i];
    if (!r) {
      this.columns ??= geneColumns(this.view!);
      r = recordAt(this.columns, i);
      this.records[i] = r;
    }
    return r;
  }

  *all(): Generator<GeneRecord> {
    for (let i = 0; i < this.size; i++) yield this.at(i);
  }

  /** Approved symbol (case-insensitive). */
  bySymbolExact(symbol: string): GeneRecord | undefined {
    const i = this.bySymbol.get(symbol.toUpperCase());
    return i == null ? undefined : this.at(i);
  }

  /** Approved symbol first, then a previous symbol/alias when it names exactly one gene. */
  bySymbolOrAlias(symbol: string): GeneRecord | undefined {
    const exact = this.bySymbolExact(symbol);
    if (exact) return exact;
    if (!this.byAlias && this.aliasScans < ALIAS_SCANS_BEFORE_MAP) {
      const row = this.aliasRowByScan(symbol.toUpperCase());
      if (row !== null) {
        this.aliasScans++;
        return row < 0 ? undefined : this.at(row);
      }
    }
    if (!this.byAlias) {
      const byAlias = new Map<string, number[]>();
      const add = (list: string | readonly string[], i: number): void => {
        if (!list) return;
        for (const a of typeof list === 'string' ? list.split('|') : list) {
          const k = a.toUpperCase();
          const l = byAlias.get(k);
          if (l) l.push(i);
          else byAlias.set(k, [i]);
        }
      };
      // From the packed columns when there are any: materialising ~44k records to read two lists cost ~0.35 s.
      const prev = this.view ? this.view.str('previousSymbols') : null;
      const aliases = this.view ? this.view.str('aliases') : null;
      for (let i = 0; i < this.size; i++) {
        if (prev && aliases) {
          add(prev[i] ?? '', i);
          add(aliases[i] ?? '', i);
        } else {
          const g = this.at(i);
          add(g.previousSymbols, i);
          add(g.aliases, i);
        }
      }
      this.byAlias = byAlias;
    }
    const alias = this.byAlias.get(symbol.toUpperCase());
    return alias?.length === 1 ? this.at(alias[0]!) : undefined;
  }

  /**
   * The row of the one gene that lists `q` (upper case) as a previous symbol or alias, found by a
   * search of the two packed columns (upper-cased once) instead of the alias map: -1 when none or
   * several do (or one lists it twice: the map counts every listing), null when the search cannot
   * answer as the map would (no packed table, a column whose upper case is longer, such as one
   * with a 'ß', or an empty query).
   */
  private aliasRowByScan(q: string): number | null {
    if (!this.view || q.length === 0) return null;
    if (this.aliasText === undefined) {
      const cols = [this.view.strColumn('previousSymbols'), this.view.strColumn('aliases')];
      const upper = cols.map((c) => ({ col: c, upper: c.text.toUpperCase() }));
      // Upper case is context-free (the whole text's is its items'), and no character's is shorter:
      // the same length means every offset still points at the same item.
      this.aliasText = upper.every((u) => u.upper.length === u.col.text.length) ? upper : null;
    }
    if (this.aliasText === null) return null;
    // Listed items are separated by '|' (in a row) and tabs (between rows): no item holds either.
    if (q.includes('|') || q.includes('\t')) return -1;
    let row = -1;
    let found = 0;
    for (const { col, upper } of this.aliasText) {
      for (let at = upper.indexOf(q); at !== -1; at = upper.indexOf(q, at + 1)) {
        const before = at === 0 ? 9 : upper.charCodeAt(at - 1);
        const end = at + q.length;
        const after = end === upper.length ? 9 : upper.charCodeAt(end);
        if ((before !== 9 && before !== 124) || (after !== 9 && after !== 124)) continue;
        if (++found > 1) return -1;
        row = col.rowOf(at);
      }
    }
    return row;
  }

  /** By 'HGNC:n', 'NCBIGene:n' or an Ensembl gene id. */
  byIdentifier(id: string): GeneRecord | undefined {
    if (!this.byId) {
      this.byId = new Map();
      for (let i = 0; i < this.size; i++) {
        const g = this.at(i);
        this.byId.set(g.hgncId, i);
        if (g.entrezId) this.byId.set(`NCBIGene:${g.entrezId}`, i);
        if (g.ensemblId) this.byId.set(g.ensemblId, i);
      }
    }
    const i = this.byId.get(id);
    return i == null ? undefined : this.at(i);
  }
}
