/**
 * Inheritance-mode fit over a pedigree (the family counterpart of rank/inheritance.ts).
 *
 * For each variant the proband carries, the genotypes of the sequenced relatives are read as
 * evidence for each mode of inheritance:
 *  - transmission from the parents: de novo (absent from both parents with adequate coverage),
 *    inherited from the father or the mother, or unknown (parent missing or not called);
 *  - segregation with affected status: an affected relative without the risk genotype is a
 *    phenocopy (rare), an unaffected relative with it is explained only by incomplete penetrance.
 * Each piece of evidence is a factor in (0, 1] on the mode's genotype fit and each is named, so
 * the explanation says which rule matched. The gene-level fit (`familyGenotypeFit`) has the same
 * shape as `genotypeFit` and replaces it in the ranking when the case has a family.
 */
import { altDose, FEMALE_XLR_CARRIER, MODE_LABELS, SINGLE_HIT_RECESSIVE, type GenotypeFit, type InheritanceMode, type QualifyingVariant } from '../rank/inheritance.ts';
import type { AnnotatedVariant, Sex } from '../types.ts';
import { describeCall, isHaploidInMale, MAX_DE_NOVO_AB, memberCall, MIN_DE_NOVO_AB, type MemberCall } from './genotypes.ts';
import type { TrioQc } from './mendelian.ts';
import type { Family, FamilyMember } from './pedigree.ts';

/**
 * The family evidence weights: each is the factor a piece of evidence puts on a mode's genotype
 * fit (1 = no effect). The defaults are in DEFAULT_FAMILY_WEIGHTS; bench/family-cv.ts chooses
 * the penetrance by cross-validation grouped by gene (bench/results/family.md).
 */
export interface FamilyWeights {
  /** Penetrance assumed for dominant (and X-linked dominant) disease: an unaffected carrier keeps 1 - this. */
  dominantPenetrance: number;
  /** Penetrance of recessive genotypes (biallelic, hemizygous X-linked recessive in males). */
  recessivePenetrance: number;
  /** Heteroplasmy makes mitochondrial variants variably penetrant. */
  mitochondrialPenetrance: number;
  /** An affected relative without the risk genotype (a phenocopy, or a wrong gene). */
  phenocopy: number;
  /** An apparent de novo whose parents' or proband's calls are not adequate (low depth/GQ, alt reads in a parent). */
  lowQualityDeNovo: number;
  /** An apparent de novo in a VCF without depth or quality fields (coverage cannot be checked). */
  uncheckedDeNovo: number;
  /** A homozygous variant with one parent not carrying it (uniparental disomy or a deletion). */
  homOneParentMissingAllele: number;
  /** A homozygous variant that neither parent carries. */
  homNoParentCarries: number;
  /** Compound heterozygous candidates found on the same parental haplotype (in cis). */
  cisPair: number;
  /** Phase of a pair could not be settled (one de novo, a parent carrying both, or parents not called). */
  phaseUnknown: number;
  /** One parent sequenced and carrying exactly one of the two variants: probably in trans. */
  likelyTrans: number;
  /** One parent sequenced and carrying both variants (probably in cis). */
  likelyCis: number;
  /**
   * The de novo prior. In a trio whose parentage the QC confirmed, a risk genotype the proband
   * inherited (each variant seen in a parent) is far more common by chance than a de novo one:
   * an exome holds about one coding de novo against hundreds of rare inherited candidates, while
   * a causal dominant variant in a child of unaffected parents is mostly de novo. A fit on
   * inherited variants keeps this factor next to a fit on a de novo (1 = no prior).
   */
  inheritedInTrio: number;
}

export const DEFAULT_FAMILY_WEIGHTS: Readonly<FamilyWeights> = Object.freeze({
  dominantPenetrance: 0.95,
  recessivePenetrance: 0.95,
  mitochondrialPenetrance: 0.5,
  phenocopy: 0.05,
  lowQualityDeNovo: 0.5,
  uncheckedDeNovo: 0.9,
  homOneParentMissingAllele: 0.2,
  homNoParentCarries: 0.05,
  cisPair: 0.02,
  phaseUnknown: 0.5,
  likelyTrans: 0.8,
  likelyCis: 0.1,
  inheritedInTrio: 0.5,
});

