/** Whitelists of what the genes API returns (CONVENTIONS §2). */
import type { GeneDetails, GeneRow, VariantRow } from '@rarelens/contract';
import type { RunGeneRow } from '../../db/schema/products.ts';

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
    probability: g.probability,
    inheritance: g.inheritance,
    significance: g.significance,
    variantCount: g.variantCount,
    topDisease: top ? { id: top.id, label: top.label } : null,
  };
}

export function presentGeneDetails(g: RunGeneRow, variants: VariantRow[]): GeneDetails {
  return {
    ...presentGene(g),
    chromosome: g.chromosome,
    type: g.locusType,
    description: g.description,
    synonyms: g.synonyms,
    ageOfOnset: g.onset,
    explanation: g.explanation,
    phenotypeSource: g.phenotypeSource,
    diseases: g.diseases,
    variants,
  };
}
