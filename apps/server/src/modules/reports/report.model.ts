/**
 * What a report, a phenopacket and the interpretation draft are built from: the case, its
 * stored analysis run and the selected variants, gathered by the service (no I/O here).
 */
import type { ReviewerClassification } from '@rarelens/contract';
import { describeCodingOutcome } from '@rarelens/engine';
import { ACMG_ORDER } from '../../db/gene-significance.ts';
import { presentZygosity, readStoredDetails } from '../../db/run-variants.ts';
import type { RunPhenotypeRow, RunVariantRow } from '../../db/schema/products.ts';
import { alleleKey, presentClinvarAssertion } from '../variants/index.ts';

export interface TermLabel {
  id: string;
  label: string;
  /** An age-of-onset term (under HPO Onset): the patient's onset, not a phenotypic feature. */
  onset?: true;
}

export interface ReportCase {
  /** Internal product id (uuid). */
  id: string;
  caseId: string;
  gender: 'male' | 'female';
  symptoms: string;
  hpoTerms: TermLabel[];
  excludedTerms: TermLabel[];
  /**
   * The patient's age of onset: of the onset terms among hpoTerms the one the ranking scores (the
   * earliest; engine patientOnset), null without one.
   */
  onset: TermLabel | null;
  /** 'phenome' = the terms were read from the symptoms by PhenomeAI because none were given. */
  hpoTermsSource?: 'given' | 'phenome';
  genomeFileName: string | null;
  genomeFormat: string;
}

export interface ReportRun {
  id: string;
  softwareVersion: string;
  kbVersions: Record<string, string>;
  /** Assembly the results are on (GRCh38). */
  assembly: string;
  /** Assembly of the uploaded file. */
  inputAssembly: string;
  completedAt: Date | null;
  rankedAt: Date | null;
  counts: Record<string, number>;
}

/** The family of a trio/pedigree case, for the report's segregation section. */
export interface ReportFamily {
  proband: string;
  members: { id: string; relation: string; sex: string; status: string; father: string | null; mother: string | null; sequenced: boolean }[];
  /** Mendelian consistency per trio. */
  qc: { child: string; father: string; mother: string; sites: number; errors: number; qcSites: number; qcErrors: number; qcRate: number; warning: string | null }[];
  notes: string[];
  /** Per selected variant (run variant id): every member's genotype and the inheritance evidence. */
  variants: Record<number, { genotypes: Record<string, { gt: string; depth?: number; genotypeQuality?: number }> | null; inheritance: string[]; rules: string[] }>;
}

/** The raw data analysis of a FASTQ case (the "Raw data analysis" add-on), for the method section. */
export interface ReportRawData {
  reference: string;
  demoReference: boolean;
  layout: string;
  /** Tool -> version line. */
  tools: Record<string, string>;
  commands: string[];
  qc: { reads: number; mappedRate: number; duplicateRate: number; meanDepth: number; tiTv: number | null };
}

/** Reviewer classifications of the case by allele key (`alleleKey`). */
export type ReportReviews = ReadonlyMap<string, ReviewerClassification>;

const NO_REVIEWS: ReportReviews = new Map();

/** The reviewer's classification of a selected variant, if any. */
/** A contig named once, UCSC style, whatever the input called it: '10' and 'chr10' -> 'chr10', 'MT' and 'chrM' -> 'chrM'. */
export function ucscChrom(chrom: string): string {
  const bare = chrom.replace(/^chr/i, '');
  return `chr${bare.toUpperCase() === 'MT' || bare.toUpperCase() === 'M' ? 'M' : bare}`;
}

export function reviewOf(reviews: ReportReviews | undefined, v: Pick<RunVariantRow, 'chrom' | 'pos' | 'ref' | 'alt'>): ReviewerClassification | null {
  return (reviews ?? NO_REVIEWS).get(alleleKey(v)) ?? null;
}

/** The class the report leads with: the reviewer's when set, else the automatic ACMG class. */
export function effectiveClass(v: RunVariantRow, reviews: ReportReviews | undefined): string {
  return reviewOf(reviews, v)?.classification ?? v.acmgClass;
}

