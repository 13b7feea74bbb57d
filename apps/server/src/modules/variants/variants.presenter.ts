/** Whitelists of what the variants API returns (CONVENTIONS §2). */
import type { VariantDetails, VariantRow } from '@rarelens/contract';
import type { StoredDetails } from '../../db/run-variants.ts';
import type { RunVariantRow } from '../../db/schema/products.ts';

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

