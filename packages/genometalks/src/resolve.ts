/**
 * Entity resolution: the genes, diseases, variants, HPO terms and list positions a question
 * names — by symbol, alias, disease name or id, HGVS, coordinates, free-text symptoms
 * (PhenomeAI) or "the second gene".
 */
import type { TermRef } from '@rarelens/contract';
import type { CaseContext, CaseDisease, CaseGene, CaseVariant } from './context.ts';
import { diseaseNameIndex, wordStems, type ChatKnowledge, type DiseaseName } from './knowledge.ts';

export interface GeneMention {
  /** Approved symbol. */
  symbol: string;
  /** The ranked gene of the case, or null when the case has no ranked variant in it. */
  gene: CaseGene | null;
  /** As written in the question. */
  text: string;
}

export interface DiseaseMention {
  id: string;
  name: string;
  /** The ranked disease of the case (by id or merged id), or null when it is not ranked. */
  disease: CaseDisease | null;
  /** Word stems of the name as matched (empty for a disease named by id). */
  words: string[];
  /** Distinctive word stems of the name as matched (empty for a disease named by id). */
  content: string[];
  /** Whether the question writes the whole name, word for word. */
  written: boolean;
}

export interface VariantMention {
  /** As written in the question. */
  text: string;
  /** Candidate variants of the case it names (empty when none). */
  variants: CaseVariant[];
}

export type ListName = 'gene' | 'disease' | 'variant';

export interface Mentions {
  genes: GeneMention[];
  diseases: DiseaseMention[];
  variants: VariantMention[];
  terms: TermRef[];
  /** "the second gene" -> { list: 'gene', rank: 2 }; `list` null when no list was named. */
  positions: { list: ListName | null; rank: number }[];
}

/** Upper-case words of questions and genetics that are not meant as genes even where HGNC lists them. */
const NOT_GENES = new Set([
  'I', 'A', 'AN', 'AND', 'OR', 'THE', 'IS', 'IT', 'OF', 'TO', 'IN', 'ON', 'AT', 'BY', 'FOR', 'WHY', 'WHAT', 'HOW', 'WHO',
  'ACMG', 'AMP', 'HPO', 'OMIM', 'ORPHA', 'MONDO', 'VUS', 'DNA', 'RNA', 'MRNA', 'CDNA', 'AD', 'AR', 'XL', 'XLR', 'XLD', 'MT', 'LP', 'LB',
  'CNV', 'SV', 'SNV', 'INDEL', 'AF', 'GT', 'VCF', 'HGVS', 'ID', 'OK', 'MIM', 'NGS', 'WES', 'WGS', 'LOF', 'NMD', 'UTR', 'CDS', 'HP',
  'GRCH37', 'GRCH38', 'HG19', 'HG38', 'CLINVAR', 'GNOMAD', 'MANE', 'LR', 'MRI', 'CT', 'EEG', 'ECG', 'EKG', 'EMG', 'PDF', 'KB', 'UK',
  'US', 'USA', 'VS', 'PLI', 'LOEUF', 'DD', 'ID', 'ASD', 'ADHD', 'IQ', 'CNS', 'PNS', 'QC', 'DP', 'GQ', 'NO', 'YES', 'NOT',
]);
const ACMG_CODE = /^(PVS|PS|PM|PP|BA|BS|BP)\d$/;
/** Lower-case words that are also gene symbols or aliases in HGNC. */
const ENGLISH_WORDS = new Set([
  'was', 'set', 'can', 'cat', 'met', 'impact', 'rest', 'mass', 'map', 'kit', 'car', 'age', 'end', 'gap', 'gas', 'arm', 'bad', 'cap',
  'pal', 'her', 'his', 'has', 'had', 'not', 'but', 'all', 'any', 'see', 'why', 'how', 'top', 'rank', 'best', 'fit', 'ask', 'tell',
  'mode', 'face', 'hand', 'foot', 'eye', 'ear', 'skin', 'hair', 'gene', 'genes', 'type', 'small', 'large', 'long', 'short', 'step',
  'spring', 'clock', 'coil', 'sun', 'ago', 'cell', 'male', 'female', 'son', 'plan', 'check', 'look', 'next', 'test', 'with', 'and',
]);