/** "Likely pathogenic — reason (Ada Lovelace <ada@example.org>, 2026-11-25 09:30 UTC); automatic class Uncertain significance". */
export function formatReview(r: ReviewerClassification, automaticNow: string): string {
  const who = r.reviewer.name ? `${r.reviewer.name} <${r.reviewer.email}>` : r.reviewer.email;
  const when = `${r.updatedAt.slice(0, 16).replace('T', ' ')} UTC`;
  const automatic = r.automaticClass === automaticNow ? `automatic class ${automaticNow}` : `automatic class ${automaticNow} (${r.automaticClass} when reviewed)`;
  return `${r.classification} — ${r.reason} (${who}, ${when}); ${automatic}`;
}

/** A selected variant's gene as the genes screen ranks it. */
export interface ReportGene {
  symbol: string;
  rank: number;
  /** log10 ranking score. */
  score: number;
  /** Calibrated post-test probability; null for runs ranked before it was computed. */
  probability: number | null;
}

export interface ReportModel {
  product: ReportCase;
  run: ReportRun | null;
  /** Present when the case was analysed from raw reads (FASTQ). */
  rawData?: ReportRawData | null;
  /** Selected variants in the current run, in reporting-list order. */
  variants: RunVariantRow[];
  /** Items whose allele is no longer in the current run (kept, flagged in the report). */
  missing: { chrom: string; pos: number; ref: string; alt: string; gene: string | null }[];
  /** Ranked diseases involving the selected genes, best first (and the best of every selected gene, see diseasesForGenes). */
  diseases: RunPhenotypeRow[];
  /** The ranking of the selected variants' genes, best first (absent: not read, e.g. a phenopacket). */
  genes?: ReportGene[];
  interpretation: string;
  analyst: string;
  generatedAt: Date;
  reportId: string;
  /** Present for a family (trio or pedigree) case. */
  family?: ReportFamily | null;
  /** Reviewer classifications of the case (absent: none). */
  reviews?: ReportReviews;
}

export interface StoredCriterion {
  code: string;
  strength: string;
  points: number;
  reason: string;
}

const DEFAULT_STRENGTH: Record<string, string> = {
  PVS: 'VeryStrong',
  PS: 'Strong',
  PM: 'Moderate',
  PP: 'Supporting',
  BA: 'StandAlone',
  BS: 'Strong',
  BP: 'Supporting',
};

/** ACMG/AMP criteria as written in reports: "PVS1", "PM2_Supporting", "PS1_Moderate". */
export function criteriaCodes(raw: unknown): string[] {
  const list = Array.isArray(raw) ? (raw as StoredCriterion[]) : [];
  return list.map((c) => {
    if (c.code.includes('_')) return c.code;
    const prefix = /^[A-Z]+/.exec(c.code)?.[0] ?? '';
    return DEFAULT_STRENGTH[prefix] === c.strength || !c.strength ? c.code : `${c.code}_${c.strength}`;
  });
}

/** "NM_000141.5:c.1019A>G" — the transcript prefixed when the stored HGVS lacks it. */
export function fullHgvsC(v: Pick<RunVariantRow, 'hgvsC' | 'transcript'>): string | null {
  if (!v.hgvsC) return null;
  return v.hgvsC.includes(':') || !v.transcript ? v.hgvsC : `${v.transcript}:${v.hgvsC}`;
}

/** The c. part alone ("c.1019A>G"). */
export function shortHgvsC(v: Pick<RunVariantRow, 'hgvsC'>): string | null {
  if (!v.hgvsC) return null;
  const i = v.hgvsC.indexOf(':');
  return i >= 0 ? v.hgvsC.slice(i + 1) : v.hgvsC;
}

export function shortHgvsP(v: Pick<RunVariantRow, 'hgvsP'>): string | null {
  if (!v.hgvsP) return null;
  const i = v.hgvsP.indexOf(':');
  return i >= 0 ? v.hgvsP.slice(i + 1) : v.hgvsP;
}

