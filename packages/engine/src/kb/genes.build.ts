/**
 * KB build steps for gene-level sources: HGNC complete set, MANE summary, gnomAD constraint
 * (v4.1 joined on the Ensembl gene id, v2.1.1 by symbol as fallback), AlphaMissense gene means
 * and ClinVar's gene_specific_summary.
 */
import type { GeneRecord } from '../genes/gene.ts';
import { normalizeKbContig } from './contig.ts';
import { parseIntField, parseOptFloat, readSourceLines, splitTsv } from './io.ts';
import { KbSourceError } from './types.ts';
import type { ResolvedSource } from './sources.ts';

const stripVersion = (id: string): string => id.replace(/\.\d+$/, '');
const unquote = (s: string): string => (s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);
const splitPipe = (s: string | undefined): string[] => (s ? unquote(s).split('|').filter(Boolean) : []);

export interface GeneBuildState {
  genes: GeneRecord[];
  bySymbol: Map<string, GeneRecord>;
  byHgnc: Map<string, GeneRecord>;
  /** Unversioned RefSeq/Ensembl transcript accession -> gene. */
  accessionToGene: Map<string, GeneRecord>;
  /** Unversioned accession -> MANE status. */
  maneStatus: Map<string, 'select' | 'plus_clinical'>;
}

/** HGNC complete set (required): one record per approved gene. */
export async function readHgnc(src: ResolvedSource, signal?: AbortSignal): Promise<{ state: GeneBuildState; records: number; version: string }> {
  const state: GeneBuildState = { genes: [], bySymbol: new Map(), byHgnc: new Map(), accessionToGene: new Map(), maneStatus: new Map() };
  let col: Record<string, number> = {};
  let maxModified = '';
  const need = ['hgnc_id', 'symbol', 'name', 'locus_group', 'locus_type', 'location', 'alias_symbol', 'prev_symbol', 'entrez_id', 'ensembl_gene_id', 'refseq_accession', 'omim_id'];
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (n === 1) {
      const header = line.split('\t');
      col = Object.fromEntries(header.map((h, i) => [h, i]));
      for (const k of need) if (col[k] == null) throw new KbSourceError(src.rel, `HGNC header lacks column '${k}'`, 1);
      continue;
    }
    if (line === '') continue;
    const c = line.split('\t');
    if (c.length < need.length) throw new KbSourceError(src.rel, `expected the HGNC columns, found ${c.length}`, n);
    const get = (k: string): string => unquote(c[col[k]!] ?? '');
    const hgncId = get('hgnc_id');
    if (!/^HGNC:\d+$/.test(hgncId)) throw new KbSourceError(src.rel, `field hgnc_id: expected 'HGNC:<n>', got '${hgncId}'`, n);
    if (col.status != null && get('status') !== 'Approved') continue;
    const mane = splitPipe(col.mane_select != null ? c[col.mane_select] : undefined);
    const modified = col.date_modified != null ? get('date_modified') : '';
    if (modified > maxModified) maxModified = modified;
    const g: GeneRecord = {
      symbol: get('symbol'),
      hgncId,
      name: get('name'),
      locusGroup: get('locus_group'),
      locusType: get('locus_type'),
      location: get('location'),
      aliases: splitPipe(c[col.alias_symbol!]),
      previousSymbols: splitPipe(c[col.prev_symbol!]),
      entrezId: get('entrez_id') || null,
      ensemblId: get('ensembl_gene_id') || null,
      omimIds: splitPipe(c[col.omim_id!]),
      maneSelect: mane.length ? { refseq: mane.find((m) => m.startsWith('N')) ?? null, ensembl: mane.find((m) => m.startsWith('ENST')) ?? null } : null,
      span38: null,
      constraint: null,
      alphaMissenseMean: null,
      clinvar: null,
    };
    state.genes.push(g);
    state.bySymbol.set(g.symbol, g);
    state.byHgnc.set(hgncId, g);
    for (const acc of splitPipe(c[col.refseq_accession!])) if (!state.accessionToGene.has(acc)) state.accessionToGene.set(stripVersion(acc), g);
    for (const m of mane) {
      state.accessionToGene.set(stripVersion(m), g);
      state.maneStatus.set(stripVersion(m), 'select');
    }
  }
  if (state.genes.length === 0) throw new KbSourceError(src.rel, 'no gene records found');
  return { state, records: state.genes.length, version: maxModified ? `date_modified<=${maxModified}` : 'unknown' };
}

