/** Whitelists of what the cases API returns (CONVENTIONS §2). */
import {
  Messages,
  type AnalysisRunInfo,
  type GeneDetails,
  type GeneRow,
  type PhenotypeDetails,
  type PhenotypeRow,
  type ProductDetails,
  type ProductFile,
  type ProductSummary,
  type TermRef,
  type VariantDetails,
  type VariantRow,
} from '@rarelens/contract';
import type {
  AnalysisRunRow,
  ProductFileRow,
  ProductRow,
  RunGeneRow,
  RunPhenotypeRow,
  RunVariantRow,
} from '../../db/schema/products.ts';
import type { StoredDetails } from './results.repository.ts';

export function presentProductSummary(
  p: ProductRow,
  access: { isOwner: boolean; ownerEmail: string; shareCount: number },
): ProductSummary {
  return {
    id: p.id,
    caseId: p.caseId,
    name: p.caseId,
    status: p.status,
    isShared: access.isOwner ? access.shareCount > 0 : true,
    isOwner: access.isOwner,
    sharedBy: access.isOwner ? null : access.ownerEmail,
    createdAt: p.createdAt.toISOString(),
    progress: p.status === 'Completed' ? 100 : p.progress,
    error: p.status === 'Error' ? { message: Messages.productError, reason: p.errorReason ?? 'Unknown error' } : null,
    hpoTermCount: p.hpoTerms.length,
    hpoTermsSource: p.hpoTermsSource,
  };
}

export function presentFile(f: ProductFileRow): ProductFile {
  return {
    id: f.id,
    role: f.role,
    name: f.originalName,
    sizeBytes: f.sizeBytes,
    format: f.format,
    compression: f.compression,
    mediaType: f.mediaType,
    sha256: f.sha256,
  };
}

export function presentRun(r: AnalysisRunRow): AnalysisRunInfo {
  return {
    id: r.id,
    softwareVersion: r.softwareVersion,
    assembly: r.assembly,
    inputAssembly: r.inputAssembly,
    kbVersions: r.kbVersions,
    counts: r.counts,
    startedAt: r.startedAt.toISOString(),
    completedAt: r.completedAt?.toISOString() ?? null,
    rankedAt: r.rankedAt?.toISOString() ?? null,
  };
}

export function presentProductDetails(
  p: ProductRow,
  access: { isOwner: boolean; ownerEmail: string; shares: string[] },
  extra: { files: ProductFileRow[]; run: AnalysisRunRow | null; label: (id: string) => string },
): ProductDetails {
  const terms = (ids: string[]): TermRef[] => ids.map((id) => ({ id, label: extra.label(id) }));
  return {
    ...presentProductSummary(p, { ...access, shareCount: access.shares.length }),
    gender: p.gender,
    symptoms: p.symptoms,
    hpoTerms: terms(p.hpoTerms),
    excludedTerms: terms(p.excludedTerms),
    assemblyRequested: p.assemblyRequested,
    assembly: p.assembly,
    genomeFormat: p.genomeFormat,
    imageDescription: p.imageDescription,
    files: extra.files.map(presentFile),
    run: extra.run ? presentRun(extra.run) : null,
    sharedWith: access.isOwner ? access.shares : [],
  };
}

export function presentVariant(v: RunVariantRow): VariantRow {
  return {
    id: v.id,
    rank: v.rank,
    chrom: v.chrom,
    pos: v.pos,
    ref: v.ref,
    alt: v.alt,
    gene: v.gene,
    transcript: v.transcript,
    consequence: v.consequence,
    consequences: v.consequences,
    impact: v.impact,
    hgvsC: v.hgvsC,
    hgvsP: v.hgvsP,
    af: v.af,
    clinvar: v.clinvarSignificance,
    acmg: v.acmgClass,
    acmgPoints: v.acmgPoints,
    zygosity: v.zygosity,
    score: v.score,
  };
}

