/**
 * Automated ACMG/AMP 2015 criteria (Richards et al. 2015) with ClinGen SVI refinements, combined
 * on the Bayesian points scale (Tavtigian et al. 2018, 2020): Very strong 8, Strong 4, Moderate 2,
 * Supporting 1 (negative for benign evidence); >= 10 Pathogenic, 6..9 Likely pathogenic, 0..5 VUS,
 * -1..-6 Likely benign, <= -7 Benign; BA1 is stand-alone Benign.
 *
 * Every criterion is computed from evidence the caller gathered (consequence, gene metrics,
 * population frequency, ClinVar-derived tables, predictor scores); where the evidence is absent
 * the criterion is listed in `notAssessed` with the reason, never silently treated as negative.
 * ClinVar's own assertion for the allele is reported beside the class by the annotator. It becomes
 * a criterion (PP5 / BP6, "reputable source") only with the `clinvarCriteria` option: ClinGen SVI
 * (Biesecker & Harrison, Genet Med 2018) recommends against both, because the laboratory cannot
 * weigh evidence it has not seen and the submitter's evidence would be counted twice. Off by default
 * (docs/acmg-clinvar.md); PS1 and PM5, which the rules allow, use ClinVar's pathogenic missense table.
 */
import type { AcmgClass, AcmgCriterion, AcmgStrength } from '../types.ts';
import type { GeneRecord } from '../genes/gene.ts';
import { classifySignificance } from '../clinvar/clinvar.ts';

export const STRENGTH_POINTS: Record<AcmgStrength, number> = { VeryStrong: 8, Strong: 4, Moderate: 2, Supporting: 1, StandAlone: 8 };

/** A pathogenic missense at the variant's codon (ClinVar-derived table), other than the variant itself. */
export interface SameCodonPathogenic {
  /** One-letter amino acids of the recorded change. */
  refAa: string;
  altAa: string;
  pChange: string;
  clinvarId: string;
  /** Same nucleotide change as the variant (then it is the same allele, not PS1 evidence). */
  sameNucleotide: boolean;
}

export interface PredictorScores {
  revel?: number | null;
  caddPhred?: number | null;
  alphaMissense?: number | null;
  spliceAi?: number | null;
}

/** ClinVar's assertion for this very allele (exact match), as the PP5/BP6 option reads it. */
export interface ClinvarAssertionEvidence {
  significance: string;
  stars: number;
  reviewStatus: string;
  /** ClinVar release the record comes from, when known. */
  release: string | null;
  /** Variation ID. */
  id: string | null;
}

export interface AcmgOptions {
  /**
   * Apply PP5 / BP6 (Supporting) from ClinVar's assertion for the allele when it has at least
   * `CLINVAR_CRITERIA_MIN_STARS` review stars and no conflict. Deprecated by ClinGen SVI; default off.
   */
  clinvarCriteria?: boolean;
}

/** PP5/BP6 need assertion criteria (>= 1 star): a classification without criteria is not evidence a lab can rely on. */
export const CLINVAR_CRITERIA_MIN_STARS = 1;

export interface AcmgEvidence {
  /** SO terms of the chosen transcript, most severe first. */
  consequences: string[];
  gene: GeneRecord | null;
  /** For null variants: escapes NMD (last exon / last 50 nt of penultimate exon / single exon). */
  nmdEscape: boolean | null;
  /** Fraction of the CDS downstream of the variant. */
  cdsFractionAfter: number | null;
  /** Canonical splice variants: the exon predicted to be skipped, when the model tells (null = unknown). */
  spliceSkip?: { cdsBases: number; inFrame: boolean; nmdEscape: boolean; fraction: number } | null;
  /** Amino acids of the variant when known. */
  refAa: string | null;
  altAa: string | null;
  /** Population allele frequency (max over populations) and whether data exist for this locus at all. */
  af: number | null;
  afSource: string | null;
  populationDataAvailable: boolean;
  sameCodon: SameCodonPathogenic[];
  /** Distinct ClinVar pathogenic missense positions within +-25 bp (same gene), excluding the variant's own position. */
  nearbyPathogenicMissense: number | null;
  /** For in-frame indels: the indel unit repeats >= 3 times in tandem at the site (null = unknown). */
  inRepeat: boolean | null;
  predictors: PredictorScores;
  /** ClinVar's assertion for the allele itself (null: no exact record). Only read with `clinvarCriteria`. */
  clinvar?: ClinvarAssertionEvidence | null;
}

