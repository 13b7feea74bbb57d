/**
 * How the ranking's numbers are written and explained, the same on every screen (phenotypes,
 * genes, gene page) and in the PDF report.
 */

/** A probability in [0, 1] as a percentage with sensible precision ("42%", "0.3%", "<0.1%"). */
export function formatProbability(p: number): string {
  const pct = p * 100;
  if (pct === 0) return '0%';
  if (pct < 0.1) return '<0.1%';
  if (pct < 10) return `${pct.toFixed(1)}%`;
  return `${Math.round(pct)}%`;
}

/** A gene's ranking score: log10, two decimals ("3.46", "-0.80"). */
export function formatGeneScore(score: number): string {
  return score.toFixed(2);
}

/** What the probability columns mean (phenotypes and genes screens, gene page, report). */
export const PROBABILITY_HELP = {
  disease:
    'Post-test probability that this is the patient’s disease, given the symptoms (phenotype likelihood ratios) and the variants found. Calibrated on solved cases: of the cases whose first disease shows about 40 %, about 40 % had that diagnosis. The probabilities add up to less than 100 %: the rest is the chance that the diagnosis is none of the listed diseases.',
  gene: 'Post-test probability that this gene is the cause, from its variants, the inheritance fit and how well its diseases match the symptoms. Calibrated on solved cases: of the cases whose first gene shows about 40 %, about 40 % had that gene. The rest of 100 % is the chance that the cause is none of the listed genes.',
} as const;

/** What a gene's score is and how to read it (genes screen, gene page, report). */
export const GENE_SCORE_HELP =
  'Ranking score (log10): the sum of the phenotype, genotype and constraint parts listed under “Why this rank”. Genes are ordered by it; each point more is ten times more evidence. It compares the genes of this case only and is not a probability: the Probability beside it is the calibrated chance that the gene is the cause.';