const ORDINALS: Record<string, number> = {
  first: 1, top: 1, best: 1, leading: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, fifth: 5, '5th': 5,
  sixth: 6, '6th': 6, seventh: 7, '7th': 7, eighth: 8, '8th': 8, ninth: 9, '9th': 9, tenth: 10, '10th': 10,
};

function listOf(word: string | undefined): ListName | null {
  if (!word) return null;
  if (/^genes?$/.test(word)) return 'gene';
  if (/^(diseases?|diagnos[ie]s|phenotypes?|conditions?|syndromes?|disorders?)$/.test(word)) return 'disease';
  if (/^(variants?|mutations?|alleles?|changes?|snvs?)$/.test(word)) return 'variant';
  if (/^(candidates?|hits?|results?)$/.test(word)) return null;
  return null;
}

/** "the second gene", "gene #3", "rank 2 disease", "top variant". */
export function findPositions(question: string): Mentions['positions'] {
  const q = question.toLowerCase();
  const out: Mentions['positions'] = [];
  const seen = new Set<string>();
  const push = (list: ListName | null, rank: number) => {
    const key = `${list}|${rank}`;
    if (rank >= 1 && rank <= 1000 && !seen.has(key)) {
      seen.add(key);
      out.push({ list, rank });
    }
  };
  const ordinal = Object.keys(ORDINALS).join('|');
  const before = new RegExp(`\\b(${ordinal}|#\\d+|no\\.? ?\\d+|number \\d+|\\d+(?:st|nd|rd|th))(?: (?:ranked|ranking|most likely|candidate))? (gene|genes|disease|diseases|diagnosis|phenotype|condition|syndrome|disorder|variant|variants|mutation|allele|candidate|hit|result)\\b`, 'g');
  for (const m of q.matchAll(before)) {
    const word = m[1] ?? '';
    const n = ORDINALS[word] ?? Number(/\d+/.exec(word)?.[0] ?? NaN);
    if (Number.isFinite(n)) push(listOf(m[2]), n);
  }
  const after = /\b(gene|disease|diagnosis|phenotype|variant|mutation|candidate)s? (?:#|no\.? ?|number |ranked |at rank |rank )(\d+)\b/g;
  for (const m of q.matchAll(after)) push(listOf(m[1]), Number(m[2]));
  const ranked = /\b(?:ranked|rank|position|place) (?:#|number |no\.? ?)?(\d+)\b/g;
  if (out.length === 0) for (const m of q.matchAll(ranked)) push(null, Number(m[1]));
  return out;
}

function caseGeneBySymbol(ctx: CaseContext, symbol: string): CaseGene | null {
  const s = symbol.toUpperCase();
  return ctx.genes.find((g) => g.symbol.toUpperCase() === s) ?? null;
}

/** Gene symbols, aliases and previous symbols in the question, in order, each once. */
export function findGenes(question: string, ctx: CaseContext, knowledge: ChatKnowledge): GeneMention[] {
  const out: GeneMention[] = [];
  const seen = new Set<string>();
  for (const m of question.matchAll(/[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*/g)) {
    let token = m[0];
    token = token.replace(/-(related|associated|linked|positive|negative|gene|mutation|variant)$/i, '');
    if (token.length < 2) continue;
    const upper = token.toUpperCase();
    if (NOT_GENES.has(upper) || ACMG_CODE.test(upper)) continue;
    const isUpper = token === upper;
    const hasDigit = /\d/.test(token);
    const lower = token.toLowerCase();
    let symbol: string | null = null;
    let gene = caseGeneBySymbol(ctx, token);
    if (gene) {
      // A lower-case English word that happens to be the symbol of a ranked gene is not a gene.
      if (!isUpper && !hasDigit && (ENGLISH_WORDS.has(lower) || token.length < 3)) gene = null;
      else symbol = gene.symbol;
    }
    if (!symbol && (isUpper || hasDigit)) {
      const viaSynonym = isUpper && token.length >= 3 ? ctx.genes.find((g) => g.synonyms.some((s) => s.toUpperCase() === upper)) : undefined;
      if (viaSynonym) {
        gene = viaSynonym;
        symbol = viaSynonym.symbol;
      } else {
        const record = knowledge.genes?.bySymbolExact(token) ?? (isUpper && token.length >= 3 ? knowledge.genes?.bySymbolOrAlias(token) : undefined);
        const hpoGene = knowledge.hpo.genes.get(upper) ? upper : null;
        symbol = record?.symbol ?? hpoGene;
        gene = symbol ? caseGeneBySymbol(ctx, symbol) : null;
      }
    }
    if (!symbol || seen.has(symbol)) continue;
    seen.add(symbol);
    out.push({ symbol, gene, text: token });
  }
  return out;
}

const THREE_LETTER: Record<string, string> = {
  A: 'Ala', R: 'Arg', N: 'Asn', D: 'Asp', C: 'Cys', Q: 'Gln', E: 'Glu', G: 'Gly', H: 'His', I: 'Ile', L: 'Leu', K: 'Lys', M: 'Met',
  F: 'Phe', P: 'Pro', S: 'Ser', T: 'Thr', W: 'Trp', Y: 'Tyr', V: 'Val', X: 'Ter', '*': 'Ter', U: 'Sec',
};

/** p.(Ser252Trp) / p.S252W / p.Ser252Trp -> 'ser252trp' (three-letter, no parentheses, lower case). */
export function normalizeProtein(p: string): string {
  let s = p.replace(/^[A-Za-z0-9_.]*:/, '').replace(/^p\./i, '').replace(/[()]/g, '');
  if (/^[A-Z*]\d/.test(s)) {
    s = s.replace(/^([A-Z*])(\d+)([A-Z*=]?)(.*)$/, (_all, a: string, n: string, b: string, rest: string) => `${THREE_LETTER[a] ?? a}${n}${b === '' ? '' : b === '=' ? '=' : (THREE_LETTER[b] ?? b)}${rest}`);
  }
  return s.replace(/\*/g, 'Ter').toLowerCase();
}

/** c.755C>G / NM_000141.5:c.755C>G -> 'c.755c>g'. */
export function normalizeCoding(c: string): string {
  return c.replace(/^[A-Za-z0-9_.]*:/, '').toLowerCase();
}

export function findVariants(question: string, ctx: CaseContext): VariantMention[] {
  const out: VariantMention[] = [];
  for (const m of question.matchAll(/\b(?:[A-Z]{2}_\d+(?:\.\d+)?:)?c\.[-*+0-9_?]+(?:[ACGTacgt]+>[ACGTacgt]+|del[ACGTacgt]*|dup[ACGTacgt]*|ins[ACGTacgt]+|delins[ACGTacgt]+|inv|=)?/g)) {
    const want = normalizeCoding(m[0]);
    out.push({ text: m[0], variants: ctx.variants.filter((v) => v.hgvsC != null && normalizeCoding(v.hgvsC) === want) });
  }
  for (const m of question.matchAll(/\bp\.\(?(?:[A-Z][a-z]{2}|[A-Z*])\d+(?:[A-Z][a-z]{2}|[A-Z*=?])?(?:fs(?:Ter|\*|X)?\d*|_[A-Za-z]+\d+\w*|del|dup|ins\w*)?\)?/g)) {
    const want = normalizeProtein(m[0]);
    out.push({ text: m[0], variants: ctx.variants.filter((v) => v.hgvsP != null && normalizeProtein(v.hgvsP) === want) });
  }
  for (const m of question.matchAll(/\b(?:chr)?(\d{1,2}|X|Y|MT?)[:\s](\d{1,3}(?:,\d{3})+|\d{3,})(?:\s*([ACGTN]+)\s*(?:>|\/)\s*([ACGTN]+))?/gi)) {
    const chrom = (m[1] ?? '').toUpperCase().replace(/^M$/, 'MT');
    const pos = Number((m[2] ?? '').replace(/,/g, ''));
    const ref = m[3]?.toUpperCase();
    const alt = m[4]?.toUpperCase();
    const variants = ctx.variants.filter(
      (v) =>
        ((v.chrom === chrom && v.pos === pos) || (v.input.chrom.replace(/^chr/i, '') === chrom && v.input.pos === pos)) &&
        (!ref || ref === v.ref || ref === v.input.ref) &&
        (!alt || alt === v.alt || alt === v.input.alt),
    );
    out.push({ text: m[0], variants });
  }
  return out;
}

function caseDiseaseById(ctx: CaseContext, id: string): CaseDisease | null {
  return ctx.diseases.find((d) => d.id === id || d.id.replace(/^ORPHA:/, 'ORPHANET:') === id) ?? null;
}

/** Whether every word of `needle` occurs, in order and adjacent, in `hay`. */
function containsRun(hay: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Diseases named by id or by name. A name matches when every distinctive word of it occurs in
 * the question and either it has two or more such words or the whole name occurs as written
 * ("Marfan syndrome"); its subtype ("type 2") must match too when the question gives one.
 */
export function findDiseases(question: string, ctx: CaseContext, knowledge: ChatKnowledge): DiseaseMention[] {
  const out: DiseaseMention[] = [];
  const seen = new Set<string>();
  const add = (id: string, name: string, disease: CaseDisease | null, matched?: DiseaseName) => {
    const key = disease?.id ?? id;
    if (seen.has(key)) return;
    seen.add(key);
    const words = matched?.all ?? [];
    out.push({ id: disease?.id ?? id, name: disease?.name ?? name, disease, words, content: matched?.content ?? [], written: matched ? containsRun(wordStems(question), words) : true });
  };
  for (const m of question.matchAll(/\b(OMIM|ORPHA|ORPHANET|DECIPHER)[:_ ]?(\d+)\b/gi)) {
    const prefix = (m[1] ?? '').toUpperCase().replace('ORPHANET', 'ORPHA');
    const id = `${prefix}:${m[2]}`;
    const inCase = caseDiseaseById(ctx, id) ?? ctx.diseases.find((d) => d.mergedIds.includes(id)) ?? null;
    const kb = knowledge.hpo.diseaseById.get(id);
    if (inCase || kb) add(id, kb?.name ?? id, inCase);
  }
  const words = wordStems(question);
  const wordSet = new Set(words);
  const matches: { name: DiseaseName; score: number; disease: CaseDisease | null }[] = [];
  for (const n of diseaseNameIndex(knowledge.hpo).candidates(wordSet)) {
    if (n.content.length === 0 || !n.content.every((w) => wordSet.has(w))) continue;
    if (n.content.length < 2 && !containsRun(words, n.all)) continue;
    const subtypeHits = n.subtype.filter((w) => wordSet.has(w)).length;
    const questionHasSubtype = n.subtype.length > 0 && words.some((w, i) => /\d/.test(w) && i > 0 && /^(type|group|subtype)$/.test(words[i - 1] ?? ''));
    if (questionHasSubtype && subtypeHits < n.subtype.length) continue;
    const inCase = caseDiseaseById(ctx, n.disease.id) ?? ctx.diseases.find((d) => d.mergedIds.includes(n.disease.id)) ?? null;
    matches.push({ name: n, score: n.content.length * 10 + subtypeHits * 3 + (containsRun(words, n.all) ? 5 : 0), disease: inCase });
  }
  // The most specific names first; among equals the best-ranked disease of the case.
  matches.sort((a, b) => b.score - a.score || (a.disease?.rank ?? 1e9) - (b.disease?.rank ?? 1e9) || a.name.disease.id.localeCompare(b.name.disease.id));
  const top = matches[0]?.score;
  const usedWords = new Set<string>();
  for (const m of matches) {
    // A shorter name inside a longer one already found is the same mention.
    if (m.score < (top ?? 0) && m.name.content.every((w) => usedWords.has(w))) continue;
    if (out.length >= 3) break;
    add(m.name.disease.id, m.name.disease.name, m.disease, m.name);
    for (const w of m.name.content) usedWords.add(w);
  }
  return out;
}

/** An HPO term found in the question, with the word stems of the text that named it. */
export interface TermMention {
  term: TermRef;
  /** Word stems of the words naming it (empty for an HPO id). */
  words: string[];
}

/** HPO terms: ids, PhenomeAI mentions (not negated) and the labels of the patient's own terms. */
export function findTerms(question: string, ctx: CaseContext, knowledge: ChatKnowledge): TermMention[] {
  const out: TermMention[] = [];
  const byId = new Map<string, TermMention>();
  const ontology = knowledge.hpo.ontology;
  const add = (id: string, words: string[]) => {
    const current = ontology.resolve(id);
    if (!current) return;
    const known = byId.get(current);
    // The same term named twice keeps its longest wording.
    if (known) {
      if (words.length > known.words.length) known.words = words;
      return;
    }
    const mention = { term: { id: current, label: ontology.label(current) ?? current }, words };
    byId.set(current, mention);
    out.push(mention);
  };
  for (const m of question.matchAll(/\bHP[:_](\d{7})\b/gi)) add(`HP:${m[1]}`, []);
  if (knowledge.phenome) {
    for (const t of knowledge.phenome.extract(question)) if (!t.negated) add(t.id, wordStems(t.text));
  }
  const words = wordStems(question);
  for (const t of [...ctx.product.hpoTerms, ...ctx.product.excludedTerms]) {
    const label = wordStems(t.label);
    if (label.length > 0 && containsRun(words, label)) add(t.id, label);
  }
  return out;
}

/** Whether a term's wording lies inside the longer wording of another term ("seizure" in "febrile seizure"). */
function insideLonger(t: TermMention, all: readonly TermMention[]): boolean {
  return all.some((o) => o !== t && o.words.length > t.words.length && t.words.every((w) => o.words.includes(w)));
}

/** Question words that ask for a list of diseases or genes ("which diseases explain …"). */
const ASKS_FOR_DISEASES = /\b(which|what|list|any|other)\b(?:\s+\w+){0,2}?\s+(diseases?|conditions?|syndromes?|disorders?|diagnos[ie]s|genes?)\b/;

/**
 * Whether a disease name found in the question is really the wording of a symptom: every
 * distinctive word of the name lies inside the words naming an HPO term, and the term's
 * wording is the better reading — the name is not written in full ("aortic dissection" is not
 * "Familial aortic dissection"), the symptom's wording is longer ("spinal neurofibroma" over
 * "Neurofibroma"), or the question asks which diseases explain it.
 */
function symptomNotDisease(d: DiseaseMention, t: TermMention, asksForDiseases: boolean): boolean {
  if (d.content.length === 0 || t.words.length === 0) return false;
  const termWords = new Set(t.words);
  if (!d.content.every((w) => termWords.has(w))) return false;
  return !d.written || t.words.length > d.words.length || asksForDiseases;
}

export function resolveMentions(question: string, ctx: CaseContext, knowledge: ChatKnowledge): Mentions {
  const terms = findTerms(question, ctx, knowledge);
  const termWords = new Set(terms.flatMap((t) => t.words));
  // A lower-case word inside a symptom ("broad palm") is the symptom's, not a gene symbol.
  const genes = findGenes(question, ctx, knowledge).filter((g) => g.text === g.text.toUpperCase() || /\d/.test(g.text) || !wordStems(g.text).every((w) => termWords.has(w)));
  const asksForDiseases = ASKS_FOR_DISEASES.test(question.toLowerCase());
  const diseases = findDiseases(question, ctx, knowledge).filter((d) => !terms.some((t) => symptomNotDisease(d, t, asksForDiseases)));
  // Words of a disease name or gene the question named are not symptoms of their own.
  const skip = new Set<string>();
  for (const d of diseases) for (const w of wordStems(d.name)) skip.add(w);
  for (const g of genes) for (const w of wordStems(g.text)) skip.add(w);
  // A gene inside a disease name ("FGFR2-related craniosynostosis") is the disease's, not a gene question.
  const diseaseWords = new Set(diseases.flatMap((d) => wordStems(d.name)));
  const ownGenes = genes.filter((g) => !(diseases.length > 0 && diseaseWords.has(g.text.toLowerCase()) && !ctx.genes.some((x) => x.symbol === g.symbol)));
  return {
    genes: ownGenes,
    diseases,
    variants: findVariants(question, ctx),
    terms: terms.filter((t) => t.words.length === 0 || !(t.words.every((w) => skip.has(w)) || insideLonger(t, terms))).map((t) => t.term),
    positions: findPositions(question),
  };
}
