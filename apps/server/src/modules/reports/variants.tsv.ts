/** The variant list as TSV (one header row, one row per variant, rank order). */
import type { RunVariantRow } from '../../db/schema/products.ts';
import { criteriaCodes, fullHgvsC } from './report.model.ts';

export const TSV_COLUMNS = [
  'rank',
  'variant_id',
  'assembly',
  'chrom',
  'pos',
  'ref',
  'alt',
  'gene',
  'hgnc_id',
  'transcript',
  'hgvs_c',
  'hgvs_p',
  'consequence',
  'impact',
  'zygosity',
  'genotype',
  'population_af',
  'af_source',
  'clinvar',
  'acmg_class',
  'acmg_points',
  'acmg_criteria',
  'score',
  'is_candidate',
] as const;

/** Tabs and line breaks cannot appear inside a TSV field; they become spaces. */
function cell(v: string | number | boolean | null | undefined): string {
  if (v == null) return '';
  return String(v).replace(/[\t\r\n]+/g, ' ');
}

export function tsvHeader(): string {
  return `${TSV_COLUMNS.join('\t')}\n`;
}

export function tsvRow(v: RunVariantRow, assembly: string): string {
  const gt = (v.genotype as { gt?: string } | null)?.gt;
  const values: Record<(typeof TSV_COLUMNS)[number], string | number | boolean | null> = {
    rank: v.rank,
    variant_id: v.id,
    assembly,
    chrom: v.chrom,
    pos: v.pos,
    ref: v.ref,
    alt: v.alt,
    gene: v.gene,
    hgnc_id: v.hgncId,
    transcript: v.transcript,
    hgvs_c: fullHgvsC(v),
    hgvs_p: v.hgvsP,
    consequence: v.consequence,
    impact: v.impact,
    zygosity: v.zygosity,
    genotype: gt ?? null,
    population_af: v.af,
    af_source: v.afSource,
    clinvar: v.clinvarSignificance,
    acmg_class: v.acmgClass,
    acmg_points: v.acmgPoints,
    acmg_criteria: criteriaCodes(v.acmgCriteria).join(','),
    score: Number(v.score.toFixed(6)),
    is_candidate: v.isCandidate,
  };
  return `${TSV_COLUMNS.map((c) => cell(values[c])).join('\t')}\n`;
}
