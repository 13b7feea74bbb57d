/**
 * Gene records of the KB (HGNC + MANE + constraint + ClinVar gene-level counts) and the lookup
 * by symbol, alias, previous symbol and identifiers.
 */
import { numOrNull, packTable, TableView, type PackedTable } from '../kb/io.ts';

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

function recordAt(v: TableView, i: number): GeneRecord {
  const str = (k: string): string => v.str(k)[i] ?? '';
  const list = (k: string): string[] => {
    const x = str(k);
    return x ? x.split('|') : [];
  };
  const f = (k: GeneFloatColumn): number | null => numOrNull(v.f64(k)[i]);
  const cSource = str('cSource');
  const strand = str('spanStrand');
  const spanChrom = str('spanChrom');
  const maneRefseq = str('maneRefseq');
  const maneEnsembl = str('maneEnsembl');
  return {
    symbol: str('symbol'),
    hgncId: str('hgncId'),
    name: str('name'),
    locusGroup: str('locusGroup'),
    locusType: str('locusType'),
    location: str('location'),
    aliases: list('aliases'),
    previousSymbols: list('previousSymbols'),
    entrezId: str('entrezId') || null,
    ensemblId: str('ensemblId') || null,
    omimIds: list('omimIds'),
    maneSelect: maneRefseq || maneEnsembl ? { refseq: maneRefseq || null, ensembl: maneEnsembl || null } : null,
    span38: spanChrom && (strand === '+' || strand === '-') ? { chrom: spanChrom, start: v.i32('spanStart')[i]!, end: v.i32('spanEnd')[i]!, strand } : null,
    constraint:
      cSource === 'gnomAD v4.1' || cSource === 'gnomAD v2.1.1'
        ? { pLI: f('pLI'), loeuf: f('loeuf'), oeLof: f('oeLof'), misZ: f('misZ'), oeMis: f('oeMis'), source: cSource, transcript: str('cTranscript') || null }
        : null,
    alphaMissenseMean: f('am'),
    clinvar: v.i32('hasClinvar')[i]
      ? {
          totalAlleles: f('cvTotal'),
          plpAlleles: f('cvPlp'),
          uncertain: f('cvUncertain'),
          conflicts: f('cvConflicts'),
          plpLof: v.i32('cvPlpLof')[i]!,
          plpMissense: v.i32('cvPlpMissense')[i]!,
          blbMissense: v.i32('cvBlbMissense')[i]!,
        }
      : null,
  };
}

/** Symbol/alias/id lookup over gene records (records are materialised on first access). */
export class GeneIndex {
  private readonly view: TableView | null;
  private readonly records: (GeneRecord | undefined)[];
  private readonly bySymbol = new Map<string, number>();
  private byAlias: Map<string, number[]> | null = null;
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
      r = recordAt(this.view!, i);
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
    if (!this.byAlias) {
      this.byAlias = new Map();
      for (let i = 0; i < this.size; i++) {
        const g = this.at(i);
        for (const a of [...g.previousSymbols, ...g.aliases]) {
          const k = a.toUpperCase();
          const l = this.byAlias.get(k);
          if (l) l.push(i);
          else this.byAlias.set(k, [i]);
        }
      }
    }
    const alias = this.byAlias.get(symbol.toUpperCase());
    return alias?.length === 1 ? this.at(alias[0]!) : undefined;
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
