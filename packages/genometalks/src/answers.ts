/**
 * The built-in answers: each reads the case's stored results and the knowledge base and writes
 * only what they say, citing every gene, disease, variant, HPO term, ClinVar record and ACMG
 * criterion it names.
 */
import { INHERITANCE_FILTER_LABELS, Messages, type TermRef } from '@rarelens/contract';
import { describeCodingOutcome } from '@rarelens/engine';
import { AnswerBuilder, variantName } from './citations.ts';
import type { CaseContext, CaseDisease, CaseGene, CaseVariant, ChatAnswer, Intent } from './context.ts';
import {
  bestDiseaseOf,
  explanationLine,
  rankedDisease,
  formatFrequency,
  formatLr,
  kbDisease,
  missingFeatures,
  nameBreakdown,
  termBreakdown,
  variantsOfGene,
} from './evidence.ts';
import type { ChatKnowledge } from './knowledge.ts';
import type { Mentions } from './resolve.ts';

export interface AnswerInput {
  question: string;
  ctx: CaseContext;
  knowledge: ChatKnowledge;
  mentions: Mentions;
}

const NO_ANSWER = "I can't answer that from this case.";

function done(b: AnswerBuilder, intent: Intent): ChatAnswer {
  return { text: b.text(), citations: b.citations, intent };
}

const pct = (p: number) => (p >= 0.995 ? '>99 %' : p < 0.005 ? '<1 %' : `${Math.round(p * 100)} %`);

/** "#1 of 57" */
const rankOf = (rank: number | null, total: number) => (rank == null ? 'not ranked' : `#${rank} of ${total}`);

/** The automatic ACMG class with its criteria, and the reviewer's class when one was set. */
function describeAcmg(b: AnswerBuilder, v: CaseVariant, withReasons: boolean): string {
  const codes = v.acmgCriteria.map((c) => c.code);
  for (const c of codes) b.acmg(v, c);
  const review = v.reviewerClassification;
  if (!withReasons) return `ACMG ${v.acmg}${codes.length ? ` (${codes.join(', ')})` : ''}${review ? `, reviewer ${review.classification}` : ''}`;
  const automatic = `ACMG/AMP: ${v.acmg} (${v.acmgPoints} points${codes.length ? `; ${codes.join(', ')}` : '; no criterion met'})`;
  if (!review) return automatic;
  const who = review.reviewer.name ?? review.reviewer.email;
  return `${automatic}; classified ${review.classification} by the reviewer ${who} (${review.updatedAt.slice(0, 10)}): ${review.reason.trim().replace(/[.\s]+$/, '')}`;
}

function describeClinvar(b: AnswerBuilder, v: CaseVariant): string {
  const r = v.clinvarRecord;
  if (!r) return 'no ClinVar record for this allele';
  b.clinvar(v);
  const where = r.match === 'exact' ? '' : ` (a pathogenic change at the ${r.match.replace(/_/g, ' ')}, not this exact allele)`;
  // The allele's own assertion as the variant screens show it: review stars and the release.
  const a = r.match === 'exact' ? v.clinvarAssertion : null;
  const review = a ? `, ${a.stars} of 4 stars${a.reviewStatus ? ` (${a.reviewStatus})` : ''}${a.release ? `, release ${a.release}` : ''}` : r.stars ? `, ${r.stars}★` : '';
  return `ClinVar ${r.significance.replace(/_/g, ' ')}${review}${r.id ? ` (${r.id})` : ''}${where}`;
}

function describeFrequency(v: CaseVariant): string {
  if (v.af == null) return 'no population frequency known';
  return `population AF ${v.af === 0 ? '0 (absent)' : v.af.toPrecision(2)}${v.afSource ? ` (${v.afSource})` : ''}`;
}

/** One-line summary of a variant, citing it, its ClinVar record and ACMG criteria. */
function variantSummary(b: AnswerBuilder, v: CaseVariant): string {
  b.variant(v);
  return `${variantName(v)}: ${v.zygosity}, ${v.consequence?.replace(/_/g, ' ') ?? 'unknown consequence'}; ${describeClinvar(b, v)}; ${describeAcmg(b, v, false)}; ${describeFrequency(v)}`;
}

type TermLine = { term: string; label: string; lr: number; kind?: string; diseaseTermLabel?: string | null; frequency?: number | null; frequencyText?: string | null };

/**
 * "Broad thumb (LR 99.0, 55 % of patients)". A term met through another disease feature names
 * that feature, whose frequency it is ("Broad hallux (LR 0.49; related to Toe syndactyly, 90 %
 * of patients)"), as the disease details do: the frequency is not the patient term's own.
 */
function termsLine(b: AnswerBuilder, terms: TermLine[], withFrequency: boolean): string {
  return terms
    .map((t) => {
      b.term({ id: t.term, label: t.label });
      const f = withFrequency && t.frequency != null ? formatFrequency(t.frequency, t.frequencyText ?? null) : null;
      const via = t.diseaseTermLabel && t.diseaseTermLabel !== t.label ? t.diseaseTermLabel : null;
      if (withFrequency && via && (t.kind === 'implied' || t.kind === 'partial')) {
        return `${t.label} (LR ${formatLr(t.lr)}; ${t.kind === 'implied' ? 'implied by' : 'related to'} ${via}${f ? `, ${f}` : ''})`;
      }
      return `${t.label} (LR ${formatLr(t.lr)}${f ? `, ${f}` : ''})`;
    })
    .join('; ');
}