/** Checks that every weight is a factor in (0, 1] (penetrances in [0, 1)). */
export function familyWeights(overrides: Partial<FamilyWeights> = {}): FamilyWeights {
  const w: FamilyWeights = { ...DEFAULT_FAMILY_WEIGHTS, ...overrides };
  for (const [k, v] of Object.entries(w)) {
    const penetrance = k.endsWith('Penetrance');
    if (typeof v !== 'number' || !Number.isFinite(v) || (penetrance ? v < 0 || v >= 1 : v <= 0 || v > 1)) {
      throw new RangeError(`family weight ${k} = ${String(v)} is outside ${penetrance ? '[0, 1)' : '(0, 1]'}`);
    }
  }
  return w;
}

/** How many of a gene's most pathogenic variants are paired when looking for compound heterozygotes. */
export const MAX_PAIRED_VARIANTS = 30;

export type InheritanceTag = 'de_novo' | 'compound_het' | 'hom_recessive' | 'x_linked' | 'segregates';
export const INHERITANCE_TAGS: readonly InheritanceTag[] = ['de_novo', 'compound_het', 'hom_recessive', 'x_linked', 'segregates'];

export interface FamilyContext {
  family: Family;
  proband: FamilyMember;
  /** Sequenced parents of the proband (null when not in the pedigree or not sequenced). */
  father: FamilyMember | null;
  mother: FamilyMember | null;
  /** Sequenced relatives other than the proband whose affected status is known. */
  informative: FamilyMember[];
  /** QC of the proband's trio, when both parents are sequenced. */
  trio: TrioQc | null;
  /** Both parents sequenced and the trio QC passed: a de novo is a confirmed de novo (PS2). */
  parentageConfirmed: boolean;
  /** The evidence weights this analysis uses. */
  weights: FamilyWeights;
}

/** The analysis context of a checked family (and the proband trio's QC, when computed). */
export function createFamilyContext(family: Family, qc: readonly TrioQc[] = [], weights: Partial<FamilyWeights> = {}): FamilyContext {
  const w = familyWeights(weights);
  const byId = new Map(family.members.map((m) => [m.id, m]));
  const proband = byId.get(family.proband);
  if (!proband) throw new RangeError(`proband ${family.proband} is not a member of the family`);
  const seq = (id: string | null): FamilyMember | null => {
    const m = id ? byId.get(id) : undefined;
    return m && m.vcfIndex >= 0 ? m : null;
  };
  const father = seq(proband.father);
  const mother = seq(proband.mother);
  const trio = qc.find((t) => t.child === proband.id) ?? null;
  return {
    family,
    proband,
    father,
    mother,
    informative: family.members.filter((m) => m.id !== proband.id && m.vcfIndex >= 0 && m.status !== 'unknown'),
    trio,
    parentageConfirmed: father !== null && mother !== null && trio !== null && trio.warning === null,
    weights: w,
  };
}

/** Does the family add anything to a proband-only analysis (a sequenced relative)? */
export function hasRelatives(ctx: FamilyContext): boolean {
  return ctx.family.members.some((m) => m.id !== ctx.proband.id && m.vcfIndex >= 0);
}

export type Origin = 'de_novo' | 'paternal' | 'maternal' | 'both_parents' | 'unknown';

export interface DeNovoCall {
  /** confirmed: adequate coverage in all three; unchecked: the VCF has no DP/GQ; low_quality: failed QC. */
  level: 'confirmed' | 'unchecked' | 'low_quality';
  reason: string;
}

export interface Factor {
  factor: number;
  rule: string;
}

/** Family evidence on one variant, computed once per variant and context. */
export interface VariantFamilyEvidence {
  proband: MemberCall;
  father: MemberCall | null;
  mother: MemberCall | null;
  origin: Origin;
  deNovo: DeNovoCall | null;
  /** Evidence per single-variant mode (for pairs see `pairEvidence`). */
  dominant: Factor[];
  /** The segregation part of `dominant` (without the de novo call's own quality). */
  dominantSegregation: Factor[];
  homRecessive: Factor[] | null;
  xLinked: Factor[] | null;
  mitochondrial: Factor[] | null;
  /** The de novo prior on this variant: one factor when it is inherited in a confirmed trio (not part of the segregation evidence or the tags). */
  prior: Factor[];
}

const product = (fs: readonly Factor[]): number => fs.reduce((p, f) => p * f.factor, 1);

/**
 * How a homozygous variant carried by both parents is described: "both parents carriers" only when
 * both are heterozygous; a homozygous parent is not a carrier ("both parents carry it: father
 * homozygous, mother heterozygous"); '' when the parents do not both carry it.
 */
function parentsOfHomozygous(e: Pick<VariantFamilyEvidence, 'origin' | 'father' | 'mother'>): string {
  if (e.origin !== 'both_parents') return '';
  if (e.father?.dose === 1 && e.mother?.dose === 1) return 'both parents carriers';
  const zyg = (c: MemberCall | null) => (c?.dose === 2 ? 'homozygous' : 'heterozygous');
  return `both parents carry it: father ${zyg(e.father)}, mother ${zyg(e.mother)}`;
}
const rules = (fs: readonly Factor[]): string => fs.map((f) => f.rule).join('; ');

