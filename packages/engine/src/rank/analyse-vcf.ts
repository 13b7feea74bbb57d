/**
 * One case from a VCF, the way the product runs it: read + annotate (with every family member's
 * genotypes when a pedigree is given), the candidate filter, the family analysis (trio QC,
 * PS2/PM6/PM3, inheritance tags) and the genotype-aware ranking. The CLI and the benchmarks call
 * this; the server's worker runs the same steps over a stream.
 */
import type { HpoKb } from '../kb/hpo-kb.ts';
import { analyseFamily, type FamilyAnalysis } from '../family/family-analysis.ts';
import type { Pedigree } from '../family/ped.ts';
import { hasRelatives } from '../family/segregation.ts';
import type { Assembly } from '../types.ts';
import { filterCandidates } from './candidate-filter.ts';
import { prepareVariants } from './prepare.ts';
import { rank, type CasePhenotype, type CaseRankingResult, type RankOptions } from './rank-case.ts';
import { readAndAnnotateVcf, type ReadAnnotateResult, type VcfAnnotationSession } from './read-annotate.ts';

export interface VcfCaseInput {
  path: string;
  assembly?: Assembly;
  /** Sample to analyse; with a pedigree, the proband (default: the pedigree's affected member). */
  sample?: string;
  pedigree?: Pedigree;
  phenotype: CasePhenotype;
}

export interface VcfCaseResult {
  read: ReadAnnotateResult;
  ranking: CaseRankingResult;
  /** Present when a pedigree was given. */
  family: FamilyAnalysis | null;
}

/** Reads, filters, analyses the family (when given) and ranks one VCF case. */
export async function analyseVcfCase(session: VcfAnnotationSession, kb: HpoKb, input: VcfCaseInput, options: RankOptions = {}, signal?: AbortSignal): Promise<VcfCaseResult> {
  const read = await readAndAnnotateVcf(session, input.path, { assembly: input.assembly, sample: input.sample, pedigree: input.pedigree, signal });
  let candidates = filterCandidates(read.variants).candidates;
  let family: FamilyAnalysis | null = null;
  let sex = input.phenotype.sex;
  if (read.family) {
    family = analyseFamily({ family: read.family, variants: read.variants, candidates, kb });
    candidates = family.candidates;
    const proband = family.context.proband;
    if ((sex == null || sex === 'unknown') && proband.sex !== 'unknown') sex = proband.sex;
  }
  const useFamily = family !== null && hasRelatives(family.context);
  const ranking = rank(prepareVariants(candidates), kb, { ...input.phenotype, sex }, { ...options, family: useFamily ? family?.context : null });
  return { read, ranking, family };
}