/** MANE summary: GRCh38 gene spans, MANE Select / Plus Clinical transcript ids. */
export async function readManeSummary(src: ResolvedSource, state: GeneBuildState, signal?: AbortSignal): Promise<{ records: number; skipped: number }> {
  let col: Record<string, number> = {};
  let records = 0;
  let skipped = 0;
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (n === 1) {
      col = Object.fromEntries(line.replace(/^#/, '').split('\t').map((h, i) => [h, i]));
      for (const k of ['HGNC_ID', 'symbol', 'RefSeq_nuc', 'Ensembl_nuc', 'MANE_status', 'GRCh38_chr', 'chr_start', 'chr_end', 'chr_strand']) {
        if (col[k] == null) throw new KbSourceError(src.rel, `MANE summary header lacks column '${k}'`, 1);
      }
      continue;
    }
    if (line === '') continue;
    const c = splitTsv(line, 14, src.rel, n);
    records++;
    const get = (k: string): string => c[col[k]!] ?? '';
    const status = get('MANE_status');
    const mane = status === 'MANE Select' ? 'select' : status === 'MANE Plus Clinical' ? 'plus_clinical' : null;
    if (!mane) throw new KbSourceError(src.rel, `field MANE_status: unknown value '${status}'`, n);
    const g = state.byHgnc.get(get('HGNC_ID')) ?? state.bySymbol.get(get('symbol'));
    if (!g) {
      skipped++;
      continue;
    }
    const refseq = get('RefSeq_nuc');
    const ens = get('Ensembl_nuc');
    state.maneStatus.set(stripVersion(refseq), mane);
    state.maneStatus.set(stripVersion(ens), mane);
    state.accessionToGene.set(stripVersion(refseq), g);
    state.accessionToGene.set(stripVersion(ens), g);
    if (mane === 'select') {
      g.maneSelect = { refseq, ensembl: ens };
      const chrom = normalizeKbContig(get('GRCh38_chr'));
      const strand = get('chr_strand');
      if (chrom && (strand === '+' || strand === '-')) {
        g.span38 = {
          chrom,
          start: parseIntField(get('chr_start'), 'chr_start', src.rel, n),
          end: parseIntField(get('chr_end'), 'chr_end', src.rel, n),
          strand,
        };
      }
    }
  }
  return { records, skipped };
}

/** gnomAD v4.1 constraint (CSV, Ensembl gene id keyed). */
export async function readConstraintV4(src: ResolvedSource, state: GeneBuildState, signal?: AbortSignal): Promise<{ records: number; skipped: number }> {
  const byEns = new Map<string, GeneRecord>();
  for (const g of state.genes) if (g.ensemblId) byEns.set(g.ensemblId, g);
  let col: Record<string, number> = {};
  let records = 0;
  let skipped = 0;
  const sep = src.path.includes('.csv') ? ',' : '\t';
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (n === 1) {
      col = Object.fromEntries(line.split(sep).map((h, i) => [h.trim(), i]));
      // Accept both the trimmed cre column names and the official gnomAD v4.1 constraint TSV names.
      const alias: Record<string, string[]> = {
        gene: ['Ensembl_gene_id', 'gene_id'],
        tx: ['Ensembl_transcript_id', 'transcript'],
        loeuf: ['Gnomad_oe_ci_upper', 'lof.oe_ci.upper'],
        oeLof: ['Gnomad_oe_lof_score', 'lof.oe'],
        pli: ['Gnomad_pLI_score', 'lof.pLI'],
        oeMis: ['Gnomad_oe_mis_score', 'mis.oe'],
        misZ: ['Gnomad_mis_z_score', 'mis.z_score'],
      };
      const resolved: Record<string, number> = {};
      for (const [k, names] of Object.entries(alias)) {
        const idx = names.map((nm) => col[nm]).find((v) => v != null);
        if (idx == null) throw new KbSourceError(src.rel, `constraint header lacks a column for ${k} (${names.join(' or ')})`, 1);
        resolved[k] = idx;
      }
      col = resolved;
      continue;
    }
    if (line === '') continue;
    const c = line.split(sep);
    records++;
    const g = byEns.get(stripVersion(c[col.gene!] ?? ''));
    if (!g) {
      skipped++;
      continue;
    }
    g.constraint = {
      pLI: parseOptFloat(c[col.pli!], 'pLI', src.rel, n),
      loeuf: parseOptFloat(c[col.loeuf!], 'LOEUF', src.rel, n),
      oeLof: parseOptFloat(c[col.oeLof!], 'oe_lof', src.rel, n),
      misZ: parseOptFloat(c[col.misZ!], 'mis_z', src.rel, n),
      oeMis: parseOptFloat(c[col.oeMis!], 'oe_mis', src.rel, n),
      source: 'gnomAD v4.1',
      transcript: c[col.tx!] || null,
    };
  }
  return { records, skipped };
}