function variantLabel(v: AnnotatedVariant): string {
  return v.hgvsC ?? `${v.chrom}:${v.pos} ${v.ref}>${v.alt}`;
}

function alleleBalance(c: MemberCall): number | null {
  const ad = c.genotype?.alleleDepths;
  if (!ad || ad[0] + ad[1] === 0) return null;
  return ad[1] / (ad[0] + ad[1]);
}

function deNovoOf(v: AnnotatedVariant, p: MemberCall, f: MemberCall, m: MemberCall, ctx: FamilyContext): DeNovoCall {
  const issues: string[] = [];
  const all = [
    [ctx.proband.id, p],
    [ctx.father?.id ?? 'father', f],
    [ctx.mother?.id ?? 'mother', m],
  ] as const;
  for (const [id, c] of all) if (c.adequate === false) issues.push(`${describeCall(id, c)} below depth 10 / GQ 20`);
  for (const [id, c] of all.slice(1)) {
    const alt = c.genotype?.alleleDepths?.[1];
    if (alt !== undefined && alt > 0) issues.push(`${id} has ${alt} alt read(s)`);
  }
  const haploid = ctx.proband.sex === 'male' && isHaploidInMale(v.chrom, v.pos);
  if (p.dose === 2 && !haploid && v.chrom !== 'MT') issues.push('homozygous in the proband but absent from both parents: a Mendelian error (deletion, uniparental disomy or a genotyping error), not a de novo');
  const ab = alleleBalance(p);
  if (p.dose === 1 && ab !== null && (ab < MIN_DE_NOVO_AB || ab > MAX_DE_NOVO_AB)) issues.push(`proband allele balance ${ab.toFixed(2)} outside ${MIN_DE_NOVO_AB}–${MAX_DE_NOVO_AB}`);
  const calls = all.map(([id, c]) => describeCall(id, c)).join(', ');
  if (issues.length) return { level: 'low_quality', reason: `apparent de novo of low quality (${issues.join('; ')}): ${calls}` };
  if (p.adequate === null || f.adequate === null || m.adequate === null) return { level: 'unchecked', reason: `de novo: absent from both parents, coverage not given in the VCF (${calls})` };
  return { level: 'confirmed', reason: `de novo: absent from both parents with adequate coverage (${calls})${v.chrom === 'X' && ctx.proband.sex === 'male' ? ', on the X of a male' : ''}` };
}

/** Segregation with the affected status of the informative relatives for a risk genotype. */
function segregation(ctx: FamilyContext, hasRisk: (m: FamilyMember, c: MemberCall) => boolean | null, penetrance: number, v: AnnotatedVariant, what: string, skip: ReadonlySet<string> = new Set()): Factor[] {
  const out: Factor[] = [];
  for (const m of ctx.informative) {
    if (skip.has(m.id)) continue;
    const c = memberCall(v, m.id, m.sex);
    if (c.dose === null) continue;
    const risk = hasRisk(m, c);
    if (risk === null) continue;
    if (m.status === 'affected' && !risk) out.push({ factor: ctx.weights.phenocopy, rule: `affected ${m.relation} ${describeCall(m.id, c)} does not have ${what}` });
    else if (m.status === 'unaffected' && risk) out.push({ factor: 1 - penetrance, rule: `unaffected ${m.relation} ${describeCall(m.id, c)} has ${what} (penetrance ${Math.round(penetrance * 100)} % assumed)` });
  }
  return out;
}

const cache = new WeakMap<FamilyContext, WeakMap<AnnotatedVariant, VariantFamilyEvidence>>();

/** The family evidence on one variant (cached per context). */
export function variantFamilyEvidence(v: AnnotatedVariant, ctx: FamilyContext): VariantFamilyEvidence {
  let byVariant = cache.get(ctx);
  if (!byVariant) {
    byVariant = new WeakMap();
    cache.set(ctx, byVariant);
  }
  const hit = byVariant.get(v);
  if (hit) return hit;
  const ev = computeEvidence(v, ctx);
  byVariant.set(v, ev);
  return ev;
}