/** Population allele frequency as shown to clinicians. */
export function formatFrequency(af: number | null, source: string | null): string {
  if (af == null) return 'not available';
  const value = af === 0 ? '0' : af < 0.0001 ? af.toExponential(2) : af.toFixed(af < 0.01 ? 5 : 4);
  return source ? `${value} (${source})` : value;
}

/** "missense_variant" -> "missense variant". */
/** A read fraction as a percentage with at most one decimal (0.3412 -> "34.1 %"). */
function percentOfReads(f: number): string {
  return `${Number((f * 100).toFixed(1))} %`;
}

/** The stored heteroplasmy of a mitochondrial call, or null. */
function heteroplasmyOf(v: Pick<RunVariantRow, 'genotype'>): number | null {
  const h = (v.genotype as { heteroplasmy?: unknown } | null)?.heteroplasmy;
  return typeof h === 'number' ? h : null;
}

/**
 * The zygosity as the report's tables say it: a mitochondrial call by its level and read fraction
 * ("heteroplasmic, 34 % of reads"; "mitochondrial, level unknown" without AF or AD), others as stored.
 */
export function zygosityText(v: Pick<RunVariantRow, 'chrom' | 'zygosity' | 'genotype'>): string {
  const z = presentZygosity(v.chrom, v.zygosity);
  if (z === 'mitochondrial') return 'mitochondrial, level unknown';
  const h = heteroplasmyOf(v);
  return (z === 'homoplasmic' || z === 'heteroplasmic') && h !== null ? `${z}, ${percentOfReads(h)} of reads` : z;
}

/** The zygosity in a sentence: the adjective, and for a mitochondrial call its level in brackets after the allele. */
function zygosityPhrase(v: Pick<RunVariantRow, 'chrom' | 'zygosity' | 'genotype'>): { adjective: string; note: string } {
  const z = presentZygosity(v.chrom, v.zygosity);
  if (z === 'mitochondrial') return { adjective: 'mitochondrial', note: ' (heteroplasmy level unknown)' };
  const h = heteroplasmyOf(v);
  return { adjective: z, note: (z === 'homoplasmic' || z === 'heteroplasmic') && h !== null ? ` (${percentOfReads(h)} of reads)` : '' };
}

export function formatConsequence(c: string | null): string {
  return c ? c.replace(/_variant$/, '').replace(/_/g, ' ') + (c.endsWith('_variant') ? ' variant' : '') : 'not available';
}

/**
 * The expected codon outcome of a coding variant whose codon is not known without the reference
 * sequence ("probably synonymous (P = 0.96; missense P = 0.04; codon not known …)"), or null.
 */
export function expectedCodonOutcome(v: Pick<RunVariantRow, 'details'>): string | null {
  const outcome = readStoredDetails(v.details)?.codingOutcome;
  return outcome?.length ? describeCodingOutcome(outcome) : null;
}

export function formatClinvar(v: Pick<RunVariantRow, 'clinvarSignificance' | 'clinvar'>): string {
  const a = presentClinvarAssertion(v.clinvar);
  if (!a) return v.clinvarSignificance ? v.clinvarSignificance.replace(/_/g, ' ') : 'not in ClinVar';
  const parts = [a.significance];
  if (a.match === 'exact') parts.push(`(${a.stars} ${a.stars === 1 ? 'star' : 'stars'}${a.reviewStatus ? `, ${a.reviewStatus}` : ''})`);
  else parts.push(`(${a.match === 'same_amino_acid' ? 'same amino-acid change, other nucleotide' : 'other missense at this codon'})`);
  if (a.id) parts.push(`${a.idType === 'allele' ? 'AlleleID' : 'VCV'} ${a.id}`);
  if (a.release) parts.push(`release ${a.release}`);
  return parts.join(' ');
}

/** The ClinVar record's page, when it has an id. */
export function clinvarLink(v: Pick<RunVariantRow, 'clinvar'>): string | null {
  return presentClinvarAssertion(v.clinvar)?.url ?? null;
}

