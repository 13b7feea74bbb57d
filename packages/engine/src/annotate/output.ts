/**
 * Output shapes of `rarelens annotate`: one snake_case JSON object per variant (JSONL), or the
 * same annotations as VCF INFO fields (RL_*).
 */
import type { AnnotatedVariant } from '../types.ts';
import type { VcfFieldDefinition } from '../vcf/header.ts';
import type { InfoWriteValue } from '../vcf/writer.ts';

export interface AnnotationJson {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  input: { chrom: string; pos: number; ref: string; alt: string; line: number };
  genotype: { gt: string; zygosity: string; depth?: number; genotype_quality?: number; allele_depths?: [number, number] };
  filter: string[];
  qual: number | null;
  gene: string | null;
  hgnc_id: string | null;
  transcript: string | null;
  is_mane_select: boolean;
  consequences: string[];
  /** For an unresolved codon change (coding_sequence_variant without the reference sequence): each outcome's probability. */
  coding_outcome?: { term: string; p: number }[];
  impact: string;
  hgvs_c: string | null;
  hgvs_p: string | null;
  af: number | null;
  af_source: string | null;
  clinvar: { significance: string; stars: number; match: string; id: string | null; conditions: string[] } | null;
  acmg: {
    classification: string;
    points: number;
    criteria: { code: string; strength: string; points: number; reason: string }[];
    not_assessed: { code: string; reason: string }[];
  };
  score: number;
  other_genes: { gene: string; transcript: string; consequences: string[]; impact: string }[];
  gene_constraint: { pli: number | null; loeuf: number | null; mis_z: number | null; source: string } | null;
}

/**
 * AnnotatedVariant -> the JSONL record (snake_case). `rarelens annotate` writes these bytes without
 * this object (AnnotationJsonlWriter, jsonl.ts): a field added here must be added there too
 * (jsonl.test.ts compares the two on real files).
 */
export function toAnnotationJson(v: AnnotatedVariant): AnnotationJson {
  const g = v.genotype;
  return {
    chrom: v.chrom,
    pos: v.pos,
    ref: v.ref,
    alt: v.alt,
    input: v.input,
    genotype: {
      gt: g.gt,
      zygosity: g.zygosity,
      ...(g.depth != null ? { depth: g.depth } : {}),
      ...(g.genotypeQuality != null ? { genotype_quality: g.genotypeQuality } : {}),
      ...(g.alleleDepths ? { allele_depths: g.alleleDepths } : {}),
      ...(g.heteroplasmy != null ? { heteroplasmy: g.heteroplasmy } : {}),
    },
    filter: v.filter,
    qual: v.qual,
    gene: v.gene,
    hgnc_id: v.hgncId ?? null,
    transcript: v.transcript,
    is_mane_select: v.isManeSelect ?? false,
    consequences: v.consequences,
    ...(v.codingOutcome?.length ? { coding_outcome: v.codingOutcome.map((o) => ({ term: o.term, p: Math.round(o.p * 1000) / 1000 })) } : {}),
    impact: v.impact,
    hgvs_c: v.hgvsC,
    hgvs_p: v.hgvsP,
    af: v.af,
    af_source: v.afSource ?? null,
    clinvar: v.clinvar ? { significance: v.clinvar.significance, stars: v.clinvar.stars, match: v.clinvar.match, id: v.clinvar.id ?? null, conditions: v.clinvar.conditions ?? [] } : null,
    acmg: {
      classification: v.acmg.classification,
      points: v.acmg.points,
      criteria: v.acmg.criteria.map((c) => ({ code: c.code, strength: c.strength, points: c.points, reason: c.reason })),
      not_assessed: v.acmg.notAssessed ?? [],
    },
    score: Math.round(v.score * 10000) / 10000,
    other_genes: v.otherGenes ?? [],
    gene_constraint: v.geneConstraint ? { pli: v.geneConstraint.pLI, loeuf: v.geneConstraint.loeuf, mis_z: v.geneConstraint.misZ, source: v.geneConstraint.source } : null,
  };
}

/** INFO definitions written by `--format vcf`. */
export const ANNOTATION_INFO_FIELDS: readonly VcfFieldDefinition[] = [
  { id: 'RL_GENE', number: 1, type: 'String', description: 'RareLens gene symbol (HGNC)' },
  { id: 'RL_TX', number: 1, type: 'String', description: 'RareLens transcript (MANE Select first)' },
  { id: 'RL_CSQ', number: '.', type: 'String', description: 'RareLens Sequence Ontology consequences, most severe first' },
  { id: 'RL_IMPACT', number: 1, type: 'String', description: 'RareLens impact (HIGH, MODERATE, LOW, MODIFIER)' },
  { id: 'RL_HGVSC', number: 1, type: 'String', description: 'RareLens HGVS c./n.' },
  { id: 'RL_HGVSP', number: 1, type: 'String', description: 'RareLens HGVS p. (when the codon is known)' },
  { id: 'RL_AF', number: 1, type: 'Float', description: 'RareLens population allele frequency (max over populations)' },
  { id: 'RL_CLNSIG', number: 1, type: 'String', description: 'RareLens ClinVar significance' },
  { id: 'RL_CLNSTARS', number: 1, type: 'Integer', description: 'RareLens ClinVar review stars' },
  { id: 'RL_CLNMATCH', number: 1, type: 'String', description: 'RareLens ClinVar match: exact, same_codon, same_amino_acid' },
  { id: 'RL_ACMG', number: 1, type: 'String', description: 'RareLens ACMG/AMP classification' },
  { id: 'RL_ACMG_POINTS', number: 1, type: 'Integer', description: 'RareLens ACMG Bayesian points (Tavtigian 2020)' },
  { id: 'RL_ACMG_CRITERIA', number: '.', type: 'String', description: 'RareLens ACMG criteria as CODE:Strength' },
  { id: 'RL_SCORE', number: 1, type: 'Float', description: 'RareLens pathogenicity score in [0,1]' },
];

/** AnnotatedVariant -> INFO values for the VCF writer. */
export function toAnnotationInfo(v: AnnotatedVariant): Record<string, InfoWriteValue> {
  return {
    RL_GENE: v.gene,
    RL_TX: v.transcript,
    RL_CSQ: v.consequences,
    RL_IMPACT: v.impact,
    RL_HGVSC: v.hgvsC,
    RL_HGVSP: v.hgvsP,
    RL_AF: v.af,
    RL_CLNSIG: v.clinvar?.significance ?? null,
    RL_CLNSTARS: v.clinvar?.stars ?? null,
    RL_CLNMATCH: v.clinvar?.match ?? null,
    RL_ACMG: v.acmg.classification,
    RL_ACMG_POINTS: v.acmg.points,
    RL_ACMG_CRITERIA: v.acmg.criteria.length ? v.acmg.criteria.map((c) => `${c.code}:${c.strength}`) : null,
    RL_SCORE: Math.round(v.score * 10000) / 10000,
  };
}
