/**
 * Case ranking used by the analysis jobs: the engine's phenotype ranking (diseases and genes
 * by HPO likelihood ratios) combined with the case's candidate variants.
 *
 * Gene score = variantScore x (0.1 + 0.9 x phenotypeScore), where
 *  - variantScore is the best variant score under a compatible mode of inheritance (dominant:
 *    best variant; recessive: a homozygous variant, or the mean of the two best heterozygous
 *    ones; a single heterozygous hit in a recessive-only gene counts half), and
 *  - phenotypeScore is the gene's phenotype log10 LR relative to the best gene of the case
 *    (0 when the phenotype does not support it).
 * Diseases are ordered the same way through their genes. Deterministic: ties break on names.
 */
import { rankPhenotype, type AnnotatedVariant, type HpoKb } from '@rarelens/engine';
import type { RankingPatient, RankingValue, RankedDiseaseValue, RankedGeneValue } from './analysis-engine.ts';

const AD = 'HP:0000006';
const AR = 'HP:0000007';
const XLR = 'HP:0001419';
const XLD = 'HP:0001423';
const XL = 'HP:0001417';
const MAX_DISEASES = 200;

function variantEvidence(vs: AnnotatedVariant[], modes: Set<string>, sex: 'male' | 'female'): number {
  const scores = vs.map((v) => v.score).sort((a, b) => b - a);
  const best = scores[0] ?? 0;
  const hom = Math.max(0, ...vs.filter((v) => v.genotype.zygosity === 'homozygous' || v.genotype.zygosity === 'hemizygous').map((v) => v.score));
  const twoHet = scores.length >= 2 ? ((scores[0] ?? 0) + (scores[1] ?? 0)) / 2 : 0;
  const recessive = Math.max(hom, twoHet);
  const dominantOk = modes.size === 0 || modes.has(AD) || modes.has(XLD) || (modes.has(XL) && sex === 'male') || (modes.has(XLR) && sex === 'male');
  const recessiveOk = modes.has(AR) || modes.has(XLR) || modes.has(XL);
  let s = 0;
  if (dominantOk) s = Math.max(s, best);
  if (recessiveOk) s = Math.max(s, recessive, best * 0.5);
  return s;
}

export function rankCase(hpo: HpoKb, candidates: AnnotatedVariant[], patient: RankingPatient): RankingValue {
  const phen = rankPhenotype(hpo, { present: patient.hpoTerms, excluded: patient.excludedTerms }, { explainTop: 500 });
  const byGene = new Map<string, AnnotatedVariant[]>();
  for (const v of candidates) {
    if (!v.gene) continue;
    const list = byGene.get(v.gene);
    if (list) list.push(v);
    else byGene.set(v.gene, [v]);
  }
  const geneScore = new Map(phen.genes.map((g) => [g.symbol, g]));
  let bestPheno = 0;
  for (const sym of byGene.keys()) bestPheno = Math.max(bestPheno, geneScore.get(sym)?.score ?? 0);
  const label = (id: string) => hpo.ontology.label(id) ?? id;

  const genes: (RankedGeneValue & { tie: string })[] = [];
  for (const [symbol, vs] of byGene) {
    const hg = hpo.genes.get(symbol);
    const modes = new Set<string>();
    const diseases: { id: string; label: string }[] = [];
    for (const d of hg?.diseases ?? []) {
      const dis = hpo.diseaseById.get(d.id);
      if (!dis) continue;
      dis.inheritance.forEach((m) => modes.add(m));
      diseases.push({ id: dis.id, label: dis.name });
    }
    const p = geneScore.get(symbol);
    const phenotypeScore = bestPheno > 0 && p && p.score > 0 ? Math.min(1, p.score / bestPheno) : 0;
    const variantScore = variantEvidence(vs, modes, patient.sex);
    const score = variantScore * (0.1 + 0.9 * phenotypeScore);
    const best = [...vs].sort((a, b) => b.score - a.score)[0];
    const explanation = [
      `Phenotype: ${p ? `best disease ${p.bestDisease}, log10 LR ${p.score.toFixed(2)}` : 'no disease of this gene matches the symptoms'} (score ${phenotypeScore.toFixed(2)})`,
      `Variants: ${vs.length} candidate(s); best ${best ? `${best.hgvsC ?? `${best.chrom}:${best.pos} ${best.ref}>${best.alt}`} (${best.acmg.classification}, ${best.genotype.zygosity})` : '-'}; score ${variantScore.toFixed(2)}`,
    ];
    const order = p?.diseases ?? [];
    diseases.sort((a, b) => (order.indexOf(a.id) + 1 || 1e9) - (order.indexOf(b.id) + 1 || 1e9) || a.id.localeCompare(b.id));
    genes.push({
      symbol,
      hgncId: null,
      score,
      phenotypeScore,
      variantScore,
      inheritance: [...modes].sort().map(label),
      explanation,
      diseases,
      tie: symbol,
    });
  }
  genes.sort((a, b) => b.score - a.score || a.tie.localeCompare(b.tie));
  const geneIndex = new Map(genes.map((g) => [g.symbol, g]));

  let bestDisease = 0;
  for (const d of phen.diseases) bestDisease = Math.max(bestDisease, d.score);
  const diseases: (RankedDiseaseValue & { combined: number })[] = [];
  for (const d of phen.diseases.slice(0, 3000)) {
    const variant = Math.max(0, ...d.genes.map((g) => geneIndex.get(g)?.variantScore ?? 0));
    const pheno = bestDisease > 0 && d.score > 0 ? d.score / bestDisease : 0;
    const combined = Math.max(variant, 0.05) * (0.1 + 0.9 * pheno);
    diseases.push({
      id: d.id,
      name: d.name,
      mergedIds: d.mergedIds,
      score: d.score,
      probability: d.postTestProbability,
      inheritance: d.inheritance,
      onset: d.onset,
      genes: d.genes,
      matchedTerms: (d.matched ?? []).map((m) => ({
        id: m.term,
        label: m.label,
        match: m.kind,
        diseaseTermId: m.diseaseTerm,
        diseaseTermLabel: m.diseaseTermLabel,
      })),
      explanation: d.explanation ?? [],
      combined,
    });
  }
  diseases.sort((a, b) => b.combined - a.combined || a.id.localeCompare(b.id));
  return {
    genes: genes.map(({ tie: _tie, ...g }) => g),
    diseases: diseases.slice(0, MAX_DISEASES).map(({ combined: _c, ...d }) => d),
  };
}