export interface AcmgResult {
  classification: AcmgClass;
  points: number;
  criteria: AcmgCriterion[];
  notAssessed: { code: string; reason: string }[];
}

const NO_CANDIDATES: [AcmgStrength, string][] = Object.freeze([]) as unknown as [AcmgStrength, string][];

/** Frequency thresholds (fractions). */
export const BA1_AF = 0.05;
export const BS1_AF = 0.01;
export const PM2_AF = 0.0001;
/** PP2: missense Z at which gnomAD calls a gene missense-constrained. */
export const PP2_MIS_Z = 3.09;

const NULL_TERMS = ['stop_gained', 'frameshift_variant', 'splice_donor_variant', 'splice_acceptor_variant', 'start_lost', 'transcript_ablation'];

const fmt = (x: number): string => (x >= 0.001 || x === 0 ? String(Number(x.toPrecision(3))) : x.toExponential(2));

/**
 * Appends a criterion; the list is created on the first one (most variants meet none or one: a
 * `[]` that grows on push allocates room for 17).
 */
function addCriterion(criteria: AcmgCriterion[] | null, code: string, strength: AcmgStrength, benign: boolean, reason: string): AcmgCriterion[] {
  const pts = STRENGTH_POINTS[strength];
  return addTo(criteria, { code: strength === 'Supporting' && code === 'PM2' ? 'PM2_Supporting' : code, strength, points: benign ? -pts : pts, reason });
}

function addTo<T>(list: T[] | null, x: T): T[] {
  if (list === null) return [x];
  list.push(x);
  return list;
}

/** The strongest entry (the first of equals, as a stable sort would give); no copy, no sort. */
function strongest(l: [AcmgStrength, string][]): [AcmgStrength, string] | undefined {
  let best: [AcmgStrength, string] | undefined;
  for (const x of l) if (best === undefined || STRENGTH_POINTS[x[0]] > STRENGTH_POINTS[best[0]]) best = x;
  return best;
}

function hasAny(cons: readonly string[], terms: readonly string[]): boolean {
  for (let i = 0; i < cons.length; i++) if (terms.includes(cons[i]!)) return true;
  return false;
}

/** Bayesian points -> ACMG class (Tavtigian 2020). */
export function classFromPoints(points: number): AcmgClass {
  if (points >= 10) return 'Pathogenic';
  if (points >= 6) return 'Likely pathogenic';
  if (points >= 0) return 'Uncertain significance';
  if (points >= -6) return 'Likely benign';
  return 'Benign';
}

/** Whether LoF is an established disease mechanism for the gene, and why. */
export function lofMechanism(gene: GeneRecord | null): { established: boolean; reason: string } {
  if (!gene) return { established: false, reason: 'no gene' };
  const c = gene.constraint;
  const parts: string[] = [];
  let established = false;
  if (c?.loeuf != null && c.loeuf < 0.6) {
    established = true;
    parts.push(`LOEUF ${fmt(c.loeuf)} < 0.6 (${c.source})`);
  }
  if (c?.pLI != null && c.pLI >= 0.9) {
    established = true;
    parts.push(`pLI ${fmt(c.pLI)} >= 0.9`);
  }
  const lof = gene.clinvar?.plpLof ?? 0;
  if (lof >= 2) {
    established = true;
    parts.push(`${lof} ClinVar P/LP null variants in ${gene.symbol}`);
  }
  if (!established) {
    const why = [c?.loeuf != null ? `LOEUF ${fmt(c.loeuf)}` : 'no LOEUF', c?.pLI != null ? `pLI ${fmt(c.pLI)}` : 'no pLI', `${lof} ClinVar P/LP null variants`];
    return { established: false, reason: why.join(', ') };
  }
  return { established, reason: parts.join('; ') };
}