function computeEvidence(v: AnnotatedVariant, ctx: FamilyContext): VariantFamilyEvidence {
  const pr = ctx.proband;
  const p = memberCall(v, pr.id, pr.sex);
  const f = ctx.father ? memberCall(v, ctx.father.id, 'male') : null;
  const m = ctx.mother ? memberCall(v, ctx.mother.id, 'female') : null;
  const onXMale = pr.sex === 'male' && isHaploidInMale(v.chrom, v.pos);
  const label = variantLabel(v);

  // Origin. A son's haploid X comes from his mother only; the mitochondrion always does.
  let origin: Origin = 'unknown';
  let deNovo: DeNovoCall | null = null;
  const fromFather = f?.dose != null && f.dose > 0;
  const fromMother = m?.dose != null && m.dose > 0;
  const maternalOnly = onXMale || v.chrom === 'MT';
  if (maternalOnly) {
    if (fromMother) origin = 'maternal';
    else if (v.chrom === 'MT' && fromFather) origin = 'paternal';
    else if (m?.dose === 0 && (v.chrom === 'MT' || f?.dose != null)) {
      origin = 'de_novo';
      deNovo = deNovoOf(v, p, f ?? { dose: 0, genotype: null, adequate: null }, m, ctx);
    }
  } else if (fromFather && fromMother) origin = 'both_parents';
  else if (fromFather) origin = m?.dose === 0 || p.dose === 1 ? 'paternal' : 'unknown';
  else if (fromMother) origin = f?.dose === 0 || p.dose === 1 ? 'maternal' : 'unknown';
  else if (f?.dose === 0 && m?.dose === 0 && p.dose !== null && p.dose > 0) {
    origin = 'de_novo';
    deNovo = deNovoOf(v, p, f, m, ctx);
  }
  const parentRule = (): string => [f && ctx.father ? describeCall(ctx.father.id, f) : 'father not sequenced', m && ctx.mother ? describeCall(ctx.mother.id, m) : 'mother not sequenced'].join(', ');

  const deNovoFactor = (d: DeNovoCall): Factor => ({ factor: d.level === 'confirmed' ? 1 : d.level === 'unchecked' ? ctx.weights.uncheckedDeNovo : ctx.weights.lowQualityDeNovo, rule: `${label} ${d.reason}` });

  // Dominant: one copy; de novo or inherited from an affected parent.
  const dominantSegregation = segregation(ctx, (_mm, c) => (c.dose ?? 0) > 0, ctx.weights.dominantPenetrance, v, `${label}`);
  const dominant: Factor[] = deNovo ? [deNovoFactor(deNovo), ...dominantSegregation] : dominantSegregation;

  // Autosomal recessive, homozygous: both parents should be carriers, no unaffected relative homozygous.
  let homRecessive: Factor[] | null = null;
  if (p.dose === 2 && !onXMale) {
    homRecessive = [];
    const nonCarriers = [f, m].filter((c) => c?.dose === 0).length;
    if (nonCarriers === 2) homRecessive.push({ factor: ctx.weights.homNoParentCarries, rule: `${label} homozygous but neither parent carries it (${parentRule()})` });
    else if (nonCarriers === 1) homRecessive.push({ factor: ctx.weights.homOneParentMissingAllele, rule: `${label} homozygous but only one parent carries it: uniparental disomy or a deletion on the other allele (${parentRule()})` });
    homRecessive.push(...segregation(ctx, (_mm, c) => c.dose === 2, ctx.weights.recessivePenetrance, v, `${label} homozygous`));
  }

  // X-linked recessive in a male: hemizygous, from a carrier mother or de novo; no unaffected hemizygous male.
  let xLinked: Factor[] | null = null;
  if (v.chrom === 'X' && p.dose !== null && p.dose > 0 && (pr.sex === 'male' ? onXMale : p.dose === 2)) {
    xLinked = [];
    if (deNovo) xLinked.push(deNovoFactor(deNovo));
    if (pr.sex === 'female' && f?.dose === 0) xLinked.push({ factor: ctx.weights.homOneParentMissingAllele, rule: `${label} homozygous in a female but her father does not carry it (${parentRule()})` });
    xLinked.push(
      ...segregation(ctx, (mm, c) => (c.dose ?? 0) > 0 && (mm.sex === 'male' || c.dose === 2), ctx.weights.recessivePenetrance, v, `${label} hemizygous/homozygous`),
    );
  }

  // Mitochondrial: maternal or de novo (heteroplasmy makes unaffected carriers common).
  let mitochondrial: Factor[] | null = null;
  if (v.chrom === 'MT') {
    mitochondrial = [];
    if (deNovo) mitochondrial.push(deNovoFactor(deNovo));
    if (fromFather && !fromMother && m?.dose === 0) mitochondrial.push({ factor: ctx.weights.homNoParentCarries, rule: `${label} carried by the father but not the mother: mitochondrial DNA is inherited from the mother (${parentRule()})` });
    mitochondrial.push(...segregation(ctx, (_mm, c) => (c.dose ?? 0) > 0, ctx.weights.mitochondrialPenetrance, v, `${label}`, new Set(ctx.father ? [ctx.father.id] : [])));
  }

  const inherited = ctx.parentageConfirmed && ctx.weights.inheritedInTrio < 1 && (origin === 'paternal' || origin === 'maternal' || origin === 'both_parents');
  const prior: Factor[] = inherited ? [{ factor: ctx.weights.inheritedInTrio, rule: `${label} inherited (${parentRule()}), not de novo` }] : [];

  return { proband: p, father: f, mother: m, origin, deNovo, dominant, dominantSegregation, homRecessive, xLinked, mitochondrial, prior };
}

