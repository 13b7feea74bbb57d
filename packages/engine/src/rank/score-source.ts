/**
 * Where a ranked gene's phenotype evidence comes from, as the results store and show it: the
 * prioritiser's `scoreParts.source` and the disease it names. Readers (GenomeTalks, the gene
 * screen) use this value, not the wording of the explanation.
 */
import type { GeneScoreParts } from './gene-score.ts';
import type { RankedGene } from './rank-case.ts';

export interface GenePhenotypeSource {
  /**
   * 'annotations': an annotated disease's phenotype; 'allelic': an annotated disease's phenotype
   * with the genotype fit of unknown inheritance (a possibly allelic disease); 'series': a disease
   * without phenotype annotations, on the phenotype borrowed from its series; 'similar-titles': one in
   * no series, on the phenotype of the annotated diseases with the most similar titles; 'disease-name': a
   * disease without phenotype annotations, on the features its name states; 'none': a possible
   * new disease of the gene (no phenotype evidence).
   */
  source: GeneScoreParts['source'];
  /** The disease the phenotype evidence is of (null for 'none'). */
  disease: { id: string; label: string } | null;
}

export function phenotypeSourceOf(g: Pick<RankedGene, 'scoreParts' | 'evidence'>): GenePhenotypeSource {
  const p = g.evidence.phenotype;
  return { source: g.scoreParts.source, disease: p && g.scoreParts.source !== 'none' ? { id: p.diseaseId, label: p.diseaseName } : null };
}
