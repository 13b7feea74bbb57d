/**
 * Phenotype evidence for a disease known only by name (linked to a gene, not annotated in
 * phenotype.hpoa): the features its title names (see kb/disease-name-terms.ts) are matched to
 * the patient's terms with the arithmetic of score.ts, each named feature taken at frequency
 * `NAMED_FEATURE_FREQUENCY`. A patient term the title does not mention is unknown, not
 * evidence against the disease (LR 1), and a match never counts below LR 1: the title lists a
 * few cardinal features, not the phenotype. Excluded terms are not used.
 */
import type { NamedDisease } from '../kb/hpo-kb.ts';
import type { PhenotypeModel } from './model.ts';
import { DEFAULT_SCORING_OPTIONS, type PhenotypeScoringOptions, type ResolvedQuery, type TermMatch } from './score.ts';

/** P(feature | disease) assumed for a feature named in the disease title (a cardinal feature). */
export const NAMED_FEATURE_FREQUENCY = 0.8;

export interface NameEvidence {
  /** Natural-log LR: the sum over the patient's terms of max(0, ln LR of the best named-feature match). */
  ln: number;
  /** One entry per patient term that a named feature explains (LR > 1). */
  matched: TermMatch[];
}

export function scoreNamedDisease(model: PhenotypeModel, q: ResolvedQuery, disease: NamedDisease, options: PhenotypeScoringOptions = DEFAULT_SCORING_OPTIONS): NameEvidence {
  const named = new Set<number>();
  const closure = new Map<number, number>(); // ancestor -> a named term below it (for the explanation)
  for (const id of disease.nameTerms) {
    const t = model.termIndex.get(id);
    if (t === undefined) continue;
    named.add(t);
    for (const a of model.ancestors[t] ?? []) if (!closure.has(a) || a === t) closure.set(a, t);
  }
  let ln = 0;
  const matched: TermMatch[] = [];
  if (!named.size) return { ln, matched };
  for (const t of q.present) {
    let best = 1;
    let bestC = -1;
    for (const c of model.ancestors[t] ?? []) {
      if (model.isTopTerm[c] || !closure.has(c)) continue;
      const factor = c === t ? 1 : named.has(c) ? options.specificPenalty : options.partialPenalty;
      const lr = (NAMED_FEATURE_FREQUENCY * factor) / (model.background[c] ?? 1);
      if (lr > best) {
        best = lr;
        bestC = c;
      }
    }
    if (bestC < 0) continue;
    ln += Math.log(best);
    const source = closure.get(bestC) ?? bestC;
    matched.push({
      term: model.termId(t),
      label: model.label(t),
      kind: bestC !== t ? 'partial' : source === t ? 'exact' : 'implied',
      diseaseTerm: model.termId(source),
      diseaseTermLabel: model.label(source),
      frequency: NAMED_FEATURE_FREQUENCY,
      frequencyText: 'named in the disease title',
      lr: best,
    });
  }
  return { ln, matched };
}