/** Position of an ACMG class from most to least pathogenic (an unknown value last). */
function severity(acmgClass: string): number {
  const i = (ACMG_ORDER as readonly string[]).indexOf(acmgClass);
  return i < 0 ? ACMG_ORDER.length : i;
}

/** Selected variants ordered for the narrative: most pathogenic class first, then rank. */
export function byClinicalPriority(a: RunVariantRow, b: RunVariantRow): number {
  return severity(a.acmgClass) - severity(b.acmgClass) || (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER) || b.score - a.score;
}

/** byClinicalPriority on the class the report leads with (the reviewer's when set). */
export function byEffectivePriority(reviews: ReportReviews | undefined): (a: RunVariantRow, b: RunVariantRow) => number {
  return (a, b) => {
    return severity(effectiveClass(a, reviews)) - severity(effectiveClass(b, reviews)) || byClinicalPriority(a, b);
  };
}

export const isCausalClass = (c: string): boolean => c === 'Pathogenic' || c === 'Likely pathogenic';

interface StoredMatchedTerm {
  id: string;
  label: string;
  match?: string;
}

/** Match kinds that count as a match, as the phenotype screens count them ("5 / 7"). */
const MATCHED_KINDS = new Set(['exact', 'implied', 'partial']);

/**
 * Patient terms the disease's annotations matched ("Broad thumb (HP:0011304)"): the ranking
 * stores every patient term with its match kind, and a term the disease does not explain
 * (unmatched, contradicted) is not one of them.
 */
export function matchedPhenotypes(d: RunPhenotypeRow): TermLabel[] {
  const list = Array.isArray(d.matchedTerms) ? (d.matchedTerms as StoredMatchedTerm[]) : [];
  return list.filter((t) => t.match === undefined || MATCHED_KINDS.has(t.match)).map((t) => ({ id: t.id, label: t.label }));
}

/** A free-text sentence ends with one full stop, whatever the user typed ("fits." → "fits."). */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Match kinds by which a disease explains a patient's term, as the ranking names its "matching features" (a 'partial' match goes through a broader ancestor). */
const EXPLAINING_KINDS = new Set(['exact', 'implied']);

/** The best-ranked disease of the variant's gene among `diseases` (ranked best first), if any. */
function geneDisease(v: RunVariantRow, diseases: RunPhenotypeRow[]): RunPhenotypeRow | undefined {
  return v.gene ? diseases.find((d) => d.genes.includes(v.gene!)) : undefined;
}

/** True when the disease explains at least one of the patient's terms (a row stored before match kinds counts its terms). */
function explainsPhenotype(d: RunPhenotypeRow | undefined): boolean {
  const list = d && Array.isArray(d.matchedTerms) ? (d.matchedTerms as StoredMatchedTerm[]) : [];
  return list.some((t) => t.match === undefined || EXPLAINING_KINDS.has(t.match));
}

/**
 * The order the report presents its findings in, the same in the interpretation, the variant table
 * and the variant evidence (a report must not lead with one finding in its text and another in its
 * tables): non-benign findings whose gene's best-ranked disease explains patient terms first (none
 * when the case has no terms), then the others; within each, byEffectivePriority.
 */
export function byReportOrder(diseases: RunPhenotypeRow[], reviews: ReportReviews | undefined, phenotyped: boolean): (a: RunVariantRow, b: RunVariantRow) => number {
  const notBenign = severity('Uncertain significance');
  const primary = (v: RunVariantRow) => (phenotyped && explainsPhenotype(geneDisease(v, diseases)) && severity(effectiveClass(v, reviews)) <= notBenign ? 0 : 1);
  const byPriority = byEffectivePriority(reviews);
  return (a, b) => primary(a) - primary(b) || byPriority(a, b);
}

/** What the report says of its findings' order, under the variant table. */
export function reportOrderNote(phenotyped: boolean): string {
  return phenotyped
    ? 'Variants are listed in the order of the interpretation: findings whose associated disease explains features of the patient first, then the others; within each, by classification (the reviewer\'s when set), then rank.'
    : 'Variants are listed in the order of the interpretation: by classification (the reviewer\'s when set), then rank (no HPO terms: the fit to the phenotype was not assessed).';
}