export type Phase = 'trans' | 'likely_trans' | 'cis' | 'likely_cis' | 'unknown';

export interface PairEvidence {
  phase: Phase;
  factors: Factor[];
}

/** Phase and segregation of two heterozygous variants of one gene (compound heterozygous candidates). */
export function pairEvidence(a: AnnotatedVariant, b: AnnotatedVariant, ctx: FamilyContext): PairEvidence {
  const ea = variantFamilyEvidence(a, ctx);
  const eb = variantFamilyEvidence(b, ctx);
  const la = variantLabel(a);
  const lb = variantLabel(b);
  const carries = (c: MemberCall | null): boolean | null => (c === null || c.dose === null ? null : c.dose > 0);
  const fa = carries(ea.father);
  const fb = carries(eb.father);
  const ma = carries(ea.mother);
  const mb = carries(eb.mother);
  const fName = ctx.father?.id ?? 'the father';
  const mName = ctx.mother?.id ?? 'the mother';
  let phase: Phase;
  let factor: number;
  let rule: string;
  if (fa !== null && fb !== null && ma !== null && mb !== null) {
    if ((fa && !ma && mb && !fb) || (ma && !fa && fb && !mb)) {
      phase = 'trans';
      factor = 1;
      const fromF = fa ? la : lb;
      const fromM = fa ? lb : la;
      rule = `compound heterozygous in trans: ${fromF} from the father ${fName}, ${fromM} from the mother ${mName}`;
    } else if ((fa && fb && !ma && !mb) || (ma && mb && !fa && !fb)) {
      phase = 'cis';
      factor = ctx.weights.cisPair;
      rule = `${la} and ${lb} both come from the ${fa ? `father ${fName}` : `mother ${mName}`}: in cis, not compound heterozygous`;
    } else if ((!fa && !ma) || (!fb && !mb)) {
      phase = 'unknown';
      factor = ctx.weights.phaseUnknown;
      rule = `${la} and ${lb}: ${!fa && !ma && !fb && !mb ? 'both' : 'one'} de novo, phase unknown`;
    } else {
      // A parent carries both. A parent who is not affected carries them on one haplotype (in
      // trans the parent would have both copies of the gene altered), and a child heterozygous
      // at both then has that haplotype whole from them: in cis. An affected parent may be in trans.
      const both = [fa && fb ? { m: ctx.father, name: `father ${fName}` } : null, ma && mb ? { m: ctx.mother, name: `mother ${mName}` } : null].filter((x) => x !== null);
      if (both.every((x) => x.m?.status !== 'affected')) {
        phase = 'likely_cis';
        factor = ctx.weights.likelyCis;
        rule = `${la} and ${lb}: the ${both.map((x) => `${x.m?.status === 'unaffected' ? 'unaffected' : 'not affected'} ${x.name}`).join(' and the ')} carr${both.length > 1 ? 'y' : 'ies'} both, so they sit on one parental haplotype: probably in cis`;
      } else {
        phase = 'unknown';
        factor = ctx.weights.phaseUnknown;
        rule = `${la} and ${lb}: an affected parent carries both, phase unknown`;
      }
    }
  } else {
    const known = fa !== null && fb !== null ? { name: `father ${fName}`, x: fa, y: fb } : ma !== null && mb !== null ? { name: `mother ${mName}`, x: ma, y: mb } : null;
    if (known && known.x !== known.y) {
      phase = 'likely_trans';
      factor = ctx.weights.likelyTrans;
      rule = `${la} and ${lb}: the ${known.name} carries only ${known.x ? la : lb}, the other parent not sequenced or not called: probably in trans`;
    } else if (known && known.x && known.y) {
      phase = 'likely_cis';
      factor = ctx.weights.likelyCis;
      rule = `${la} and ${lb}: the ${known.name} carries both: probably in cis`;
    } else {
      phase = 'unknown';
      factor = ctx.weights.phaseUnknown;
      rule = `${la} and ${lb}: two heterozygous variants, phase unknown (parents not sequenced or not called)`;
    }
  }
  const factors: Factor[] = [{ factor, rule }];
  // Siblings and other relatives: an unaffected one with both variants, an affected one without both.
  const parents = new Set([ctx.father?.id, ctx.mother?.id].filter((x): x is string => x != null));
  for (const m of ctx.informative) {
    if (parents.has(m.id)) continue;
    const ca = memberCall(a, m.id, m.sex);
    const cb = memberCall(b, m.id, m.sex);
    if (ca.dose === null || cb.dose === null) continue;
    const both = ca.dose > 0 && cb.dose > 0;
    if (m.status === 'affected' && !both) factors.push({ factor: ctx.weights.phenocopy, rule: `affected ${m.relation} ${m.id} does not carry both ${la} and ${lb}` });
    else if (m.status === 'unaffected' && both && phase !== 'cis') factors.push({ factor: 1 - ctx.weights.recessivePenetrance, rule: `unaffected ${m.relation} ${m.id} carries both ${la} and ${lb}` });
  }
  return { phase, factors };
}

