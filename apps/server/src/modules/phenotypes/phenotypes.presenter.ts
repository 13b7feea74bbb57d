/** Whitelists of what the phenotypes API returns (CONVENTIONS §2). */
import type { PhenotypeDetails, PhenotypeRow, VariantRow } from '@rarelens/contract';
import type { RunPhenotypeRow } from '../../db/schema/products.ts';

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
    phenotypeSource: p.phenotypeSource,
  };
}

export function presentPhenotypeDetails(
  p: RunPhenotypeRow,
  variants: VariantRow[],
  proteinIds: (gene: string) => string[],
): PhenotypeDetails {
  const proteins = p.genes.map((gene) => ({ gene, uniprot: proteinIds(gene) })).filter((g) => g.uniprot.length > 0);
  return { ...presentPhenotype(p), proteins, explanation: p.explanation, mergedIds: p.mergedIds, variants };
}