/** gnomAD v2.1.1 lof_metrics (symbol keyed): fills genes that v4.1 did not cover. */
export async function readConstraintV2(src: ResolvedSource, state: GeneBuildState, signal?: AbortSignal): Promise<{ records: number; skipped: number }> {
  let col: Record<string, number> | null = null;
  let records = 0;
  let skipped = 0;
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (line.startsWith('##') || line === '') continue;
    if (!col) {
      col = Object.fromEntries(line.replace(/^#/, '').split('\t').map((h, i) => [h, i]));
      for (const k of ['gene', 'pLI', 'oe_lof', 'oe_lof_upper']) if (col[k] == null) throw new KbSourceError(src.rel, `header lacks column '${k}'`, n);
      continue;
    }
    const c = line.split('\t');
    records++;
    const g = state.bySymbol.get(c[col.gene!] ?? '');
    if (!g) {
      skipped++;
      continue;
    }
    if (g.constraint) continue;
    g.constraint = {
      pLI: parseOptFloat(c[col.pLI!], 'pLI', src.rel, n),
      loeuf: parseOptFloat(c[col.oe_lof_upper!], 'oe_lof_upper', src.rel, n),
      oeLof: parseOptFloat(c[col.oe_lof!], 'oe_lof', src.rel, n),
      misZ: col.mis_z != null ? parseOptFloat(c[col.mis_z], 'mis_z', src.rel, n) : null,
      oeMis: null,
      source: 'gnomAD v2.1.1',
      transcript: col.transcript != null ? (c[col.transcript] ?? null) : null,
    };
  }
  return { records, skipped };
}

/** AlphaMissense per-transcript means, joined via MANE/HGNC Ensembl transcript ids. */
export async function readAlphaMissenseGenes(src: ResolvedSource, state: GeneBuildState, signal?: AbortSignal): Promise<{ records: number; skipped: number }> {
  let records = 0;
  let skipped = 0;
  let header = false;
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (line.startsWith('#') || line === '') continue;
    if (!header) {
      header = true;
      if (!line.startsWith('transcript_id')) throw new KbSourceError(src.rel, `expected header 'transcript_id mean_am_pathogenicity', got '${line.slice(0, 60)}'`, n);
      continue;
    }
    const c = splitTsv(line, 2, src.rel, n);
    records++;
    const g = state.accessionToGene.get(stripVersion(c[0]!));
    const v = parseOptFloat(c[1], 'mean_am_pathogenicity', src.rel, n);
    if (!g || v == null) {
      skipped++;
      continue;
    }
    // Prefer the MANE transcript's mean when a gene has several rows.
    const isMane = g.maneSelect?.ensembl != null && stripVersion(g.maneSelect.ensembl) === stripVersion(c[0]!);
    if (g.alphaMissenseMean == null || isMane) g.alphaMissenseMean = v;
  }
  return { records, skipped };
}

/** ClinVar gene_specific_summary: P/LP allele counts per gene (joined on NCBI GeneID, then symbol). */
export async function readClinvarGeneSummary(src: ResolvedSource, state: GeneBuildState, signal?: AbortSignal): Promise<{ records: number; skipped: number; version: string }> {
  const byEntrez = new Map<string, GeneRecord>();
  for (const g of state.genes) if (g.entrezId) byEntrez.set(g.entrezId, g);
  let col: Record<string, number> | null = null;
  let version = 'unknown';
  let records = 0;
  let skipped = 0;
  const num = (v: string | undefined, f: string, n: number): number | null => (v === '-' ? 0 : parseOptFloat(v, f, src.rel, n));
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (line === '') continue;
    if (line.startsWith('#Overview')) {
      const m = /dated (.+)$/.exec(line);
      if (m?.[1]) {
        const d = new Date(`${m[1]} UTC`);
        version = Number.isNaN(d.getTime()) ? m[1] : d.toISOString().slice(0, 10);
      }
      continue;
    }
    if (line.startsWith('#')) {
      col = Object.fromEntries(line.slice(1).split('\t').map((h, i) => [h, i]));
      for (const k of ['Symbol', 'GeneID', 'Total_alleles', 'Alleles_reported_Pathogenic_Likely_pathogenic']) if (col[k] == null) throw new KbSourceError(src.rel, `header lacks column '${k}'`, n);
      continue;
    }
    if (!col) throw new KbSourceError(src.rel, 'data before the header line', n);
    const c = line.split('\t');
    records++;
    const g = byEntrez.get(c[col.GeneID!] ?? '') ?? state.bySymbol.get(c[col.Symbol!] ?? '');
    if (!g) {
      skipped++;
      continue;
    }
    g.clinvar = {
      totalAlleles: num(c[col.Total_alleles!], 'Total_alleles', n),
      plpAlleles: num(c[col.Alleles_reported_Pathogenic_Likely_pathogenic!], 'Alleles_reported_Pathogenic_Likely_pathogenic', n),
      uncertain: col.Number_uncertain != null ? num(c[col.Number_uncertain], 'Number_uncertain', n) : null,
      conflicts: col.Number_with_conflicts != null ? num(c[col.Number_with_conflicts], 'Number_with_conflicts', n) : null,
      plpLof: 0,
      plpMissense: 0,
      blbMissense: 0,
    };
  }
  return { records, skipped, version };
}