function describeQ(q: QualifyingVariant): string {
  const v = q.variant;
  return `${variantLabel(v)}${v.hgvsP ? ` ${v.hgvsP}` : ''} (${v.genotype.zygosity})`;
}

function fitOf(mode: InheritanceMode, score: number, used: number[], what: string, fs: readonly Factor[], pattern?: string): GenotypeFit {
  const evidence = fs.length ? ` [family: ${rules(fs)}]` : '';
  return { mode, score, used, reason: `${what}${evidence}`, ...(pattern ? { pattern } : {}) };
}

/**
 * Genotype fit of a gene's variants for one mode using the family: `genotypeFit`'s rules times
 * the family evidence of the variants used. The reason names the family rule that matched.
 */
export function familyGenotypeFit(vs: readonly QualifyingVariant[], mode: InheritanceMode, sex: Sex, ctx: FamilyContext): GenotypeFit {
  const first = vs[0];
  if (!first) return { mode, score: 0, used: [], reason: 'no variant' };
  const ev = (i: number): VariantFamilyEvidence => variantFamilyEvidence(vs[i]!.variant, ctx);
  const bestSingle = (pick: (e: VariantFamilyEvidence, q: QualifyingVariant) => Factor[] | null, onlyIdx?: readonly number[]): { i: number; score: number; fs: Factor[] } | null => {
    let best: { i: number; score: number; fs: Factor[] } | null = null;
    const idx = onlyIdx ?? vs.map((_, i) => i);
    for (const i of idx) {
      const q = vs[i]!;
      if (best && q.p <= best.score) break; // sorted by p: later variants cannot win
      const fs = pick(ev(i), q);
      if (!fs) continue;
      const s = q.p * product(fs);
      if (!best || s > best.score) best = { i, score: s, fs };
    }
    return best;
  };
  switch (mode) {
    case 'AD':
    case 'UNKNOWN':
    case 'MT': {
      const b = bestSingle((e, q) => withPrior(e, mode === 'MT' && q.variant.chrom === 'MT' ? e.mitochondrial : e.dominant))!;
      const q = vs[b.i]!;
      const e = ev(b.i);
      const how = e.deNovo && e.deNovo.level !== 'low_quality' ? 'de novo' : e.origin === 'paternal' ? 'inherited from the father' : e.origin === 'maternal' ? 'inherited from the mother' : 'de novo or inherited';
      return fitOf(mode, b.score, [b.i], `${describeQ(q)}: one variant is enough for ${MODE_LABELS[mode]} disease (${how})`, b.fs, how);
    }
    case 'AR':
      return recessiveFit(vs, mode, ctx, vs.map((_, i) => i), false);
    case 'XLR':
    case 'XLD':
    case 'XL': {
      const onX = vs.map((q, i) => ({ q, i })).filter((x) => x.q.variant.chrom === 'X').map((x) => x.i);
      if (!onX.length) return familyGenotypeFit(vs, 'AD', sex, ctx);
      if (sex === 'male') {
        const b = bestSingle((e) => withPrior(e, e.xLinked ?? e.dominant), onX)!;
        const e = ev(b.i);
        const origin = e.deNovo && e.deNovo.level !== 'low_quality' ? 'de novo' : e.origin === 'maternal' ? 'from a carrier mother' : 'origin unknown';
        return fitOf(mode, b.score, [b.i], `${describeQ(vs[b.i]!)}: hemizygous in a male, fits ${MODE_LABELS[mode]} disease (${origin})`, b.fs, `hemizygous, ${origin}`);
      }
      if (mode === 'XLR') return recessiveFit(vs, mode, ctx, onX, true);
      const b = bestSingle((e) => withPrior(e, e.dominant), onX)!;
      return fitOf(mode, b.score, [b.i], `${describeQ(vs[b.i]!)}: heterozygous, fits ${MODE_LABELS[mode]} disease`, b.fs, 'heterozygous');
    }
    default: {
      const never: never = mode;
      throw new Error(`unknown inheritance mode ${String(never)}`);
    }
  }
}

