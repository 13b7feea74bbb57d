/**
 * Pathogenicity score in [0, 1] for ranking variants. Documented and monotone in each input:
 *
 *   severity  s in [0,1] from the most severe consequence (table below). An unresolved coding
 *             SNV (`coding_sequence_variant`: codon not known without the reference sequence)
 *             counts the expected severity of its possible outcomes, each weighted by its
 *             probability over the consistent codons (`codingOutcome`); 0.5 when none is given
 *   rarity    r = 1 for AF unknown or <= 1e-5, 0 for AF >= 5%, log-linear in between
 *   acmg      a = Bayesian posterior from the points (Tavtigian 2018: prior 0.1, OddsPath of
 *             Very strong 350, i.e. odds = prior_odds * 350^(points/8))
 *   base      = 0.5 * s * r + 0.5 * a
 *   ClinVar   exact-allele P/LP: score = base + (1 - base) * w;  B/LB: score = base * (1 - w)
 *             with w = 0.5 + 0.1 * stars (0..4 stars -> 0.5..0.9); VUS/conflicting: no change.
 *
 * Raising severity, lowering AF, adding pathogenic points or ClinVar pathogenic stars never
 * lowers the score; benign evidence never raises it.
 */
import { classifySignificance } from '../clinvar/clinvar.ts';

export const CONSEQUENCE_SEVERITY: Readonly<Record<string, number>> = {
  transcript_ablation: 1,
  transcript_amplification: 0.6,
  feature_truncation: 0.8,
  feature_elongation: 0.5,
  frameshift_variant: 0.95,
  stop_gained: 0.95,
  splice_donor_variant: 0.9,
  splice_acceptor_variant: 0.9,
  start_lost: 0.85,
  stop_lost: 0.8,
  missense_variant: 0.6,
  inframe_deletion: 0.55,
  inframe_insertion: 0.55,
  protein_altering_variant: 0.55,
  coding_sequence_variant: 0.5,
  structural_variant: 0.5,
  splice_region_variant: 0.35,
  splice_donor_5th_base_variant: 0.35,
  incomplete_terminal_codon_variant: 0.2,
  stop_retained_variant: 0.1,
  start_retained_variant: 0.1,
  synonymous_variant: 0.1,
  '5_prime_UTR_variant': 0.1,
  '3_prime_UTR_variant': 0.08,
  non_coding_transcript_exon_variant: 0.08,
  intron_variant: 0.05,
  non_coding_transcript_variant: 0.04,
  upstream_gene_variant: 0.03,
  downstream_gene_variant: 0.02,
  gene_variant: 0.05,
  intergenic_variant: 0.01,
};

export interface ScoreInput {
  consequences: string[];
  af: number | null;
  acmgPoints: number;
  /** ClinVar exact-allele assertion, when any (same-codon hits are not used here). */
  clinvar: { significance: string; stars: number } | null;
  /** For a `coding_sequence_variant` whose codon is not known: each possible outcome's probability. */
  codingOutcome?: readonly { term: string; p: number }[] | null;
}

/** Expected severity of an unresolved codon change: sum over its possible outcomes of P(outcome) x severity. */
export function expectedCodingSeverity(outcomes: readonly { term: string; p: number }[]): number {
  let s = 0;
  let total = 0;
  for (const o of outcomes) {
    s += o.p * (SEVERITY.get(o.term) ?? 0.02);
    total += o.p;
  }
  return total > 0 ? s / total : SEVERITY.get('coding_sequence_variant')!;
}

/**
 * Severity of the most severe term (0.02 for unknown terms); `codingSeverity`, when given, replaces
 * the table's value for `coding_sequence_variant` (see expectedCodingSeverity).
 */
export function consequenceSeverity(terms: readonly string[], codingSeverity: number | null = null): number {
  let s = 0;
  // Indexed loop: the lists are a mix of frozen shared arrays and fresh ones (for-of goes megamorphic).
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    s = Math.max(s, codingSeverity != null && t === 'coding_sequence_variant' ? codingSeverity : (SEVERITY.get(t) ?? 0.02));
  }
  return s;
}

/** The table as a Map: keys such as '5_prime_UTR_variant' make a slow dictionary-mode object lookup. */
const SEVERITY = new Map<string, number>(Object.entries(CONSEQUENCE_SEVERITY));

/** Rarity factor: 1 at AF <= 1e-5 (or unknown), 0 at AF >= 0.05. */
export function rarity(af: number | null): number {
  if (af == null || af <= 1e-5) return 1;
  if (af >= 0.05) return 0;
  return 1 - Math.log10(af / 1e-5) / Math.log10(0.05 / 1e-5);
}

/** Posterior probability of pathogenicity from ACMG points (Tavtigian 2018 calibration). */
export function acmgPosterior(points: number): number {
  // Points are small integers: memoise (same arithmetic, computed once per value).
  if (Number.isInteger(points) && points >= -64 && points <= 64) {
    const k = points + 64;
    let x = POSTERIOR[k];
    if (x === undefined) {
      x = posterior(points);
      POSTERIOR[k] = x;
    }
    return x;
  }
  return posterior(points);
}

const POSTERIOR: (number | undefined)[] = new Array<number | undefined>(129);

function posterior(points: number): number {
  const priorOdds = 0.1 / 0.9;
  const odds = priorOdds * Math.pow(350, points / 8);
  return odds / (1 + odds);
}

export function pathogenicityScore(x: ScoreInput): number {
  const coding = x.codingOutcome?.length ? expectedCodingSeverity(x.codingOutcome) : null;
  const base = 0.5 * consequenceSeverity(x.consequences, coding) * rarity(x.af) + 0.5 * acmgPosterior(x.acmgPoints);
  let score = base;
  if (x.clinvar) {
    const cls = classifySignificance(x.clinvar.significance);
    const w = 0.5 + 0.1 * Math.max(0, Math.min(4, x.clinvar.stars));
    if (cls === 'P' || cls === 'LP') score = base + (1 - base) * w;
    else if (cls === 'B' || cls === 'LB') score = base * (1 - w);
  }
  return Math.min(1, Math.max(0, score));
}