interface StoredGenotype {
  gt?: string;
  zygosity?: string;
  depth?: number;
  genotypeQuality?: number;
  alleleDepths?: number[];
}
interface StoredClinvar {
  significance?: string;
  stars?: number;
  id?: string;
  conditions?: string[];
  match?: string;
}

export function presentVariantDetails(v: RunVariantRow, inputAssembly: string): VariantDetails {
  const g = (v.genotype ?? {}) as StoredGenotype;
  const c = v.clinvar as StoredClinvar | null;
  const input = v.input as { chrom: string; pos: number; ref: string; alt: string; line: number };
  const criteria = (v.acmgCriteria ?? []) as { code: string; strength: string; points: number; reason: string }[];
  const details = v.details as StoredDetails | null;
  return {
    ...presentVariant(v),
    hgncId: v.hgncId,
    isManeSelect: v.isManeSelect,
    afSource: v.afSource,
    qual: v.qual,
    filter: v.filter,
    genotype: {
      gt: g.gt ?? '.',
      zygosity: g.zygosity ?? v.zygosity,
      depth: g.depth ?? null,
      genotypeQuality: g.genotypeQuality ?? null,
      alleleDepths: g.alleleDepths ?? null,
    },
    input: { chrom: input.chrom, pos: input.pos, ref: input.ref, alt: input.alt, line: input.line },
    inputAssembly,
    acmgCriteria: criteria.map((k) => ({ code: k.code, strength: k.strength, points: k.points, reason: k.reason })),
    clinvarRecord: c
      ? {
          significance: c.significance ?? 'unknown',
          stars: c.stars ?? 0,
          id: c.id ?? null,
          conditions: c.conditions ?? [],
          match: c.match ?? 'exact',
        }
      : null,
    frequencies: v.af == null ? [] : [{ source: v.afSource ?? 'population', af: v.af }],
    acmgNotAssessed: (details?.acmgNotAssessed ?? []).map((n) => ({ code: n.code, reason: n.reason })),
    otherGenes: (details?.otherGenes ?? []).map((o) => ({ gene: o.gene, transcript: o.transcript, consequences: o.consequences, impact: o.impact })),
    geneConstraint: details?.geneConstraint
      ? {
          pLI: details.geneConstraint.pLI,
          loeuf: details.geneConstraint.loeuf,
          misZ: details.geneConstraint.misZ,
          source: details.geneConstraint.source,
        }
      : null,
  };
}

export function presentPhenotype(p: RunPhenotypeRow): PhenotypeRow {
  return {
    id: p.diseaseId,
    rank: p.rank,
    name: p.name,
    score: p.score,
    probability: p.probability,
    significance: p.significance,
    inheritance: p.inheritance,
    onset: p.onset,
    genes: p.genes,
    matchedTerms: p.matchedTerms as PhenotypeRow['matchedTerms'],
  };
}

export function presentPhenotypeDetails(p: RunPhenotypeRow, variants: RunVariantRow[]): PhenotypeDetails {
  return { ...presentPhenotype(p), explanation: p.explanation, mergedIds: p.mergedIds, variants: variants.map(presentVariant) };
}

export function presentGene(g: RunGeneRow): GeneRow {
  const top = g.diseases[0];
  return {
    symbol: g.symbol,
    rank: g.rank,
    geneId: g.hgncId,
    name: g.name,
    score: g.score,
    phenotypeScore: g.phenotypeScore,
    variantScore: g.variantScore,
    inheritance: g.inheritance,
    significance: g.significance,
    variantCount: g.variantCount,
    topDisease: top ? { id: top.id, label: top.label } : null,
  };
}

export function presentGeneDetails(g: RunGeneRow, variants: RunVariantRow[]): GeneDetails {
  return {
    ...presentGene(g),
    chromosome: g.chromosome,
    type: g.locusType,
    description: g.description,
    synonyms: g.synonyms,
    ageOfOnset: g.onset,
    explanation: g.explanation,
    diseases: g.diseases,
    variants: variants.map(presentVariant),
  };
}