/** A variant's evidence for a mode with its de novo prior (null stays null: the mode does not apply). */
function withPrior(e: VariantFamilyEvidence, fs: Factor[] | null): Factor[] | null {
  return fs && e.prior.length ? [...fs, ...e.prior] : fs;
}

function recessiveFit(vs: readonly QualifyingVariant[], mode: InheritanceMode, ctx: FamilyContext, idx: readonly number[], xFemale: boolean): GenotypeFit {
  const first = vs[idx[0]!]!;
  const singlePenalty = xFemale ? FEMALE_XLR_CARRIER : SINGLE_HIT_RECESSIVE;
  const firstPrior = variantFamilyEvidence(first.variant, ctx).prior;
  let best: GenotypeFit = fitOf(mode, first.p * singlePenalty * product(firstPrior), [idx[0]!], `${describeQ(first)}: only one heterozygous variant in a ${xFemale ? 'X-linked recessive gene (a female carrier)' : 'recessive gene'}`, firstPrior);
  for (const i of idx) {
    const q = vs[i]!;
    if (q.p <= best.score) break;
    if (altDose(q.variant) !== 2) continue;
    const e = variantFamilyEvidence(q.variant, ctx);
    const fs = withPrior(e, (xFemale ? e.xLinked : e.homRecessive) ?? [])!;
    const s = q.p * product(fs);
    const parents = parentsOfHomozygous(e);
    if (s > best.score) best = fitOf(mode, s, [i], `${describeQ(q)}: homozygous, fits ${MODE_LABELS[mode]} disease${parents ? ` (${parents})` : ''}`, fs, parents ? `homozygous, ${parents}` : 'homozygous');
  }
  const het = idx.filter((i) => altDose(vs[i]!.variant) !== 2).slice(0, MAX_PAIRED_VARIANTS);
  for (let x = 0; x < het.length; x++) {
    const qa = vs[het[x]!]!;
    if (qa.p * qa.p <= best.score) break;
    for (let y = x + 1; y < het.length; y++) {
      const qb = vs[het[y]!]!;
      if (qa.p * qb.p <= best.score) break;
      const pe = pairEvidence(qa.variant, qb.variant, ctx);
      // The pair is one genotype: the prior counts once, when neither variant is de novo.
      const pa = variantFamilyEvidence(qa.variant, ctx).prior;
      const pb = variantFamilyEvidence(qb.variant, ctx).prior;
      const factors = pa.length && pb.length ? [...pe.factors, { factor: ctx.weights.inheritedInTrio, rule: `${variantLabel(qa.variant)} and ${variantLabel(qb.variant)} both inherited, not de novo` }] : pe.factors;
      const s = qa.p * qb.p * product(factors);
      if (s > best.score) {
        const phase = pe.phase === 'trans' ? 'compound heterozygous in trans' : pe.phase === 'likely_trans' ? 'compound heterozygous, probably in trans' : pe.phase === 'unknown' ? 'compound heterozygous, phase unknown' : 'two variants in cis';
        best = fitOf(mode, s, [het[x]!, het[y]!], `${describeQ(qa)} and ${describeQ(qb)}: two variants, ${pe.phase === 'unknown' ? 'compound-heterozygous candidate (phase unknown)' : pe.phase === 'trans' || pe.phase === 'likely_trans' ? phase : 'in cis'}`, factors, phase);
      }
    }
  }
  return best;
}

/** Per-variant inheritance tags of a proband's candidate variants, with compound-het partners. */
export interface VariantInheritance {
  tags: InheritanceTag[];
  /** Compound heterozygous partners (same gene, not in cis). */
  partners: AnnotatedVariant[];
  /** The family rules behind the tags. */
  rules: string[];
}