/**
 * Whether classifyAcmg reads the gene for a variant with these consequences: PVS1 for a null
 * variant (LoF mechanism), PP2/BP1 for a missense one. For any other consequence list its result
 * is the same whatever the gene (callers may share one result across genes).
 */
export function acmgReadsGene(consequences: readonly string[]): boolean {
  return hasAny(consequences, NULL_TERMS) || consequences.includes('missense_variant');
}

/** Applies the automated criteria and combines them. */
export function classifyAcmg(ev: AcmgEvidence, opts: AcmgOptions = {}): AcmgResult {
  let criteria: AcmgCriterion[] | null = null;
  let notAssessed: { code: string; reason: string }[] | null = null;
  // Consequence lists are short: array scans beat building a Set per variant.
  const cons = ev.consequences;
  const isNull = hasAny(cons, NULL_TERMS);
  const isMissense = cons.includes('missense_variant');
  const isInframe = cons.includes('inframe_insertion') || cons.includes('inframe_deletion');
  const gsym = ev.gene?.symbol ?? 'the gene';

  // PVS1 (Richards 2015; ClinGen SVI Abou Tayoun 2018 decision tree).
  if (isNull) {
    const mech = lofMechanism(ev.gene);
    if (!mech.established) {
      notAssessed = addTo(notAssessed, { code: 'PVS1', reason: `null variant, but LoF is not an established mechanism for ${gsym} (${mech.reason})` });
    } else if (cons.includes('frameshift_variant') || cons.includes('stop_gained')) {
      const kind = cons.includes('frameshift_variant') ? 'frameshift' : 'nonsense';
      if (ev.nmdEscape === false) criteria = addCriterion(criteria, 'PVS1', 'VeryStrong', false, `${kind} predicted to cause NMD in ${gsym}; ${mech.reason}`);
      else if (ev.nmdEscape === true) {
        const frac = ev.cdsFractionAfter;
        if (frac != null && frac > 0.1) criteria = addCriterion(criteria, 'PVS1', 'Strong', false, `${kind} escapes NMD (last exon/last 50 nt of penultimate exon) but removes ${Math.round(frac * 100)}% of the protein (>10%); ${mech.reason}`);
        else criteria = addCriterion(criteria, 'PVS1', 'Moderate', false, `${kind} escapes NMD and removes ${frac != null ? Math.round(frac * 100) : '?'}% of the protein (<=10%); ${mech.reason}`);
      } else criteria = addCriterion(criteria, 'PVS1', 'Strong', false, `${kind} with NMD status unknown; ${mech.reason}`);
    } else if (cons.includes('splice_donor_variant') || cons.includes('splice_acceptor_variant')) {
      // SVI splice branch, assuming the exon is skipped (no RNA or SpliceAI evidence of another outcome).
      const k = ev.spliceSkip;
      const pct = k ? `${Math.round(k.fraction * 100)}%` : '';
      if (!k) criteria = addCriterion(criteria, 'PVS1', 'Strong', false, `canonical +-1/2 splice site; effect of the splice defect not modelled, so Strong (SVI); ${mech.reason}`);
      else if (k.cdsBases === 0) notAssessed = addTo(notAssessed, { code: 'PVS1', reason: 'canonical splice site of a non-coding exon (SVI: PVS1 not applicable)' });
      else if (!k.inFrame && !k.nmdEscape) criteria = addCriterion(criteria, 'PVS1', 'VeryStrong', false, `canonical splice site; skipping the exon (${k.cdsBases} coding nt) shifts the frame and is predicted to cause NMD; ${mech.reason}`);
      else if (k.fraction > 0.1) criteria = addCriterion(criteria, 'PVS1', 'Strong', false, `canonical splice site; exon skipping ${k.inFrame ? 'keeps the frame' : 'shifts the frame but escapes NMD'} and removes ${pct} of the protein (>10%); ${mech.reason}`);
      else criteria = addCriterion(criteria, 'PVS1', 'Moderate', false, `canonical splice site; exon skipping ${k.inFrame ? 'keeps the frame' : 'shifts the frame but escapes NMD'} and removes ${pct} of the protein (<=10%); ${mech.reason}`);
    } else if (cons.includes('start_lost')) {
      criteria = addCriterion(criteria, 'PVS1', 'Moderate', false, `initiation codon lost; no alternative start assessed (SVI: Moderate); ${mech.reason}`);
    } else if (cons.includes('transcript_ablation')) {
      criteria = addCriterion(criteria, 'PVS1', 'VeryStrong', false, `whole transcript deleted; ${mech.reason}`);
    }
  }

  // PS1 / PM5 (same amino-acid change / different missense at the same codon).
  if (isMissense) {
    const others = ev.sameCodon.filter((s) => !s.sameNucleotide);
    if (ev.altAa) {
      const same = others.find((s) => s.altAa === ev.altAa);
      if (same) criteria = addCriterion(criteria, 'PS1', 'Strong', false, `same amino-acid change ${same.pChange} reported pathogenic in ClinVar (AlleleID ${same.clinvarId}) via a different nucleotide change`);
      const diff = ev.sameCodon.find((s) => s.altAa !== ev.altAa && s.altAa !== '*');
      if (diff) criteria = addCriterion(criteria, 'PM5', 'Moderate', false, `different pathogenic missense ${diff.pChange} at the same codon (ClinVar AlleleID ${diff.clinvarId})`);
    } else if (ev.sameCodon.length) {
      notAssessed = addTo(notAssessed, { code: 'PS1/PM5', reason: `pathogenic missense recorded at this codon (${ev.sameCodon.map((s) => s.pChange).join(', ')}), but the variant's amino acid is unknown without the codon sequence` });
    }
  }

  // PM1 hotspot proxy.
  if (isMissense && ev.nearbyPathogenicMissense != null) {
    if (ev.nearbyPathogenicMissense >= 4) {
      criteria = addCriterion(criteria, 'PM1', 'Moderate', false, `hotspot proxy: ${ev.nearbyPathogenicMissense} other ClinVar pathogenic missense positions within 25 bp (no curated domain data)`);
    }
  }

  // Population frequency: BA1, BS1, PM2_Supporting.
  if (ev.af != null) {
    const src = ev.afSource ? ` (${ev.afSource})` : '';
    if (ev.af > BA1_AF) criteria = addCriterion(criteria, 'BA1', 'StandAlone', true, `allele frequency ${fmt(ev.af)}${src} > 5%`);
    else if (ev.af > BS1_AF) criteria = addCriterion(criteria, 'BS1', 'Strong', true, `allele frequency ${fmt(ev.af)}${src} > 1%, above what a rare disease allows`);
    else if (ev.af <= PM2_AF) criteria = addCriterion(criteria, 'PM2', 'Supporting', false, `allele frequency ${fmt(ev.af)}${src} <= 0.01% (SVI: PM2 at Supporting)`);
  } else if (ev.populationDataAvailable) {
    criteria = addCriterion(criteria, 'PM2', 'Supporting', false, `absent from the population data${ev.afSource ? ` (${ev.afSource})` : ''} (SVI: PM2 at Supporting)`);
  } else {
    notAssessed = addTo(notAssessed, { code: 'PM2/BA1/BS1', reason: 'no population frequency data for this locus (no gnomAD table in the KB and none in the VCF)' });
  }

  // PM4 (protein length change) / BP3 (in-frame indel in a repeat).
  if (isInframe && !isNull) {
    if (ev.inRepeat === true) criteria = addCriterion(criteria, 'BP3', 'Supporting', true, 'in-frame indel within a tandem repeat of its own unit (>= 3 copies)');
    else criteria = addCriterion(criteria, 'PM4', 'Moderate', false, `in-frame ${cons.includes('inframe_deletion') ? 'deletion' : 'insertion'} changes protein length${ev.inRepeat === null ? ' (repeat context unknown without sequence)' : ', not in a repeat'}`);
  } else if (cons.includes('stop_lost')) {
    criteria = addCriterion(criteria, 'PM4', 'Moderate', false, 'stop-loss extends the protein');
  }

  // PP2 / BP1 (gene-level missense priors from constraint and ClinVar counts).
  if (isMissense && ev.gene) {
    const misZ = ev.gene.constraint?.misZ ?? null;
    const cv = ev.gene.clinvar;
    const plpMis = cv?.plpMissense ?? 0;
    const blbMis = cv?.blbMissense ?? 0;
    const plpLof = cv?.plpLof ?? 0;
    if (misZ != null && misZ >= PP2_MIS_Z && plpMis >= 5 && blbMis <= plpMis / 10) {
      criteria = addCriterion(criteria, 'PP2', 'Supporting', false, `missense-constrained gene (mis_z ${fmt(misZ)} >= ${PP2_MIS_Z}) with ${plpMis} ClinVar P/LP missense and ${blbMis} B/LB missense`);
    } else if (misZ == null) notAssessed = addTo(notAssessed, { code: 'PP2', reason: `no missense Z score for ${gsym}` });
    if (plpLof >= 10 && plpLof / (plpLof + plpMis) >= 0.9) {
      criteria = addCriterion(criteria, 'BP1', 'Supporting', true, `truncating variants are the mechanism in ${gsym}: ${plpLof} P/LP null vs ${plpMis} P/LP missense in ClinVar`);
    }
  }

  // PP3 / BP4 (ClinGen SVI calibrated thresholds, Pejaver 2022; SpliceAI per Walker 2023).
  const p = ev.predictors;
  // Candidate lists only when some score exists (every push below needs one); most inputs have none.
  const anyPredictor = p.revel != null || p.caddPhred != null || p.alphaMissense != null || p.spliceAi != null;
  const pp3: [AcmgStrength, string][] = anyPredictor ? [] : NO_CANDIDATES;
  const bp4: [AcmgStrength, string][] = anyPredictor ? [] : NO_CANDIDATES;
  if (p.revel != null && (isMissense || cons.includes('coding_sequence_variant'))) {
    if (p.revel >= 0.932) pp3.push(['Strong', `REVEL ${fmt(p.revel)} >= 0.932`]);
    else if (p.revel >= 0.773) pp3.push(['Moderate', `REVEL ${fmt(p.revel)} >= 0.773`]);
    else if (p.revel >= 0.644) pp3.push(['Supporting', `REVEL ${fmt(p.revel)} >= 0.644`]);
    else if (p.revel <= 0.016) bp4.push(['Strong', `REVEL ${fmt(p.revel)} <= 0.016`]);
    else if (p.revel <= 0.183) bp4.push(['Moderate', `REVEL ${fmt(p.revel)} <= 0.183`]);
    else if (p.revel <= 0.29) bp4.push(['Supporting', `REVEL ${fmt(p.revel)} <= 0.290`]);
  } else if (p.alphaMissense != null && isMissense) {
    if (p.alphaMissense >= 0.99) pp3.push(['Moderate', `AlphaMissense ${fmt(p.alphaMissense)} >= 0.99`]);
    else if (p.alphaMissense >= 0.792) pp3.push(['Supporting', `AlphaMissense ${fmt(p.alphaMissense)} >= 0.792`]);
    else if (p.alphaMissense <= 0.099) bp4.push(['Moderate', `AlphaMissense ${fmt(p.alphaMissense)} <= 0.099`]);
    else if (p.alphaMissense <= 0.169) bp4.push(['Supporting', `AlphaMissense ${fmt(p.alphaMissense)} <= 0.169`]);
  } else if (p.caddPhred != null && !isNull) {
    if (p.caddPhred >= 28.1) pp3.push(['Moderate', `CADD ${fmt(p.caddPhred)} >= 28.1`]);
    else if (p.caddPhred >= 25.3) pp3.push(['Supporting', `CADD ${fmt(p.caddPhred)} >= 25.3`]);
    else if (p.caddPhred <= 17.3) bp4.push(['Moderate', `CADD ${fmt(p.caddPhred)} <= 17.3`]);
    else if (p.caddPhred <= 22.7) bp4.push(['Supporting', `CADD ${fmt(p.caddPhred)} <= 22.7`]);
  }
  if (p.spliceAi != null && !isNull) {
    if (p.spliceAi >= 0.2) pp3.push(['Supporting', `SpliceAI ${fmt(p.spliceAi)} >= 0.2`]);
    else if (p.spliceAi <= 0.1 && !isMissense) bp4.push(['Supporting', `SpliceAI ${fmt(p.spliceAi)} <= 0.1`]);
  }
  const pp3Best = strongest(pp3);
  const bp4Best = strongest(bp4);
  if (pp3Best) criteria = addCriterion(criteria, 'PP3', pp3Best[0], false, `computational evidence of a deleterious effect: ${pp3.map((x) => x[1]).join('; ')}`);
  else if (bp4Best) criteria = addCriterion(criteria, 'BP4', bp4Best[0], true, `computational evidence of no impact: ${bp4.map((x) => x[1]).join('; ')}`);
  else if (!isNull && p.revel == null && p.caddPhred == null && p.alphaMissense == null && p.spliceAi == null && (isMissense || isInframe || cons.includes('synonymous_variant') || cons.includes('splice_region_variant'))) {
    notAssessed = addTo(notAssessed, { code: 'PP3/BP4', reason: 'no predictor scores (REVEL, CADD, AlphaMissense, SpliceAI) in the input' });
  }

  // BP7: synonymous, not at a splice region, no splice prediction against it.
  if (cons.includes('synonymous_variant') && !cons.includes('splice_region_variant') && !(p.spliceAi != null && p.spliceAi >= 0.1)) {
    criteria = addCriterion(criteria, 'BP7', 'Supporting', true, `synonymous change outside the splice region${p.spliceAi != null ? ` (SpliceAI ${fmt(p.spliceAi)})` : ''}`);
  }

  // PP5 / BP6 from ClinVar's assertion for the allele (explicit option; see the header).
  if (opts.clinvarCriteria) {
    const r = clinvarCriterion(ev.clinvar ?? null);
    if (r.criterion) criteria = addCriterion(criteria, r.criterion.code, 'Supporting', r.criterion.code === 'BP6', r.criterion.reason);
    else notAssessed = addTo(notAssessed, { code: 'PP5/BP6', reason: r.reason });
  }

  // PM5 is not counted together with PS1 for the same codon (Richards 2015: PS1 already uses that codon's evidence).
  criteria ??= [];
  let ps1 = false;
  for (const c of criteria) if (c.code === 'PS1') ps1 = true;
  if (ps1) {
    const i = criteria.findIndex((c) => c.code === 'PM5');
    if (i >= 0) criteria.splice(i, 1);
  }
  let points = 0;
  let ba1 = false;
  for (const c of criteria) {
    points += c.points;
    if (c.code === 'BA1') ba1 = true;
  }
  const classification = ba1 ? 'Benign' : classFromPoints(points);
  return { classification, points, criteria, notAssessed: notAssessed ?? [] };
}