/**
 * A first draft of the interpretation from the top selected variants and the diseases of their
 * genes; the user edits it before generating the report. Findings whose gene's best-ranked disease
 * explains some of the patient's terms (primary findings) come first, by class (the reviewer's
 * when set), then the others, which are said not to be known to explain the presentation.
 * `phenotyped` false (the case has no phenotype terms): the fit is not assessed.
 */
export function draftInterpretation(variants: RunVariantRow[], diseases: RunPhenotypeRow[], limit = 3, reviews?: ReportReviews, phenotyped = true): string {
  if (variants.length === 0) {
    return 'No variant was selected for reporting. No pathogenic or likely pathogenic variant explaining the clinical features was identified with the analysis described below.';
  }
  const fits = (v: RunVariantRow) => phenotyped && explainsPhenotype(geneDisease(v, diseases));
  const ordered = [...variants].sort(byReportOrder(diseases, reviews, phenotyped)).slice(0, limit);
  const paragraphs = ordered.map((v) => {
    const c = fullHgvsC(v);
    const p = shortHgvsP(v);
    const gene = v.gene ?? 'an intergenic region';
    const allele = c ? `${c}${p ? ` ${p}` : ''}` : `${ucscChrom(v.chrom)}:${v.pos} ${v.ref}>${v.alt}`;
    const criteria = criteriaCodes(v.acmgCriteria);
    const review = reviewOf(reviews, v);
    const zygosity = zygosityPhrase(v);
    let text = `A ${zygosity.adjective} ${formatConsequence(v.consequence)} ${allele}${zygosity.note} was identified in ${gene}. It is classified as ${v.acmgClass}${criteria.length ? ` (${criteria.join(', ')})` : ''} according to the automated ACMG/AMP criteria.`;
    const outcome = expectedCodonOutcome(v);
    if (outcome) text += ` Expected codon outcome: ${outcome}.`;
    if (v.clinvarSignificance) text += ` ClinVar: ${formatClinvar(v)}.`;
    if (review) text += ` The reviewer classified it as ${review.classification}: ${asSentence(review.reason)}`;
    const disease = geneDisease(v, diseases);
    const fit = fits(v);
    if (disease) {
      const moi = disease.inheritance.map((i) => i.label.toLowerCase()).join(' or ');
      const matched = fit ? matchedPhenotypes(disease).map((t) => t.label) : [];
      text += ` ${v.gene} is associated with ${disease.name}${moi ? ` (${moi})` : ''}`;
      text += matched.length ? `, whose features overlap the patient's: ${matched.slice(0, 6).join(', ')}.` : '.';
    }
    const cls = effectiveClass(v, reviews);
    if (fit) text += isCausalClass(cls) ? ' This finding is consistent with the clinical presentation.' : ` The associated disease is consistent with the clinical presentation, but the variant is classified as ${cls}.`;
    else if (phenotyped) text += ' This finding is not known to explain the clinical presentation.';
    return text;
  });
  const hasCausal = ordered.some((v) => isCausalClass(effectiveClass(v, reviews)));
  const causalFits = ordered.some((v) => fits(v) && isCausalClass(effectiveClass(v, reviews)));
  const fitNote = !phenotyped
    ? 'No phenotype terms were given: the fit of the findings to the clinical presentation was not assessed. '
    : hasCausal && !causalFits
      ? 'No pathogenic or likely pathogenic variant known to explain the clinical presentation was identified. '
      : '';
  paragraphs.push(
    fitNote +
      (hasCausal
        ? 'Confirmation of the variant(s) by an orthogonal method and segregation analysis in the parents are recommended; genetic counselling should be offered to the family.'
        : 'The clinical significance of the reported variant(s) is uncertain; they should not be used alone for clinical decision making. Segregation analysis and re-evaluation as evidence accumulates are recommended.'),
  );
  return paragraphs.join('\n\n');
}
