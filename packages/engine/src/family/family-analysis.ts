/**
 * A family analysis in one call, for the worker, the CLI and the benchmark alike: trio QC over
 * every allele read, the family ACMG criteria on the candidates, and the inheritance tags.
 * The ranking then takes `context` (RankOptions.family).
 */
import type { HpoKb } from '../kb/hpo-kb.ts';
import { modesOf } from '../rank/inheritance.ts';
import type { AnnotatedVariant } from '../types.ts';
import { applyFamilyAcmg } from './acmg-family.ts';
import { trioQc, type TrioQc } from './mendelian.ts';
import type { Family, FamilyProblem } from './pedigree.ts';
import { createFamilyContext, inheritanceTags, type FamilyContext, type FamilyWeights, type VariantInheritance } from './segregation.ts';

/** The pedigree does not fit the VCF: every problem, each naming its sample. */
export class FamilyCheckError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly FamilyProblem[],
  ) {
    super(`${file}: the pedigree does not fit the VCF: ${problems.map((p) => p.message).join('; ')}`);
    this.name = 'FamilyCheckError';
  }
}

export interface FamilyAnalysis {
  context: FamilyContext;
  qc: TrioQc[];
  /** The candidates with PS2/PM6/PM3 added where they apply (same order). */
  candidates: AnnotatedVariant[];
  inheritance: Map<AnnotatedVariant, VariantInheritance>;
}

/** Genes with a recessive (autosomal or X-linked) disease in the HPO annotations. */
export function recessiveGenePredicate(kb: HpoKb): (symbol: string) => boolean {
  return (symbol) =>
    (kb.genes.get(symbol)?.diseases ?? []).some((d) => {
      const modes = modesOf(kb.diseaseById.get(d.id)?.inheritance ?? []);
      return modes.includes('AR') || modes.includes('XLR') || modes.includes('UNKNOWN');
    });
}

/** Trio QC, family ACMG criteria and inheritance tags of a proband's candidates. */
export function analyseFamily(input: {
  family: Family;
  variants: Iterable<AnnotatedVariant>;
  candidates: readonly AnnotatedVariant[];
  kb?: HpoKb;
  /** Evidence weights (default DEFAULT_FAMILY_WEIGHTS). */
  weights?: Partial<FamilyWeights>;
  /** The trio QC when already computed over the same variants. */
  qc?: TrioQc[];
}): FamilyAnalysis {
  const qc = input.qc ?? trioQc(input.variants, input.family);
  const context = createFamilyContext(input.family, qc, input.weights);
  const candidates = applyFamilyAcmg(input.candidates, context, input.kb ? { isRecessiveGene: recessiveGenePredicate(input.kb) } : {});
  return { context, qc, candidates, inheritance: inheritanceTags(candidates, context) };
}