/** PP5 / BP6 from ClinVar's assertion, or why neither applies. */
export function clinvarCriterion(cv: ClinvarAssertionEvidence | null): { criterion: { code: 'PP5' | 'BP6'; reason: string } | null; reason: string } {
  if (!cv) return { criterion: null, reason: 'no ClinVar record for this allele' };
  const cls = classifySignificance(cv.significance);
  const stars = `${cv.stars} star${cv.stars === 1 ? '' : 's'}, ${cv.reviewStatus}`;
  const record = `ClinVar${cv.id ? ` VCV ${cv.id}` : ''}${cv.release ? ` (release ${cv.release})` : ''}`;
  if (cv.stars < CLINVAR_CRITERIA_MIN_STARS) return { criterion: null, reason: `${record} says ${cv.significance} with ${stars}: fewer than ${CLINVAR_CRITERIA_MIN_STARS} review star` };
  if (cls === 'P' || cls === 'LP') return { criterion: { code: 'PP5', reason: `${record} reports ${cv.significance} (${stars}); ClinVar-backed criterion, deprecated by ClinGen SVI, applied by option` }, reason: '' };
  if (cls === 'B' || cls === 'LB') return { criterion: { code: 'BP6', reason: `${record} reports ${cv.significance} (${stars}); ClinVar-backed criterion, deprecated by ClinGen SVI, applied by option` }, reason: '' };
  return { criterion: null, reason: `${record} says ${cv.significance} (${stars}): neither pathogenic nor benign without conflict` };
}