/**
 * Tags each candidate variant with the inheritance patterns it fits in this family:
 * de novo (QC-confirmed or coverage not given), compound heterozygous (a heterozygous partner in
 * the same gene, not in cis; relatives may still argue against the pair), homozygous recessive (parents not contradicting), X-linked (hemizygous male
 * or homozygous female on X), and segregates (fits a pattern with no contrary evidence and at
 * least one informative sequenced relative).
 */
export function inheritanceTags(candidates: readonly AnnotatedVariant[], ctx: FamilyContext): Map<AnnotatedVariant, VariantInheritance> {
  const out = new Map<AnnotatedVariant, VariantInheritance>();
  const byGene = new Map<string, AnnotatedVariant[]>();
  for (const v of candidates) {
    out.set(v, { tags: [], partners: [], rules: [] });
    if (!v.gene) continue;
    const g = byGene.get(v.gene) ?? [];
    g.push(v);
    byGene.set(v.gene, g);
  }
  const informativeRelatives = ctx.informative.length > 0 || ctx.father !== null || ctx.mother !== null;
  const clean = (fs: readonly Factor[] | null): boolean => fs !== null && product(fs) >= 0.999;
  for (const v of candidates) {
    const e = variantFamilyEvidence(v, ctx);
    const r = out.get(v)!;
    if (e.deNovo && e.deNovo.level !== 'low_quality') {
      r.tags.push('de_novo');
      r.rules.push(e.deNovo.reason);
    }
    if (e.homRecessive && product(e.homRecessive) > ctx.weights.homOneParentMissingAllele) {
      r.tags.push('hom_recessive');
      const parents = parentsOfHomozygous(e);
      r.rules.push(e.homRecessive.length ? rules(e.homRecessive) : `${variantLabel(v)} homozygous${parents ? `, ${parents}` : ''}`);
    }
    if (e.xLinked && product(e.xLinked) > ctx.weights.homOneParentMissingAllele) {
      r.tags.push('x_linked');
      r.rules.push(e.xLinked.length ? rules(e.xLinked) : `${variantLabel(v)} on X, ${ctx.proband.sex === 'male' ? 'hemizygous' : 'homozygous'}${e.origin === 'maternal' ? ', from a carrier mother' : ''}`);
    }
  }
  for (const vs of byGene.values()) {
    const het = vs.filter((v) => variantFamilyEvidence(v, ctx).proband.dose === 1);
    for (let x = 0; x < het.length; x++) {
      for (let y = x + 1; y < het.length; y++) {
        const a = het[x]!;
        const b = het[y]!;
        const pe = pairEvidence(a, b, ctx);
        if (pe.phase === 'cis' || pe.phase === 'likely_cis') continue;
        for (const [s, t] of [[a, b], [b, a]] as const) {
          const r = out.get(s)!;
          r.partners.push(t);
          if (!r.tags.includes('compound_het')) r.tags.push('compound_het');
          r.rules.push(rules(pe.factors));
        }
      }
    }
  }
  if (informativeRelatives) {
    for (const v of candidates) {
      const e = variantFamilyEvidence(v, ctx);
      const r = out.get(v)!;
      const dominantClean =
        clean(e.dominantSegregation) && (e.deNovo?.level === 'confirmed' || e.deNovo?.level === 'unchecked' || (e.origin !== 'de_novo' && hasAffectedCarrierRelative(v, ctx)));
      const pairClean = r.partners.some((t) => {
        const pe = pairEvidence(v, t, ctx);
        return pe.phase === 'trans' && clean(pe.factors);
      });
      // A homozygous variant segregates as recessive when both parents carry it and neither is a
      // homozygote of unknown status (a homozygous parent of unknown status tells nothing: were
      // they unaffected, the variant would not fit; the GIAB trio's common homozygous calls).
      const homParentUnknown = (c: MemberCall | null, member: FamilyMember | null) => c?.dose === 2 && !ctx.informative.some((i) => i.id === member?.id);
      const homClean = e.homRecessive !== null && clean(e.homRecessive) && e.origin === 'both_parents' && !homParentUnknown(e.father, ctx.father) && !homParentUnknown(e.mother, ctx.mother);
      if (dominantClean || homClean || (e.xLinked && clean(e.xLinked)) || pairClean) r.tags.push('segregates');
    }
  }
  for (const r of out.values()) r.tags.sort((a, b) => INHERITANCE_TAGS.indexOf(a) - INHERITANCE_TAGS.indexOf(b));
  return out;
}

/** An inherited dominant variant segregates only when some affected relative shares it. */
function hasAffectedCarrierRelative(v: AnnotatedVariant, ctx: FamilyContext): boolean {
  return ctx.informative.some((m) => m.status === 'affected' && (memberCall(v, m.id, m.sex).dose ?? 0) > 0);
}
