/**
 * ACMG/AMP criteria that need the family (Richards et al. 2015 with ClinGen SVI guidance):
 *  - PS2 (Strong): de novo with maternity and paternity confirmed: both parents sequenced with
 *    adequate coverage and the trio's Mendelian/parentage QC passing;
 *  - PM6 (Moderate): de novo assumed: parentage not confirmed by QC or coverage not given;
 *  - PM3 (recessive disorders): in trans with a pathogenic/likely pathogenic variant is Moderate;
 *    with the phase unknown (or only probably in trans) Supporting.
 * ClinGen SVI also weighs de novo evidence by how specific the phenotype is; that needs a
 * curator, so the default strengths are used and the reason says so.
 * The criteria are added to the variant's own (single-sample) ACMG result and the class and
 * pathogenicity score recomputed; the input variants are not modified.
 */
import { classFromPoints, STRENGTH_POINTS } from '../acmg/classify.ts';
import { pathogenicityScore } from '../score/pathogenicity.ts';
import type { AcmgCriterion, AnnotatedVariant } from '../types.ts';
import { pairEvidence, variantFamilyEvidence, type FamilyContext } from './segregation.ts';

function withCriteria(v: AnnotatedVariant, added: AcmgCriterion[]): AnnotatedVariant {
  if (!added.length) return v;
  const criteria = [...v.acmg.criteria, ...added];
  const points = v.acmg.points + added.reduce((s, c) => s + c.points, 0);
  const standAloneBenign = v.acmg.criteria.some((c) => c.strength === 'StandAlone');
  const classification = standAloneBenign ? v.acmg.classification : classFromPoints(points);
  const exact = v.clinvar?.match === 'exact' ? v.clinvar : null;
  const score = pathogenicityScore({ consequences: v.consequences, af: v.af, acmgPoints: points, clinvar: exact ? { significance: exact.significance, stars: exact.stars } : null });
  return { ...v, acmg: { ...v.acmg, classification, points, criteria }, score: Math.max(v.score, score) };
}

const isPlp = (v: AnnotatedVariant): boolean => v.acmg.classification === 'Pathogenic' || v.acmg.classification === 'Likely pathogenic';

export interface FamilyAcmgOptions {
  /** Is the gene associated with a recessive disorder (PM3 applies only then)? Default: every gene. */
  isRecessiveGene?: (symbol: string) => boolean;
}

/**
 * Adds PS2/PM6 and PM3 to the proband's candidate variants (returns new objects where criteria
 * were added, the same object otherwise; order kept).
 */
export function applyFamilyAcmg(candidates: readonly AnnotatedVariant[], ctx: FamilyContext, opts: FamilyAcmgOptions = {}): AnnotatedVariant[] {
  const added = new Map<AnnotatedVariant, AcmgCriterion[]>();
  const add = (v: AnnotatedVariant, c: AcmgCriterion): void => {
    // One criterion per code family (PM3 or PM3_Supporting): the strongest wins.
    const list = (added.get(v) ?? []).filter((x) => x.code.split('_')[0] !== c.code.split('_')[0] || x.points >= c.points);
    if (!list.some((x) => x.code.split('_')[0] === c.code.split('_')[0])) list.push(c);
    added.set(v, list);
  };
  const byGene = new Map<string, AnnotatedVariant[]>();
  for (const v of candidates) {
    const e = variantFamilyEvidence(v, ctx);
    if (e.deNovo && e.deNovo.level !== 'low_quality') {
      const confirmed = e.deNovo.level === 'confirmed' && ctx.parentageConfirmed;
      const why = confirmed
        ? `${e.deNovo.reason}; parentage confirmed by the trio QC (Mendelian error rate ${((ctx.trio?.qcRate ?? 0) * 100).toFixed(1)} %)`
        : `${e.deNovo.reason}; parentage ${ctx.trio ? `not confirmed (${ctx.trio.warning ?? 'coverage not given'})` : 'not checked'}`;
      add(v, confirmed ? { code: 'PS2', strength: 'Strong', points: STRENGTH_POINTS.Strong, reason: `${why}. Default strength; ClinGen SVI scales it by phenotype specificity` } : { code: 'PM6', strength: 'Moderate', points: STRENGTH_POINTS.Moderate, reason: `assumed ${why}` });
    }
    if (v.gene && (opts.isRecessiveGene?.(v.gene) ?? true)) {
      const g = byGene.get(v.gene) ?? [];
      g.push(v);
      byGene.set(v.gene, g);
    }
  }
  for (const vs of byGene.values()) {
    for (const a of vs) {
      if (variantFamilyEvidence(a, ctx).proband.dose !== 1) continue;
      for (const b of vs) {
        if (a === b || !isPlp(b) || variantFamilyEvidence(b, ctx).proband.dose !== 1) continue;
        const pe = pairEvidence(a, b, ctx);
        const partner = b.hgvsC ?? `${b.chrom}:${b.pos} ${b.ref}>${b.alt}`;
        if (pe.phase === 'trans') add(a, { code: 'PM3', strength: 'Moderate', points: STRENGTH_POINTS.Moderate, reason: `in trans with ${b.acmg.classification.toLowerCase()} ${partner} (${pe.factors[0]?.rule ?? ''})` });
        else if (pe.phase === 'likely_trans' || pe.phase === 'unknown') add(a, { code: 'PM3_Supporting', strength: 'Supporting', points: STRENGTH_POINTS.Supporting, reason: `with ${b.acmg.classification.toLowerCase()} ${partner}, phase ${pe.phase === 'likely_trans' ? 'probably in trans' : 'unknown'}` });
      }
    }
  }
  return candidates.map((v) => withCriteria(v, added.get(v) ?? []));
}