/** Why a gene is where it is: phenotype match term by term, inheritance fit, constraint, variants. */
function explainGene(b: AnswerBuilder, input: AnswerInput, gene: CaseGene): void {
  const { ctx, knowledge } = input;
  b.gene(gene);
  const best = bestDiseaseOf(ctx, gene);
  const source = gene.phenotypeSource;
  b.line(`${gene.symbol}${gene.name ? ` (${gene.name})` : ''} is ranked ${rankOf(gene.rank, ctx.genes.length)} genes of this case (score ${gene.score.toFixed(2)}, log10 scale).`);
  if (ctx.product.hpoTerms.length === 0) {
    // Never a phenotype "match" of 10^0.0 as if it were evidence: the case has no terms.
    b.item(`Phenotype: none. ${Messages.noHpoTerms} Add the patient's findings in the Diagnose module to rank the diseases on them.`);
  } else if (best) {
    if (best.ranked) b.disease(best.ranked);
    b.item(`Phenotype: its best-matching disease is ${best.name} (${best.id})${best.ranked ? `, ranked #${best.ranked.rank} of the diseases` : ''}: phenotype likelihood ratio 10^${best.log10Lr.toFixed(1)}.`);
    if (source?.source === 'allelic') b.item(`Possibly allelic disease: the case's genotype does not fit the stated inheritance of ${best.name}, so ${gene.symbol} is ranked on its phenotype as a related disease of the same gene with unknown inheritance.`);
    const breakdown = termBreakdown(ctx, knowledge, best.scoredId);
    if (breakdown) {
      const matched = breakdown.matched.filter((t) => t.kind === 'exact' || t.kind === 'implied' || t.kind === 'partial').sort((x, y) => y.lr - x.lr);
      const against = breakdown.matched.filter((t) => t.kind === 'unmatched' || t.kind === 'contradicted').sort((x, y) => x.lr - y.lr);
      if (matched.length) b.item(`Matched terms (likelihood ratio each contributes): ${termsLine(b, matched, true)}.`);
      if (against.length) b.item(`Not explained by ${best.name}: ${termsLine(b, against, false)}.`);
      const absent = breakdown.excluded.filter((e) => e.diseaseFrequency >= 0.2);
      if (absent.length) b.item(`Recorded as absent although the disease often shows it: ${termsLine(b, absent.map((e) => ({ term: e.term, label: e.label, lr: e.lr })), false)}.`);
    }
  } else if (source?.source === 'series' && source.disease) {
    // A disease known only by its name, ranked on the phenotype of the annotated diseases of its series.
    b.item(
      `Phenotype: ${gene.symbol}'s disease ${source.disease.label} (${source.disease.id}) has no HPO phenotype annotations yet, so it is ranked on the phenotype borrowed from the annotated diseases of its series (likelihood ratio 10^${gene.phenotypeScore.toFixed(1)}), its variants and gene constraint.`,
    );
  } else if (source?.source === 'similar-titles' && source.disease) {
    // A disease known only by its name, in no series, ranked on the phenotype of the annotated diseases with the most similar titles.
    b.item(
      `Phenotype: ${gene.symbol}'s disease ${source.disease.label} (${source.disease.id}) has no HPO phenotype annotations yet and belongs to no series, so it is ranked on a phenotype inferred from the annotated diseases with the most similar names (likelihood ratio 10^${gene.phenotypeScore.toFixed(1)}), its variants and gene constraint.`,
    );
  } else if (source?.source === 'disease-name' && source.disease) {
    // A disease known only by its name: which one, and what its name states and matches.
    const name = nameBreakdown(ctx, knowledge, source.disease.id);
    const matched = name?.matched.map((m) => m.label) ?? [];
    const states = name?.named.length ? `the features its name states (${name.named.join(', ')}; likelihood ratio 10^${gene.phenotypeScore.toFixed(1)}${matched.length ? `, matching ${matched.join(', ')}` : ', none matching the patient'}), ` : '';
    b.item(`Phenotype: ${gene.symbol}'s disease ${source.disease.label} (${source.disease.id}) has no HPO phenotype annotations yet, so it is ranked on ${states}its variants and gene constraint.`);
  } else if (source === null) {
    b.item(`Phenotype: phenotype likelihood ratio 10^${gene.phenotypeScore.toFixed(1)}; this analysis was ranked before the source of a gene's phenotype evidence was stored, so re-analyse the case to see which disease it rests on.`);
  } else if (gene.diseases.length > 0) {
    // The engine ranked it as a possible new disease of the gene: its known diseases fit less well.
    const known = gene.diseases.slice(0, 3).map((d) => {
      const ranked = rankedDisease(ctx, d.id);
      if (ranked) b.disease(ranked);
      return `${ranked?.name ?? d.label} (${ranked?.id ?? d.id})`;
    });
    const more = gene.diseases.length > 3 ? ` and ${gene.diseases.length - 3} more` : '';
    b.item(`Phenotype: none of ${gene.symbol}'s known diseases (${known.join('; ')}${more}) fits the case better than a possible new disease of the gene, so it is ranked on its variants and gene constraint (inheritance unknown).`);
  } else {
    b.item(`Phenotype: ${gene.symbol} has no disease annotated in the knowledge base, so it is ranked on its variants and gene constraint alone.`);
  }
  const inheritance = explanationLine(gene, 'Inheritance:');
  if (inheritance) b.item(`Inheritance: ${inheritance}.`);
  const constraint = explanationLine(gene, 'Gene constraint:');
  if (constraint) b.item(`Gene constraint: ${constraint}.`);
  const variants = variantsOfGene(ctx, gene.symbol);
  for (const v of variants.slice(0, 3)) b.item(`Variant (#${v.rank ?? '–'} of the ranked variants): ${variantSummary(b, v)}.`);
  if (variants.length > 3) b.item(`${variants.length - 3} further ranked variant${variants.length - 3 === 1 ? '' : 's'} in ${gene.symbol}.`);
}

function neighbours(b: AnswerBuilder, ctx: CaseContext, gene: CaseGene): void {
  const above = ctx.genes.find((g) => g.rank === gene.rank - 1);
  const below = ctx.genes.find((g) => g.rank === gene.rank + 1);
  if (above) {
    b.gene(above);
    b.item(`Ranked above it: ${above.symbol} (#${above.rank}, score ${above.score.toFixed(2)}; phenotype 10^${above.phenotypeScore.toFixed(1)}, genotype fit ${above.variantScore.toFixed(2)}).`);
  }
  if (below) {
    b.gene(below);
    b.item(`Next below: ${below.symbol} (#${below.rank}, score ${below.score.toFixed(2)}; phenotype 10^${below.phenotypeScore.toFixed(1)}, genotype fit ${below.variantScore.toFixed(2)}).`);
  }
}

export function answerTopCandidate(input: AnswerInput): ChatAnswer {
  const { ctx } = input;
  const b = new AnswerBuilder(ctx.product.id);
  const top = ctx.genes[0];
  if (!top) return noResults(b);
  b.line(`The most likely candidate is ${top.symbol}.`);
  explainGene(b, input, top);
  const topVariant = variantsOfGene(ctx, top.symbol)[0];
  if (topVariant) b.line(`The top variant is ${variantName(topVariant)}.`);
  const second = ctx.genes[1];
  if (second) {
    b.gene(second);
    b.line(`Runner-up: ${second.symbol} (score ${second.score.toFixed(2)}, ${(top.score - second.score).toFixed(2)} lower on the log10 scale).`);
  }
  return done(b, 'top-candidate');
}

function noResults(b: AnswerBuilder): ChatAnswer {
  b.line(`${NO_ANSWER} The analysis ranked no gene: no rare, non-benign variant in a gene passed the filters.`);
  return done(b, 'limitations');
}

function pickGene(input: AnswerInput): CaseGene | null {
  const { mentions, ctx } = input;
  const named = mentions.genes.find((g) => g.gene)?.gene;
  if (named) return named;
  const pos = mentions.positions.find((p) => p.list === 'gene' || p.list === null);
  if (pos) return ctx.genes.find((g) => g.rank === pos.rank) ?? null;
  return null;
}

export function answerGene(input: AnswerInput): ChatAnswer {
  const { ctx, mentions } = input;
  const b = new AnswerBuilder(ctx.product.id);
  const gene = pickGene(input);
  if (!gene) {
    const missing = mentions.genes.find((g) => !g.gene);
    if (missing) {
      b.line(`${missing.symbol} is not among the ranked genes of this case: no variant of the case in ${missing.symbol} passed the candidate filters (rare, not benign, FILTER PASS), so the ranking did not consider it.`);
      b.line('Open the variant list in Non-clustered mode to see every variant of the case, filtered ones included.');
      return done(b, 'gene');
    }
    const pos = mentions.positions[0];
    b.line(`${NO_ANSWER} The case has ${ctx.genes.length} ranked gene${ctx.genes.length === 1 ? '' : 's'}${pos ? `, none at rank ${pos.rank}` : ''}.`);
    return done(b, 'gene');
  }
  explainGene(b, input, gene);
  neighbours(b, ctx, gene);
  return done(b, 'gene');
}

function pickVariants(input: AnswerInput): CaseVariant[] {
  const { mentions, ctx } = input;
  const named = mentions.variants.flatMap((m) => m.variants);
  if (named.length) return [...new Map(named.map((v) => [v.id, v])).values()];
  // A variant named but not found is reported as such, never swapped for another one.
  if (mentions.variants.length) return [];
  const pos = mentions.positions.find((p) => p.list === 'variant');
  if (pos) {
    const v = ctx.variants.find((x) => x.rank === pos.rank);
    return v ? [v] : [];
  }
  const gene = mentions.genes.find((g) => g.gene)?.gene ?? (mentions.genes.length === 0 ? ctx.genes[0] : undefined);
  if (gene) return variantsOfGene(ctx, gene.symbol).slice(0, 1);
  return [];
}

export function answerVariant(input: AnswerInput): ChatAnswer {
  const { ctx, mentions } = input;
  const b = new AnswerBuilder(ctx.product.id);
  const variants = pickVariants(input);
  if (variants.length === 0) {
    const asked = mentions.variants.map((m) => m.text).join(', ');
    const gene = mentions.genes[0];
    if (asked) b.line(`${asked} is not among the ranked candidate variants of this case${gene ? ` in ${gene.symbol}` : ''}. The case may carry it as a filtered (common, benign or non-PASS) variant: search the variant list in Non-clustered mode.`);
    else if (gene && !gene.gene) b.line(`${gene.symbol} has no ranked candidate variant in this case.`);
    else b.line(`${NO_ANSWER} I could not tell which variant you mean: name it by HGVS (c. or p.), by position (chr:pos ref>alt), by gene or by rank ("the top variant").`);
    return done(b, 'variant');
  }
  for (const v of variants.slice(0, 2)) {
    b.variant(v);
    const c = v.hgvsC ?? `${v.chrom}:${v.pos} ${v.ref}>${v.alt}`;
    b.line(`${variantName(v)} (${v.chrom}:${v.pos} ${v.ref}>${v.alt} on GRCh38; input line ${v.input.line}) is ranked ${rankOf(v.rank, ctx.totals.candidates)} candidate variants.`);
    if (v.gene) {
      const g = ctx.genes.find((x) => x.symbol === v.gene);
      if (g) b.gene(g);
      b.item(`Gene ${v.gene}${g ? ` (gene rank #${g.rank})` : ''}; transcript ${v.transcript ?? 'unknown'}${v.isManeSelect ? ' (MANE Select)' : ''}; HGVS ${c}${v.hgvsP ? ` ${v.hgvsP}` : ''}.`);
    }
    b.item(`Consequence: ${v.consequences.map((x) => x.replace(/_/g, ' ')).join(', ') || 'unknown'} (${v.impact} impact).`);
    if (v.codingOutcome.length > 0) b.item(`Expected codon outcome: ${describeCodingOutcome(v.codingOutcome)}.`);
    const depth = v.genotype.depth != null ? `, depth ${v.genotype.depth}` : '';
    const ad = v.genotype.alleleDepths ? `, allele depths ${v.genotype.alleleDepths.join('/')}` : '';
    b.item(`Genotype: ${v.zygosity} (GT ${v.genotype.gt}${depth}${ad}).`);
    b.item(`Population frequency: ${describeFrequency(v)}.`);
    b.item(`${describeClinvar(b, v)}${v.clinvarRecord?.conditions.length ? `; conditions: ${v.clinvarRecord.conditions.slice(0, 4).join('; ')}` : ''}.`);
    b.item(`${describeAcmg(b, v, true)}.`);
    for (const k of v.acmgCriteria) b.item(`${k.code} (${k.strength}, ${k.points > 0 ? '+' : ''}${k.points}): ${k.reason}`);
    for (const n of v.acmgNotAssessed) b.item(`${n.code} not assessed: ${n.reason}`);
    if (v.geneConstraint) {
      const c2 = v.geneConstraint;
      const bits = [c2.pLI != null ? `pLI ${c2.pLI.toFixed(2)}` : null, c2.loeuf != null ? `LOEUF ${c2.loeuf.toFixed(2)}` : null, c2.misZ != null ? `missense Z ${c2.misZ.toFixed(2)}` : null].filter(Boolean);
      if (bits.length) b.item(`Gene constraint (${c2.source}): ${bits.join(', ')}.`);
    }
  }
  return done(b, 'variant');
}

/** Ranked diseases that explain a term (the patient's own match, or an annotation at or below it). */
export function answerSymptom(input: AnswerInput): ChatAnswer {
  const { ctx, knowledge, mentions } = input;
  const b = new AnswerBuilder(ctx.product.id);
  const ontology = knowledge.hpo.ontology;
  const patient = new Set(ctx.product.hpoTerms.map((t) => t.id));
  for (const term of mentions.terms.slice(0, 3)) {
    const isPatientTerm = patient.has(term.id);
    const hits: { d: CaseDisease; how: string }[] = [];
    for (const d of ctx.diseases) {
      if (isPatientTerm) {
        const m = d.matchedTerms.find((x) => x.id === term.id);
        if (m && (m.match === 'exact' || m.match === 'implied' || m.match === 'partial')) {
          hits.push({ d, how: m.match === 'exact' ? 'annotated feature' : m.match === 'implied' ? `implied by ${m.diseaseTermLabel ?? 'a disease feature'}` : `related feature ${m.diseaseTermLabel ?? ''}`.trim() });
          continue;
        }
        if (m) continue;
      }
      const kd = kbDisease(knowledge, d.id, d);
      const a = kd?.annotations.find((x) => x.term === term.id) ?? kd?.annotations.find((x) => ontology.isA(x.term, term.id));
      if (a) hits.push({ d, how: a.term === term.id ? `annotated feature, ${formatFrequency(a.frequency, a.frequencyText)}` : `annotated with ${ontology.label(a.term) ?? a.term}` });
    }
    b.term(term);
    if (hits.length === 0) {
      b.line(`None of the ${ctx.diseases.length} ranked diseases of this case lists ${term.label} (${term.id}) as a feature${isPatientTerm ? ' among those explained' : ''}.`);
      continue;
    }
    b.line(`${term.label} (${term.id})${isPatientTerm ? ' is one of the patient’s terms;' : ' is not among the patient’s terms;'} ${hits.length} of the ranked diseases explain it. The best ranked:`);
    for (const { d, how } of hits.slice(0, 5)) {
      b.disease(d);
      const genes = d.genes.slice(0, 3).map((s) => {
        const g = ctx.genes.find((x) => x.symbol === s);
        if (g) b.gene(g);
        return g ? `${s} (gene #${g.rank})` : s;
      });
      b.item(`#${d.rank} ${d.name} (${d.id}), probability ${pct(d.probability)}: ${how}${genes.length ? `; genes ${genes.join(', ')}` : ''}.`);
    }
  }
  if (b.lines.length === 0) b.line(`${NO_ANSWER} I did not recognise a symptom in the question.`);
  return done(b, 'symptom');
}

interface PickedDisease {
  id: string;
  name: string;
  ranked: CaseDisease | null;
  /** The gene whose best disease it is, when picked through a gene. */
  via: string | null;
  /** The KB entry to read features from (the member a gene was scored on), when known. */
  kbId?: string;
}

function pickDisease(input: AnswerInput): PickedDisease | null {
  const { mentions, ctx } = input;
  const named = mentions.diseases[0];
  if (named) return { id: named.id, name: named.name, ranked: named.disease, via: null };
  const pos = mentions.positions.find((p) => p.list === 'disease');
  if (pos) {
    const d = ctx.diseases.find((x) => x.rank === pos.rank);
    return d ? { id: d.id, name: d.name, ranked: d, via: null } : null;
  }
  const gene = pickGene(input) ?? (mentions.genes.length === 0 ? ctx.genes[0] : undefined);
  if (gene) {
    const best = bestDiseaseOf(ctx, gene);
    if (best) return { id: best.id, name: best.name, ranked: best.ranked, via: gene.symbol, kbId: best.scoredId };
  }
  const top = ctx.diseases[0];
  return top ? { id: top.id, name: top.name, ranked: top, via: null } : null;
}

export function answerDisease(input: AnswerInput): ChatAnswer {
  const { ctx, knowledge } = input;
  const b = new AnswerBuilder(ctx.product.id);
  const pick = pickDisease(input);
  if (!pick) return done(b.line(`${NO_ANSWER} The case has no ranked disease.`), 'disease');
  const kd = kbDisease(knowledge, pick.kbId ?? pick.id, pick.ranked);
  if (pick.ranked) {
    const d = pick.ranked;
    b.disease(d);
    b.line(`${d.name} (${d.id}) is ranked #${d.rank} of ${ctx.diseases.length} diseases, post-test probability ${pct(d.probability)}${d.significance ? `; best ACMG class of the case's variants in its genes: ${d.significance}` : ''}.`);
    if (d.inheritance.length) b.item(`Inheritance: ${d.inheritance.map((t) => t.label).join(', ')}.`);
    if (d.onset.length) b.item(`Onset: ${d.onset.map((t) => t.label).join(', ')}.`);
  } else {
    b.line(`${pick.name} (${pick.id}) is not among the ${ctx.diseases.length} ranked diseases of this case${kd ? '' : ' and not in the knowledge base'}.`);
    if (kd?.inheritance.length) b.item(`Inheritance (knowledge base): ${kd.inheritance.map((t) => knowledge.hpo.ontology.label(t) ?? t).join(', ')}.`);
  }
  const genes = pick.ranked?.genes ?? kd?.genes ?? [];
  if (genes.length) {
    const described = genes.slice(0, 6).map((s) => {
      const g = ctx.genes.find((x) => x.symbol === s);
      if (g) b.gene(g);
      return g ? `${s} (gene #${g.rank}, ${g.variantCount} variant${g.variantCount === 1 ? '' : 's'})` : `${s} (no ranked variant in this case)`;
    });
    b.item(`Genes: ${described.join(', ')}.`);
  }
  const breakdown = termBreakdown(ctx, knowledge, kd?.id ?? pick.id);
  if (breakdown && pick.ranked) {
    const matched = breakdown.matched.filter((t) => t.kind !== 'unmatched' && t.kind !== 'contradicted').sort((x, y) => y.lr - x.lr);
    const against = breakdown.matched.filter((t) => t.kind === 'unmatched' || t.kind === 'contradicted');
    if (matched.length) b.item(`Patient terms it explains: ${termsLine(b, matched, true)}.`);
    if (against.length) b.item(`Patient terms it does not explain: ${termsLine(b, against, false)}.`);
  }
  return done(b, 'disease');
}

export function answerExamineNext(input: AnswerInput): ChatAnswer {
  const { ctx, knowledge } = input;
  const b = new AnswerBuilder(ctx.product.id);
  const pick = pickDisease(input);
  if (!pick) return done(b.line(`${NO_ANSWER} The case has no ranked disease to compare the patient with.`), 'examine-next');
  const kd = kbDisease(knowledge, pick.kbId ?? pick.id, pick.ranked);
  if (pick.ranked) b.disease(pick.ranked);
  const intro = pick.via ? `For ${pick.name} (${pick.id}), the best-matching disease of ${pick.via}` : `For ${pick.name} (${pick.id})`;
  b.line(`${intro}${pick.ranked ? ` (disease #${pick.ranked.rank})` : ''}:`);
  if (pick.via) {
    const g = ctx.genes.find((x) => x.symbol === pick.via);
    if (g) b.gene(g);
  }
  const breakdown = termBreakdown(ctx, knowledge, kd?.id ?? pick.id);
  if (breakdown) {
    const against = breakdown.matched.filter((t) => t.kind === 'unmatched' || t.kind === 'contradicted');
    if (against.length) b.item(`Patient terms it does not explain: ${termsLine(b, against, false)}.`);
    else b.item('It explains every one of the patient’s terms.');
    const absent = breakdown.excluded.filter((e) => e.diseaseFrequency >= 0.2);
    if (absent.length) b.item(`Recorded as absent although common in the disease (argues against it): ${termsLine(b, absent.map((e) => ({ term: e.term, label: e.label, lr: e.lr })), false)}.`);
  }
  const missing = kd ? missingFeatures(ctx, knowledge, kd) : [];
  if (missing.length) {
    b.line('Typical features not recorded for the patient (neither present nor excluded) — examine or ask for these next:');
    for (const f of missing) {
      b.term({ id: f.id, label: f.label });
      b.item(`${f.label} (${f.id}): ${formatFrequency(f.frequency, f.frequencyText)}.`);
    }
    b.line('Recording them as present or absent in the Diagnose module re-ranks the case.');
  } else {
    b.line(kd ? 'Every annotated feature of the disease is already recorded as present or absent for the patient.' : 'The knowledge base has no feature annotations for this disease.');
  }
  return done(b, 'examine-next');
}

type Side =
  | { kind: 'gene'; gene: CaseGene }
  | { kind: 'disease'; disease: CaseDisease }
  | { kind: 'variant'; variant: CaseVariant };

function sidesOf(input: AnswerInput): Side[] {
  const { mentions, ctx } = input;
  const variants = mentions.variants.flatMap((m) => m.variants.slice(0, 1));
  if (variants.length >= 2) return variants.map((variant) => ({ kind: 'variant', variant }));
  const sides: Side[] = [];
  for (const g of mentions.genes) if (g.gene) sides.push({ kind: 'gene', gene: g.gene });
  for (const p of mentions.positions) {
    if (p.list === 'disease') {
      const d = ctx.diseases.find((x) => x.rank === p.rank);
      if (d) sides.push({ kind: 'disease', disease: d });
    } else if (p.list === 'variant') {
      const v = ctx.variants.find((x) => x.rank === p.rank);
      if (v) sides.push({ kind: 'variant', variant: v });
    } else {
      const g = ctx.genes.find((x) => x.rank === p.rank);
      if (g && !sides.some((s) => s.kind === 'gene' && s.gene.symbol === g.symbol)) sides.push({ kind: 'gene', gene: g });
    }
  }
  for (const d of mentions.diseases) if (d.disease) sides.push({ kind: 'disease', disease: d.disease });
  return sides;
}

export function answerCompare(input: AnswerInput): ChatAnswer {
  const { ctx, mentions } = input;
  const b = new AnswerBuilder(ctx.product.id);
  const sides = sidesOf(input);
  const genes = sides.flatMap((s) => (s.kind === 'gene' ? [s.gene] : []));
  const diseases = sides.flatMap((s) => (s.kind === 'disease' ? [s.disease] : []));
  const variants = sides.flatMap((s) => (s.kind === 'variant' ? [s.variant] : []));
  if (genes.length >= 2) {
    const [x, y] = [...genes.slice(0, 2)].sort((p, q) => p.rank - q.rank) as [CaseGene, CaseGene];
    b.gene(x).gene(y);
    b.line(`${x.symbol} (#${x.rank}) ranks above ${y.symbol} (#${y.rank}): score ${x.score.toFixed(2)} vs ${y.score.toFixed(2)} (log10 scale).`);
    for (const g of [x, y]) {
      const best = bestDiseaseOf(ctx, g);
      if (best?.ranked) b.disease(best.ranked);
      const v = variantsOfGene(ctx, g.symbol)[0];
      b.item(
        `${g.symbol}: ${best ? `best disease ${best.name} (${best.id}), phenotype 10^${g.phenotypeScore.toFixed(1)}` : 'no annotated disease'}; ${explanationLine(g, 'Inheritance:') ?? `genotype fit ${g.variantScore.toFixed(2)}`}${v ? `; top variant ${variantSummary(b, v)}` : ''}.`,
      );
    }
    const dPheno = x.phenotypeScore - y.phenotypeScore;
    const dFit = x.variantScore - y.variantScore;
    const reasons: string[] = [];
    if (Math.abs(dPheno) >= 0.05) reasons.push(`${dPheno > 0 ? x.symbol : y.symbol}'s disease matches the patient's terms better (phenotype 10^${Math.max(x.phenotypeScore, y.phenotypeScore).toFixed(1)} vs 10^${Math.min(x.phenotypeScore, y.phenotypeScore).toFixed(1)})`);
    if (Math.abs(dFit) >= 0.01) reasons.push(`${dFit > 0 ? x.symbol : y.symbol}'s variants fit the inheritance better (genotype fit ${Math.max(x.variantScore, y.variantScore).toFixed(2)} vs ${Math.min(x.variantScore, y.variantScore).toFixed(2)})`);
    if (reasons.length) b.line(`What separates them: ${reasons.join('; ')}.`);
    return done(b, 'compare');
  }
  if (diseases.length >= 2) {
    const [x, y] = [...diseases.slice(0, 2)].sort((p, q) => p.rank - q.rank) as [CaseDisease, CaseDisease];
    b.disease(x).disease(y);
    b.line(`${x.name} (#${x.rank}, probability ${pct(x.probability)}) ranks above ${y.name} (#${y.rank}, probability ${pct(y.probability)}).`);
    const explained = (d: CaseDisease) => new Set(d.matchedTerms.filter((t) => t.match !== 'unmatched' && t.match !== 'contradicted').map((t) => t.id));
    const ex = explained(x);
    const ey = explained(y);
    for (const d of [x, y]) b.item(`${d.name}: explains ${explained(d).size} of ${ctx.product.hpoTerms.length} patient terms; inheritance ${d.inheritance.map((t) => t.label).join(', ') || 'not stated'}; genes ${d.genes.join(', ') || 'none'}.`);
    const onlyX = ctx.product.hpoTerms.filter((t) => ex.has(t.id) && !ey.has(t.id));
    const onlyY = ctx.product.hpoTerms.filter((t) => ey.has(t.id) && !ex.has(t.id));
    const list = (ts: TermRef[]) => ts.map((t) => (b.term(t), `${t.label} (${t.id})`)).join(', ');
    if (onlyX.length) b.item(`Only ${x.name} explains: ${list(onlyX)}.`);
    if (onlyY.length) b.item(`Only ${y.name} explains: ${list(onlyY)}.`);
    return done(b, 'compare');
  }
  if (variants.length >= 2) {
    const [x, y] = [...variants.slice(0, 2)].sort((p, q) => (p.rank ?? 1e9) - (q.rank ?? 1e9)) as [CaseVariant, CaseVariant];
    b.line(`${variantName(x)} (#${x.rank ?? '–'}) ranks above ${variantName(y)} (#${y.rank ?? '–'}).`);
    for (const v of [x, y]) b.item(`${variantSummary(b, v)}; score ${v.score.toFixed(2)}.`);
    return done(b, 'compare');
  }
  const named = [...mentions.genes.map((g) => g.symbol), ...mentions.diseases.map((d) => d.name)];
  b.line(`${NO_ANSWER} To compare, name two ranked genes, diseases or variants of this case (for example "compare ${ctx.genes[0]?.symbol ?? 'gene A'} and ${ctx.genes[1]?.symbol ?? 'gene B'}").${named.length ? ` I found only: ${named.join(', ')} (a gene without a ranked variant cannot be compared).` : ''}`);
  return done(b, 'compare');
}

/** General Mendelian facts for the family, by the mode the gene's variants fit. */
function familyMeaning(mode: string, zygosity: string[], sex: 'male' | 'female'): string[] {
  const two = zygosity.filter((z) => z === 'heterozygous').length >= 2;
  if (/autosomal dominant/.test(mode))
    return [
      'One altered copy is enough for an autosomal dominant disease. The variant may be de novo or inherited from a parent, who may be mildly affected (variable expressivity, reduced penetrance).',
      'Testing both parents for the variant (segregation) tells which; each child of a carrier has a 50 % chance of inheriting it.',
    ];
  if (/autosomal recessive/.test(mode)) {
    if (zygosity.includes('homozygous'))
      return [
        'Homozygous in a recessive disease: both parents are expected to be heterozygous carriers. Testing them confirms it (and rules out a deletion on the other copy or uniparental disomy).',
        'Each further child of the same parents has a 25 % chance of being affected and 50 % of being a carrier; siblings can be tested for the variant.',
      ];
    if (two)
      return [
        'Two heterozygous variants in a recessive gene: a single person’s VCF cannot tell whether they sit on different copies (in trans, compound heterozygous) or on the same copy (in cis). Testing the parents shows the phase; only in trans explains a recessive disease.',
        'If in trans, each further child of the same parents has a 25 % chance of being affected.',
      ];
    return [
      'Only one heterozygous variant in a recessive gene: on its own this makes the patient a carrier. A second variant may have been missed (structural, deep intronic, not covered, or filtered): consider targeted testing or CNV analysis before accepting or rejecting the gene.',
    ];
  }
  if (/X-linked/.test(mode)) {
    if (sex === 'male')
      return [
        'Hemizygous in a male (one X chromosome): the variant is either de novo or inherited from his mother, who would be a carrier. Testing the mother tells which.',
        'A carrier mother passes it to half of her sons (affected) and half of her daughters (carriers); all daughters of the patient will carry it, his sons will not.',
      ];
    return [
      'Heterozygous in a female for an X-linked disease: in a recessive disease she is usually a carrier, with symptoms possible through skewed X-inactivation; in a dominant one a single copy causes disease.',
      'Each child of hers has a 50 % chance of inheriting it.',
    ];
  }
  if (/mitochondrial/.test(mode)) return ['Mitochondrial inheritance passes through the mother; severity depends on the fraction of altered copies (heteroplasmy), which can differ between tissues and relatives.'];
  return ['The inheritance of this gene’s disease is not known, so the meaning for relatives cannot be stated; segregation testing in the family can still help.'];
}

const withInheritance = (mode: string) => (/inheritance$/.test(mode) ? mode : `${mode} inheritance`);

/**
 * The inheritance of a named disease (the knowledge base's modes, as the phenotype screen shows
 * them) and what the case's variants in its genes look like against it.
 */
function answerDiseaseInheritance(input: AnswerInput, named: Mentions['diseases'][number]): ChatAnswer {
  const { ctx, knowledge } = input;
  const b = new AnswerBuilder(ctx.product.id);
  const kd = kbDisease(knowledge, named.id, named.disease);
  const modes = named.disease?.inheritance.map((t) => t.label) ?? kd?.inheritance.map((t) => knowledge.hpo.ontology.label(t) ?? t) ?? [];
  if (named.disease) b.disease(named.disease);
  const where = named.disease ? `disease #${named.disease.rank} of this case` : `not among the ${ctx.diseases.length} ranked diseases of this case`;
  if (!kd && !named.disease) return done(b.line(`${NO_ANSWER} ${named.name} (${named.id}) is not in the knowledge base.`), 'inheritance');
  b.line(
    modes.length
      ? `${named.name} (${named.id}; ${where}) is annotated with: ${modes.join(', ')}.`
      : `${named.name} (${named.id}; ${where}): the knowledge base states no mode of inheritance for it.`,
  );
  const genes = named.disease?.genes ?? kd?.genes ?? [];
  const inCase = genes.flatMap((s) => ctx.genes.filter((g) => g.symbol === s));
  for (const g of inCase.slice(0, 3)) {
    b.gene(g);
    const variants = variantsOfGene(ctx, g.symbol);
    const shown = variants.slice(0, 2).map((v) => (b.variant(v), `${variantName(v)} ${v.zygosity}`));
    const fit = explanationLine(g, 'Inheritance:');
    b.item(`${g.symbol} (gene #${g.rank}) in this case: ${shown.length ? shown.join('; ') : 'no ranked variant shown'}${fit ? `; ranking's fit: ${fit}` : ''}.`);
  }
  const others = genes.filter((s) => !inCase.some((g) => g.symbol === s));
  if (others.length) b.item(`No ranked variant of this case in ${others.slice(0, 6).join(', ')}${others.length > 6 ? ` and ${others.length - 6} more` : ''}.`);
  const mode = modes[0]?.toLowerCase();
  const zygosity = inCase[0] ? variantsOfGene(ctx, inCase[0].symbol).map((v) => v.zygosity) : [];
  if (mode && zygosity.length) for (const l of familyMeaning(mode, zygosity, ctx.product.sex)) b.line(l);
  else if (genes.length) b.line('The case has no ranked variant in its genes, so there is no genotype to interpret for the family.');
  return done(b, 'inheritance');
}

export function answerInheritance(input: AnswerInput): ChatAnswer {
  const { ctx, knowledge, mentions } = input;
  const namedDisease = mentions.diseases[0];
  if (namedDisease && mentions.genes.length === 0 && mentions.variants.length === 0) return answerDiseaseInheritance(input, namedDisease);
  const b = new AnswerBuilder(ctx.product.id);
  const variantNamed = mentions.variants.flatMap((m) => m.variants)[0];
  const gene = pickGene(input) ?? (variantNamed?.gene ? ctx.genes.find((g) => g.symbol === variantNamed.gene) : undefined) ?? (mentions.genes.length === 0 ? ctx.genes[0] : undefined);
  if (!gene) {
    const missing = mentions.genes[0];
    return done(b.line(missing ? `${missing.symbol} is not among the ranked genes of this case, so there is no variant to interpret for the family.` : `${NO_ANSWER} The case has no ranked gene.`), 'inheritance');
  }
  b.gene(gene);
  const best = bestDiseaseOf(ctx, gene);
  const fit = explanationLine(gene, 'Inheritance:');
  const mode = gene.inheritance[0] ?? 'unknown inheritance';
  b.line(`${gene.symbol} (gene #${gene.rank}): the case's variants fit ${withInheritance(mode)}${fit ? ` — ${fit.replace(/^[^—]*—\s*/, '')}` : ''}.`);
  if (best) {
    if (best.ranked) b.disease(best.ranked);
    const kd = kbDisease(knowledge, best.id, best.ranked);
    const modes = best.ranked?.inheritance.map((t) => t.label) ?? kd?.inheritance.map((t) => knowledge.hpo.ontology.label(t) ?? t) ?? [];
    b.item(`${best.name} (${best.id}) is annotated as ${modes.length ? modes.join(', ') : 'of unstated inheritance'}.`);
  }
  const variants = variantsOfGene(ctx, gene.symbol);
  for (const v of variants.slice(0, 3)) {
    b.variant(v);
    b.item(`${variantName(v)}: ${v.zygosity} (GT ${v.genotype.gt}), ${v.acmg}.`);
    const family = familyEvidence(v);
    if (family) b.item(family);
  }
  b.item(`Patient: ${ctx.product.sex}.`);
  if (variants.slice(0, 3).some((v) => hasRelatives(v))) {
    // The relatives were sequenced with the case: what they show replaces "test the parents".
    b.line('The family was sequenced with this case: the genotypes and rules above are the segregation evidence, read from the joint VCF and the pedigree.');
    for (const l of familyMeaning(mode, variants.map((v) => v.zygosity), ctx.product.sex).filter((x) => !/\b[Tt]esting (both )?(the )?(parents|mother|them)\b/.test(x))) b.line(l);
  } else for (const l of familyMeaning(mode, variants.map((v) => v.zygosity), ctx.product.sex)) b.line(l);
  return done(b, 'inheritance');
}

/** Whether the case has sequenced relatives' genotypes at the variant (a family case). */
const hasRelatives = (v: CaseVariant): boolean => v.genotypes !== null && Object.keys(v.genotypes).length > 1;

/** The relatives' genotypes at a variant and the inheritance patterns it fits in the family. */
function familyEvidence(v: CaseVariant): string | null {
  if (!v.genotypes || !hasRelatives(v)) return null;
  const calls = Object.entries(v.genotypes).map(([sample, g]) => `${sample} ${g.gt}${g.depth != null ? ` (DP ${g.depth}${g.genotypeQuality != null ? `, GQ ${g.genotypeQuality}` : ''})` : ''}`);
  const fits = v.inheritance.length ? `fits ${v.inheritance.map((t) => INHERITANCE_FILTER_LABELS[t].toLowerCase()).join(', ')}` : 'fits no inheritance pattern in this family';
  const rules = v.inheritanceRules.slice(0, 2).join('; ');
  return `In the family: ${calls.join(', ')}; ${fits}${rules ? ` — ${rules}` : ''}.`;
}

const COUNT_LABELS: Record<string, string> = {
  records: 'VCF records read',
  alleles: 'alleles after splitting multi-allelic records',
  skippedReferenceBlocks: 'reference (gVCF) blocks skipped',
  skippedNoAlt: 'records without an alternate allele skipped',
  skippedStar: 'spanning-deletion (*) alleles skipped',
  skippedNonRef: '<NON_REF> alleles skipped',
  structural: 'symbolic structural-variant alleles (<DEL>, <DUP>…) not annotated',
  liftFailed: 'records that failed GRCh37 → GRCh38 liftover',
  refMismatches: 'records whose REF did not match the reference genome',
};

export function answerLimitations(input: AnswerInput): ChatAnswer {
  const { ctx } = input;
  const b = new AnswerBuilder(ctx.product.id);
  const run = ctx.run;
  b.line('What this analysis could not see, from the case’s own run:');
  if (run) {
    b.item(`Input on ${run.inputAssembly}; results on ${run.assembly}${run.inputAssembly !== run.assembly ? ' (lifted over)' : ''}.`);
    const counts = Object.entries(run.counts).filter(([k, n]) => COUNT_LABELS[k] && (n > 0 || k === 'records'));
    if (counts.length) b.item(`Reading: ${counts.map(([k, n]) => `${n.toLocaleString('en-US')} ${COUNT_LABELS[k]}`).join('; ')}.`);
  }
  const filtered = ctx.totals.variants - ctx.totals.candidates;
  b.item(`${ctx.totals.variants.toLocaleString('en-US')} variants annotated; ${ctx.totals.candidates.toLocaleString('en-US')} considered by the ranking; ${filtered.toLocaleString('en-US')} filtered out as common (population AF above 2 %), benign or likely benign, outside a gene, or failing the caller's FILTER. Filtered variants are still listed in Non-clustered mode.`);
  const noAf = ctx.variants.filter((v) => v.af == null);
  if (ctx.variants.length) {
    b.item(`Population frequencies: ${noAf.length} of the ${ctx.variants.length} top-ranked candidate variants have no known population frequency, so frequency criteria (BA1, BS1, PM2) could not be applied to them${noAf.length ? ` (e.g. ${noAf.slice(0, 2).map((v) => (b.variant(v), variantName(v))).join(', ')})` : ''}.`);
  }
  const source = ctx.product.hpoTermsSource === 'phenome' ? 'extracted by PhenomeAI from the symptoms (none were given)' : 'as given';
  b.item(`Phenotype: ${ctx.product.hpoTerms.length} present and ${ctx.product.excludedTerms.length} excluded HPO terms, ${source}.${ctx.product.hpoTerms.length === 0 ? ' Without terms the ranking rests on the variants alone.' : ''}`);
  if (ctx.variants.some(hasRelatives)) {
    b.item('Not visible in a small-variant VCF: copy-number and structural variants unless the caller wrote them, repeat expansions, low-level mosaicism, and deep-intronic or regulatory effects beyond the annotated splice regions. The phase of two heterozygous variants and segregation come from the sequenced relatives, and only where every one of them is called at the site.');
  } else {
    b.item('Not visible in a single person’s small-variant VCF: copy-number and structural variants unless the caller wrote them, repeat expansions, low-level mosaicism, deep-intronic or regulatory effects beyond the annotated splice regions, the phase of two heterozygous variants, and segregation in the family.');
  }
  if (run) {
    const v = run.kbVersions;
    const parts = ['hpo', 'hpoAnnotations', 'clinvar', 'transcripts', 'genes'].filter((k) => v[k]).map((k) => `${k} ${v[k]}`);
    if (parts.length) b.item(`Knowledge base: ${parts.join(', ')}; software ${run.softwareVersion}.`);
  }
  return done(b, 'limitations');
}

export function suggestionsFor(ctx: CaseContext): string[] {
  const top = ctx.genes[0];
  const second = ctx.genes[1];
  const term = ctx.product.hpoTerms[0];
  const out = top ? ['Why is this gene first?', 'What should I examine next?'] : ['What should I examine next?'];
  if (top) out.push(`What is the top variant in ${top.symbol}?`);
  if (term) out.push(`Which diseases explain ${term.label.toLowerCase()}?`);
  if (top && second) out.push(`Compare ${top.symbol} and ${second.symbol}`);
  out.push('What does the inheritance mean for the family?', 'What could the analysis not see?');
  return out;
}

export function answerHelp(input: AnswerInput, intent: Intent): ChatAnswer {
  const b = new AnswerBuilder(input.ctx.product.id);
  if (intent === 'unknown') b.line(`${NO_ANSWER} I answer from this case's ranked results and the knowledge base only.`);
  else b.line('I answer questions about this case from its ranked results and the knowledge base, citing the evidence.');
  b.line('I can tell you:');
  for (const s of [
    'which gene, variant or disease is most likely and why',
    'why a gene is ranked where it is (matched and unmatched terms, inheritance fit, variants)',
    'what a variant is (HGVS, consequence, ClinVar, ACMG criteria)',
    'which ranked diseases explain a symptom',
    'what a disease does not explain and what to examine next',
    'how two genes, diseases or variants compare',
    'what the inheritance and zygosity mean for the family',
    'what the analysis could not see',
  ])
    b.item(s);
  b.line(`Try: ${suggestionsFor(input.ctx).slice(0, 3).map((s) => `“${s}”`).join(', ')}.`);
  return done(b, intent === 'unknown' ? 'unknown' : 'help');
}

export function answerNotReady(ctx: CaseContext): ChatAnswer {
  const b = new AnswerBuilder(ctx.product.id);
  const why =
    ctx.product.status === 'Error'
      ? 'its analysis ended in an error'
      : ctx.product.status === 'Completed'
        ? 'it has no stored results'
        : `its analysis is not finished (${ctx.product.status})`;
  b.line(`${NO_ANSWER} ${ctx.product.caseId}: ${why}. Ask again once the case is Completed.`);
  return done(b, 'not-ready');
}
