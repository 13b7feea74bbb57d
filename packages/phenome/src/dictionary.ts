/**
 * The HPO phrase index: every label and synonym of the selected sub-ontology, reduced to the
 * multiset of its normalised content words. A text window matches an entry when it holds the
 * same multiset (word order free, function words free), found through an order-independent
 * additive hash that is updated in O(1) per token and verified on a hit.
 */
import type { Ontology, SynonymScope, Term } from '@rarelens/engine';
import {
  ABNORMALITY_NOUNS,
  CLINICAL_ABBREVIATIONS,
  CLINICAL_NAMES,
  LAY_LEXICON,
  NON_PHENOTYPE_PHRASES,
  ORGAN_ADJECTIVES,
  SKIPPABLE_MODIFIERS,
  STOP_WORDS,
} from './lexicon.ts';
import { normalizeWord, singular, surfaceWord, tokenize } from './normalize.ts';

/**
 * Where a mention's term came from; 'lab' = an abnormal laboratory value (labs.ts),
 * 'milestone' = a milestone reached past its normal age (milestones.ts), 'growth' = a stature or
 * head size beyond the normal range by its score or centile (anthropometry.ts), 'onset' = the
 * Onset term of an age at onset stated in the text (onset.ts), not a phrase.
 */
export type EntrySource =
  | 'label'
  | SynonymScope
  | 'lay'
  | 'abbreviation'
  | 'derived'
  | 'variant'
  | 'lab'
  | 'milestone'
  | 'growth'
  | 'onset';

export interface DictEntry {
  termId: string;
  source: EntrySource;
  /** Prior confidence of this phrase naming this term (label 1.0 ... broad synonym lowest). */
  weight: number;
  /** Normalised content words in phrase order. */
  words: readonly string[];
  /** The phrase as written in the ontology or lexicon. */
  text: string;
}

/** Phenotypic abnormality: the findings of a patient, the only branch the ranking scores. */
export const PHENOTYPIC_ABNORMALITY_ROOT = 'HP:0000118';
/** Mode of inheritance ("autosomal dominant", "sporadic", "incomplete penetrance"). */
export const INHERITANCE_ROOT = 'HP:0000005';
/** Clinical course: onset ("childhood onset"), progression ("rapidly progressive"), mortality. */
export const CLINICAL_COURSE_ROOT = 'HP:0031797';
/** Phenotypic variability ("variable expressivity"): the Clinical modifier that describes a disease. */
export const VARIABILITY_ROOT = 'HP:0003812';

/**
 * Indexed by default: the patient's findings, and the terms that describe the patient's disease
 * as a whole (inheritance, course and onset, variability). The other Clinical modifiers
 * (severity, laterality, triggers, spatial pattern) qualify a finding, not the patient, and are
 * not indexed.
 */
export const DEFAULT_ROOTS: readonly string[] = [
  PHENOTYPIC_ABNORMALITY_ROOT,
  INHERITANCE_ROOT,
  CLINICAL_COURSE_ROOT,
  VARIABILITY_ROOT,
];

/**
 * Category names of those branches, not values: "the mode of inheritance", "age at onset",
 * "the clinical course", "age at death" say what is described, not what the patient has.
 */
const AGE_OF_DEATH = 'HP:0011420';
const NON_PHENOTYPE_CATEGORY_TERMS: ReadonlySet<string> = new Set([
  INHERITANCE_ROOT,
  CLINICAL_COURSE_ROOT,
  'HP:0003674', // Onset
  AGE_OF_DEATH,
  'HP:0040006', // Mortality/Aging
  'HP:0003679', // Pace of progression
]);

/** Negation words inside an ontology phrase ("No previous family history"): the context reader would negate the mention itself. */
const NEGATION_IN_PHRASE_RE = /\b(?:no|not|without|absent|absence)\b/i;

export interface DictionaryOptions {
  /** Sub-ontology roots to index (default DEFAULT_ROOTS: phenotypic abnormality, inheritance, clinical course, variability). */
  roots?: readonly string[];
  /** Include related/broad/narrow synonyms (default true). */
  includeNonExact?: boolean;
  /** Include the curated lay lexicon and clinical abbreviations (default true). */
  includeLexicon?: boolean;
}

/** Weights by synonym scope: an exact synonym is nearly as good as the label. */
export const SCOPE_WEIGHT: Record<EntrySource, number> = {
  label: 1,
  exact: 0.95,
  abbreviation: 0.9,
  lay: 0.85,
  narrow: 0.7,
  related: 0.7,
  broad: 0.5,
  derived: 0.75,
  variant: 0.8,
  lab: 0.9,
  milestone: 0.9,
  growth: 0.9,
  onset: 0.9,
};

/**
 * Per-word hash of 24 bits: a phrase's key is the sum of its words' hashes, which stays a
 * small integer (fast Map key) for phrases of up to 64 words. Collisions are harmless: every
 * hit is verified word by word.
 */
function wordHash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 2246822519) >>> 0;
  return h >>> 8 || 1;
}

export interface VocabWord {
  /** The word as stored in the phrases (an alias resolves to its target). */
  word: string;
  hash: number;
  isStop: boolean;
  isModifier: boolean;
}

export class PhraseDictionary {
  readonly vocab = new Map<string, VocabWord>();
  /** Entries by the sum of their content-word hashes. */
  readonly byHash = new Map<number, DictEntry[]>();
  /** Single-word synonyms (not labels), by surface form: derivations of them do not match. */
  readonly bySurface = new Map<string, DictEntry[]>();
  readonly maxWords: number;
  readonly termCount: number;
  readonly entryCount: number;
  /** Lexicon entries whose id is not a current term of this ontology (skipped). */
  readonly skippedLexicon: string[] = [];

  constructor(
    readonly ontology: Ontology,
    options: DictionaryOptions = {},
  ) {
    const roots = options.roots ?? DEFAULT_ROOTS;
    const includeNonExact = options.includeNonExact ?? true;
    for (const w of STOP_WORDS)
      this.vocab.set(normalizeWord(w), {
        word: normalizeWord(w),
        hash: 0,
        isStop: true,
        isModifier: false,
      });
    let maxWords = 0;
    let terms = 0;
    let entries = 0;
    // One entry per (term, phrase); a phrase listed twice keeps its best scope.
    const seen = new Map<string, DictEntry>();
    const keepBest = (key: string, source: EntrySource, text: string): boolean => {
      const existing = seen.get(key);
      if (!existing) return false;
      if (SCOPE_WEIGHT[source] > existing.weight) {
        existing.source = source;
        existing.weight = SCOPE_WEIGHT[source];
        existing.text = text;
      }
      return true;
    };
    const add = (termId: string, text: string, source: EntrySource): void => {
      const words = phraseWords(text);
      if (words.length === 0) return;
      if (words.length === 1 && (source === 'exact' || source === 'lay')) {
        const surface = phraseSurface(text);
        const key = `${termId}\u0001${surface}`;
        if (surface === '' || keepBest(key, source, text)) return;
        const entry: DictEntry = {
          termId,
          source,
          weight: SCOPE_WEIGHT[source],
          words: [surface],
          text,
        };
        seen.set(key, entry);
        const list = this.bySurface.get(surface);
        if (list) list.push(entry);
        else this.bySurface.set(surface, [entry]);
        entries++;
        return;
      }
      addWords(termId, words, source, text);
      // "-ation" nouns also read as the "-ed" participle: "mental retardation" ~ "mentally
      // retarded", "joint dislocation" ~ "dislocated joint" (stems "retardat" vs "retard").
      if (words.some((w) => w.length > 6 && w.endsWith('at'))) {
        const participle = words.map((w) =>
          w.length > 6 && w.endsWith('at') ? w.slice(0, -2) : w,
        );
        addWords(termId, participle, source, text);
      }
    };
    const addWords = (termId: string, words: string[], source: EntrySource, text: string): void => {
      const key = `${termId}\u0000${words.join(' ')}`;
      if (keepBest(key, source, text)) return;
      let sum = 0;
      for (const w of words) sum += this.wordEntry(w).hash;
      const entry: DictEntry = { termId, source, weight: SCOPE_WEIGHT[source], words, text };
      seen.set(key, entry);
      const list = this.byHash.get(sum);
      if (list) list.push(entry);
      else this.byHash.set(sum, [entry]);
      if (words.length > maxWords) maxWords = words.length;
      entries++;
    };
    const labels = new Set<string>();
    for (const t of ontology.terms.values()) if (!t.obsolete) labels.add(t.label.toLowerCase());
    for (const t of ontology.terms.values()) {
      if (t.obsolete || !roots.some((r) => ontology.isA(t.id, r))) continue;
      // "the phenotypic abnormalities of our patient" names no finding.
      if (t.id === PHENOTYPIC_ABNORMALITY_ROOT) continue;
      terms++;
      if (!ontology.isA(t.id, PHENOTYPIC_ABNORMALITY_ROOT)) {
        this.addNonPhenotype(t, add);
        continue;
      }
      add(t.id, t.label, 'label');
      for (const s of t.synonyms) {
        if (s.type === 'obsolete_synonym') continue;
        if (s.type === 'abbreviation') {
          // Two-letter abbreviations ("BO", "MI") collide with too many other uses.
          if (s.scope === 'exact' && s.text.trim().length > 2) add(t.id, s.text, 'abbreviation');
          continue;
        }
        if (s.scope !== 'exact' && !includeNonExact) continue;
        // A single word is too ambiguous to name a term unless the ontology calls it exact
        // ("order" is a related synonym of Atypical sorting, "slow" a broad one of Lethargy),
        // or it is a compound of medical word parts that names nothing else ("leukocyturia",
        // "retrogenia", "craniostenosis").
        if (
          s.scope !== 'exact' &&
          phraseWords(s.text).length === 1 &&
          !isMedicalCompound(s.text, labels)
        )
          continue;
        add(t.id, s.text, s.scope);
      }
      // Generated phrases last: a phrase the ontology lists keeps its own (higher) weight.
      for (const name of [
        t.label,
        ...t.synonyms.filter((x) => x.scope === 'exact').map((x) => x.text),
      ])
        for (const phrase of adjectiveForms(name)) add(t.id, phrase, 'derived');
      for (const phrase of qualifiedParentPhrases(ontology, t)) add(t.id, phrase, 'derived');
      for (const phrase of profoundPhrases(t, labels)) add(t.id, phrase, 'derived');
      for (const phrase of episodePhrases(t)) add(t.id, phrase, 'derived');
      const names = [
        t.label,
        ...t.synonyms
          .filter((x) => x.scope === 'exact' && x.type !== 'abbreviation')
          .map((x) => x.text),
      ];
      const measurement = MEASUREMENT_LABEL_RE.test(t.label);
      for (const name of names) {
        if (measurement)
          for (const phrase of measurementPhrases(name)) add(t.id, phrase, 'variant');
        for (const phrase of equivalentPhrases(name)) add(t.id, phrase, 'variant');
      }
      for (const phrase of organAbnormalityPhrases(t.label)) add(t.id, phrase, 'derived');
      for (const phrase of organNeoplasmPhrases(t.label)) add(t.id, phrase, 'derived');
    }
    for (const e of NON_PHENOTYPE_PHRASES) {
      const id = ontology.resolve(e.id);
      if (id && roots.some((r) => ontology.isA(id, r))) add(id, e.text, 'derived');
      else if (!id) this.skippedLexicon.push(`${e.id} (${e.text})`);
    }
    if (options.includeLexicon ?? true) {
      for (const e of LAY_LEXICON) this.addLexicon(e.id, e.text, 'lay', add);
      for (const e of CLINICAL_NAMES) this.addLexicon(e.id, e.text, 'lay', add);
      for (const e of CLINICAL_ABBREVIATIONS) this.addLexicon(e.id, e.text, 'abbreviation', add);
    }
    // Modifiers are skippable only when they are not needed as content of some phrase start;
    // they stay in the vocabulary either way (terms like "Severe short stature" need them).
    for (const m of SKIPPABLE_MODIFIERS) {
      const n = normalizeWord(m);
      const v = this.vocab.get(n);
      if (v) v.isModifier = true;
      else this.vocab.set(n, { word: n, hash: wordHash(n), isStop: false, isModifier: true });
    }
    this.dropAmbiguousAbbreviations();
    this.addDerivationAliases();
    this.maxWords = maxWords;
    this.termCount = terms;
    this.entryCount = entries;
  }

  /**
   * A term that describes the disease rather than a finding (inheritance, onset, course):
   * its label and synonyms of two or more content words only. A single word ("Sporadic",
   * "Progressive", "Heterogeneous", "Dominant") is an adjective of many other things, so it
   * is named only by the phrases of NON_PHENOTYPE_PHRASES ("sporadic case"); phrases that
   * carry a negation ("No previous family history") and abbreviations are left out, and none
   * of the generated forms of the phenotype terms apply.
   */
  private addNonPhenotype(
    t: Term,
    add: (termId: string, text: string, source: EntrySource) => void,
  ): void {
    if (NON_PHENOTYPE_CATEGORY_TERMS.has(t.id)) return;
    const names: { text: string; source: EntrySource }[] = [{ text: t.label, source: 'label' }];
    for (const s of t.synonyms)
      if (s.type !== 'obsolete_synonym' && s.type !== 'abbreviation')
        names.push({ text: s.text, source: s.scope });
    // A death named by one noun ("Miscarriage", "Stillbirth") names nothing else.
    const oneWordLabel = this.ontology.isA(t.id, AGE_OF_DEATH);
    for (const n of names) {
      if (NEGATION_IN_PHRASE_RE.test(n.text)) continue;
      if (phraseWords(n.text).length < 2 && !(oneWordLabel && n.source === 'label')) continue;
      add(t.id, n.text, n.source);
    }
  }

  private addLexicon(
    id: string,
    text: string,
    source: EntrySource,
    add: (termId: string, text: string, source: EntrySource) => void,
  ): void {
    const cur = this.ontology.resolve(id);
    if (cur === undefined) {
      this.skippedLexicon.push(`${id} (${text})`);
      return;
    }
    add(cur, text, source);
  }

  private wordEntry(w: string): VocabWord {
    let v = this.vocab.get(w);
    if (!v) {
      v = { word: w, hash: wordHash(w), isStop: false, isModifier: false };
      this.vocab.set(w, v);
    }
    return v;
  }

  /**
   * A one-word abbreviation naming several unrelated terms ("ASD": atrial septal defect,
   * autistic behaviour) is left to in-text definitions rather than guessed.
   */
  private dropAmbiguousAbbreviations(): void {
    for (const [hash, list] of this.byHash) {
      const abbr = list.filter((e) => e.source === 'abbreviation' && e.words.length === 1);
      if (abbr.length === 0) continue;
      const ids = new Set(list.map((e) => e.termId));
      if (ids.size <= 1) continue;
      const kept = list.filter((e) => !(e.source === 'abbreviation' && e.words.length === 1));
      if (kept.length === 0) this.byHash.delete(hash);
      else this.byHash.set(hash, kept);
    }
  }

  /**
   * Text forms that the stemmer cannot bring together with a phrase word: "dysmorphic" for
   * "dysmorphism", "-ic" adjectives of "-ia" nouns. An alias is only added when the text form
   * is not itself a phrase word.
   */
  private addDerivationAliases(): void {
    const aliases: [string, VocabWord][] = [];
    for (const [w, v] of this.vocab) {
      if (v.isStop) continue;
      if (w.length > 5 && w.endsWith('ia')) aliases.push([`${w.slice(0, -2)}ic`, v]);
      if (w.length > 5 && w.endsWith('ism')) aliases.push([`${w.slice(0, -3)}ic`, v]);
      // "petechial" ~ petechia(e), "cryptorchid" ~ cryptorchidism.
      if (w.length > 5 && w.endsWith('ia')) aliases.push([`${w}l`, v]);
      if (w.length > 7 && w.endsWith('ism')) aliases.push([w.slice(0, -3), v]);
    }
    for (const [alias, v] of aliases) if (!this.vocab.has(alias)) this.vocab.set(alias, v);
  }

  /** Hash of a word, or undefined when no phrase contains it (a window cannot cross it). */
  lookup(norm: string): VocabWord | undefined {
    return this.vocab.get(norm);
  }

  /** Entries whose content multiset equals `words` (verified, not only hashed). */
  entriesFor(hash: number, words: readonly string[]): DictEntry[] {
    const list = this.byHash.get(hash);
    if (!list) return NO_ENTRIES;
    return list.filter((e) => sameMultiset(e.words, words));
  }
}

const NO_ENTRIES: DictEntry[] = [];

/** Multiset equality of two short word lists, without allocating. */
function sameMultiset(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  let used = 0;
  outer: for (const w of a) {
    for (let k = 0; k < b.length; k++) {
      if ((used & (1 << k)) === 0 && b[k] === w) {
        used |= 1 << k;
        continue outer;
      }
    }
    return false;
  }
  return true;
}

const ORGAN_LABEL_RE = [/^abnormality of (?:the )?(.+)$/i, /^abnormal (.+) morphology$/i];
const NEOPLASM_LABEL_RE = /^neoplasm of (?:the )?(.+)$/i;

/** Everyday names of "Neoplasm of the X": "X tumor", "tumor of the X", "X neoplasm". */
export function organNeoplasmPhrases(label: string): string[] {
  const organ = NEOPLASM_LABEL_RE.exec(label)?.[1]?.toLowerCase();
  if (organ === undefined || organ.includes(',') || organ.split(' ').length > 3) return [];
  const out: string[] = [];
  for (const o of [organ, ...(ORGAN_ADJECTIVES[organ] ?? [])])
    out.push(`${o} tumor`, `${o} neoplasm`);
  out.push(`tumor of the ${organ}`, `neoplasm of the ${organ}`);
  return out;
}

/**
 * Everyday names of the grouping terms "Abnormality of the X" / "Abnormal X morphology":
 * "X anomaly", "X malformation", "abnormal X", and the same with X's adjective ("renal anomaly").
 */
export function organAbnormalityPhrases(label: string): string[] {
  let organ: string | undefined;
  for (const re of ORGAN_LABEL_RE) {
    const m = re.exec(label);
    if (m?.[1]) {
      organ = m[1].toLowerCase();
      break;
    }
  }
  if (organ === undefined || organ.includes(',') || organ.split(' ').length > 3) return [];
  const names = [organ, ...(ORGAN_ADJECTIVES[organ] ?? [])];
  const out: string[] = [];
  for (const o of names) {
    out.push(`abnormal ${o}`, `malformed ${o}`, `deformed ${o}`);
    for (const n of ABNORMALITY_NOUNS) out.push(`${o} ${n}`);
  }
  for (const n of ABNORMALITY_NOUNS) out.push(`${n} of the ${organ}`);
  return out;
}

/**
 * Predicative adjectives of a one-word finding: "dysarthric" (Dysarthria), "obese"
 * (Obesity), "infertile" (Infertility). Not "-ism" -> "-e" ("negative" is not Negativism). The stemmer does not bring
 * these together because their stems differ or the adjective is itself a phrase word.
 */
export function adjectiveForms(name: string): string[] {
  const w = name.trim().toLowerCase();
  if (!/^[a-z]{6,}$/.test(w)) return [];
  if (w.endsWith('ia')) return [`${w.slice(0, -2)}ic`];
  if (w.endsWith('ism')) return [`${w.slice(0, -3)}ic`];
  if (w.endsWith('ity')) return [`${w.slice(0, -3)}e`];
  return [];
}

/** How many levels up qualifiedParentPhrases looks for the term the qualifier qualifies. */
const QUALIFIED_ANCESTOR_DEPTH = 3;

/**
 * A term named by a qualifier and an ancestor's label ("Moderate sensorineural hearing
 * impairment" under "Sensorineural hearing impairment", "Severe intellectual disability" under
 * "Intellectual disability"; "Prelingual sensorineural hearing impairment" two levels under
 * it, through "Childhood onset sensorineural hearing impairment") is also named by the
 * qualifier and each of that ancestor's exact synonyms: "moderate sensorineural hearing
 * loss", "severe mental retardation", "prelingual sensorineural hearing loss". Qualifiers of
 * one or two words; ancestors up to three levels up; abbreviations are not combined.
 */
export function qualifiedParentPhrases(ontology: Ontology, term: Term): string[] {
  const label = term.label.toLowerCase();
  // A plural label qualifies a singular parent: "Multiple joint contractures".
  const plural = label.endsWith('s');
  const sl = plural ? singularPhrase(label) : label;
  const out: string[] = [];
  const seen = new Set<string>();
  let level: readonly string[] = term.parents;
  for (let depth = 0; depth < QUALIFIED_ANCESTOR_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const pid of level) {
      if (seen.has(pid)) continue;
      seen.add(pid);
      const parent = ontology.terms.get(pid);
      if (!parent || parent.obsolete) continue;
      next.push(...parent.parents);
      const parentLabel = parent.label.toLowerCase();
      const pl = plural ? singularPhrase(parentLabel) : parentLabel;
      if (!sl.endsWith(` ${pl}`)) continue;
      const qualifier = sl.slice(0, -pl.length - 1);
      if (!/^[a-z]+(?:[ -][a-z]+)?$/.test(qualifier)) continue;
      for (const s of parent.synonyms)
        if (s.scope === 'exact' && s.type !== 'abbreviation' && s.type !== 'obsolete_synonym')
          out.push(`${qualifier} ${s.text}`);
    }
    level = next;
  }
  return [...new Set(out)];
}

/** Every word of a phrase in the singular ("joint contractures" -> "joint contracture"). */
function singularPhrase(text: string): string {
  let s = singularPhraseCache.get(text);
  if (s === undefined) {
    s = text
      .split(' ')
      .map((w) => singular(w))
      .join(' ');
    singularPhraseCache.set(text, s);
  }
  return s;
}
/** Labels are few (~19,000) and each parent's is asked for once per child. */
const singularPhraseCache = new Map<string, string>();

/** The label and the exact synonyms of a term, abbreviations and obsolete synonyms left out. */
function exactNames(term: Term): string[] {
  return [
    term.label,
    ...term.synonyms
      .filter(
        (x) => x.scope === 'exact' && x.type !== 'abbreviation' && x.type !== 'obsolete_synonym',
      )
      .map((x) => x.text),
  ];
}

/**
 * "Episodic X" is also named "episodes of X" ("recurrent episodes of abdominal pain" ->
 * Episodic abdominal pain), from the label and the exact synonyms that start with "episodic".
 */
export function episodePhrases(term: Term): string[] {
  const out: string[] = [];
  for (const name of exactNames(term)) {
    const rest = /^episodic (.+)$/i.exec(name.trim())?.[1];
    if (rest !== undefined) out.push(`episodes of ${rest.toLowerCase()}`);
  }
  return [...new Set(out)];
}

/**
 * "Severe X" is also named "profound X" when the HPO has no "Profound X", so that Severe is
 * the most severe grade it has: "profound hypotonia" -> Severe muscular hypotonia (through its
 * synonym "Hypotonia, severe"), but "profound intellectual disability" stays Profound
 * intellectual disability. From the label and the exact synonyms that say "severe(ly)".
 */
export function profoundPhrases(term: Term, labels: ReadonlySet<string>): string[] {
  const label = term.label.toLowerCase();
  const rest = /^severe (.+)$/.exec(label)?.[1];
  if (rest === undefined || labels.has(`profound ${rest}`)) return [];
  const out: string[] = [];
  for (const name of exactNames(term)) {
    const n = name.toLowerCase();
    let m: RegExpExecArray | null;
    if ((m = /^severe(ly)? (.+)$/.exec(n))) out.push(`profound${m[1] ?? ''} ${m[2]}`);
    else if ((m = /^(.+), severe$/.exec(n))) out.push(`profound ${m[1]}`);
  }
  return out;
}

/** Terms that name a measured quantity ("Increased circulating ferritin concentration"). */
const MEASUREMENT_LABEL_RE = /\b(?:circulating|serum|plasma|concentration|level|activity|count)\b/i;
const DIRECTION_WORDS: readonly (readonly string[])[] = [
  ['increased', 'elevated', 'raised', 'high'],
  ['decreased', 'reduced', 'low', 'diminished'],
];
/** Words of a measurement name that text usually leaves out ("elevated ferritin"). */
const MEASUREMENT_NOISE = new Set([
  'circulating',
  'serum',
  'plasma',
  'concentration',
  'level',
  'levels',
]);

/**
 * The ways clinical text names a measurement term: the direction said with any of its usual
 * words ("increased" = "elevated" = "raised" = "high"; "decreased" = "reduced" = "low" =
 * "diminished") and without the specimen and quantity words ("circulating", "serum",
 * "concentration", "level"): "Increased circulating ferritin concentration" -> "elevated
 * ferritin", "high ferritin". At least one word besides the direction must remain.
 */
export function measurementPhrases(name: string): string[] {
  const words = name.toLowerCase().split(/\s+/).filter(Boolean);
  const d = words.findIndex((w) => DIRECTION_WORDS.some((c) => c.includes(w)));
  if (d < 0) return [];
  const cls = DIRECTION_WORDS.find((c) => c.includes(words[d] as string)) ?? [];
  const core = words.filter((w, k) => k === d || !MEASUREMENT_NOISE.has(w));
  if (core.length < 2 || core.some((w) => /[(),;]/.test(w))) return [];
  const dc = core.indexOf(words[d] as string);
  const out: string[] = [];
  for (const alt of cls) out.push(core.map((w, k) => (k === dc ? alt : w)).join(' '));
  return out;
}

/**
 * Names that clinical English uses interchangeably inside a longer phrase (general usage, not
 * any corpus): "reduced knee jerks" = Decreased patellar reflex, "increased occipitofrontal
 * circumference" = increased head circumference. Written lower-case with spaces for hyphens.
 */
const EQUIVALENT_NAMES: readonly (readonly string[])[] = [
  ['patellar reflex', 'patellar tendon reflex', 'knee jerk', 'knee reflex', 'knee jerk reflex'],
  ['achilles reflex', 'achilles tendon reflex', 'ankle reflex', 'ankle jerk'],
  ['head circumference', 'occipitofrontal circumference', 'occipito frontal circumference'],
  [
    'intellectual disability',
    'mental retardation',
    'mental disability',
    'intellectual impairment',
    'intellectual retardation',
    'cognitive disability',
  ],
  // The older "retardation" for a delay of development.
  ['developmental delay', 'developmental retardation'],
  ['psychomotor delay', 'psychomotor retardation'],
  ['motor delay', 'motor retardation'],
  // ... and the participle: "milestones were retarded" = delayed milestones.
  ['delayed', 'retarded'],
  // A meningioma of the cranium is intracranial (the other site is spinal).
  ['intracranial meningioma', 'cranial meningioma'],
  ['intracranial meningiomas', 'cranial meningiomas'],
  ['visual acuity', 'vision'],
  ['muscle tone', 'tone'],
  ['mandible', 'jaw'],
  ['retinal blood vessels', 'retinal vessels'],
  ['retinal blood vessel', 'retinal vessel'],
  ['odontoid process', 'dens'],
  ['naris', 'nostril'],
  ['nares', 'nostrils'],
  ['cafe au lait spot', 'cafe au lait patch'],
  ['cafe au lait spots', 'cafe au lait patches'],
  ['medullary canal', 'medullary cavity'],
  ['polymicrogyria', 'microgyria'],
  ['acoustic neuroma', 'acoustic neurinoma'],
  ['excessive daytime somnolence', 'daytime hypersomnolence', 'excessive daytime sleepiness'],
  ['motor polyneuropathy', 'motor neuropathy'],
  // The optic disc is the head of the optic nerve seen at the fundus: "optic nerve head pallor".
  ['optic disc', 'optic nerve head', 'optic disk'],
  // A motor or sensory conduction velocity is a nerve's: "reduced motor conduction velocity".
  ['motor nerve conduction velocity', 'motor conduction velocity'],
  ['sensory nerve conduction velocity', 'sensory conduction velocity'],
  // The vermilion is the lip's: "thin upper vermilion" = Thin upper lip vermilion.
  ['upper lip vermilion', 'upper vermilion'],
  ['lower lip vermilion', 'lower vermilion'],
  // The Latin-derived adjective for the organ.
  ['joint', 'articular'],
  ['joints', 'articulations'],
  ['muscle', 'muscular'],
  ['lower limb', 'leg'],
  ['lower limbs', 'legs'],
  ['upper limb', 'arm'],
  ['upper limbs', 'arms'],
  // Direction words that the HPO itself uses interchangeably.
  ['decreased', 'reduced', 'diminished', 'low'],
  ['increased', 'elevated', 'raised'],
  // ... and for size: "Large spleen" = "enlarged spleen", "the spleen was enlarged".
  ['large', 'enlarged'],
  // The older and lay names: "tonic-clonic convulsions", "trouble swallowing".
  ['seizure', 'convulsion'],
  ['seizures', 'convulsions'],
  ['difficulty', 'trouble'],
  // The organ for its Latin-derived adjective: "kidney failure", "lung hypoplasia", "brain
  // atrophy", "heart block", "liver failure".
  ['renal', 'kidney'],
  ['hepatic', 'liver'],
  ['cardiac', 'heart'],
  ['pulmonary', 'lung'],
  ['cerebral', 'brain'],
  // "missing thumbs", "the thumbs were missing" = Absent thumb.
  ['absent', 'missing'],
  ['inability to', 'unable to'],
  ['loss of ability to', 'lost the ability to'],
];

/**
 * Variants of a name with one or two of its parts replaced by an interchangeable name
 * (EQUIVALENT_NAMES): "Decreased patellar reflex" -> "reduced knee jerk", "diminished
 * patellar reflex", ... The name itself is not returned.
 */
export function equivalentPhrases(name: string): string[] {
  const base = ` ${name
    .toLowerCase()
    .replace(/[-‐‑–]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
  const out = new Set<string>();
  const substitute = (text: string, depth: number): void => {
    for (const group of EQUIVALENT_NAMES)
      for (const member of group) {
        if (!text.includes(` ${member} `)) continue;
        for (const other of group) {
          if (other === member) continue;
          const v = text.replace(` ${member} `, ` ${other} `);
          if (v === base || out.has(v)) continue;
          out.add(v);
          if (depth < 2) substitute(v, depth + 1);
        }
      }
  };
  substitute(base, 1);
  return [...out].map((v) => v.trim());
}

/** Surface key of a one-content-word phrase ("Hoarding" -> "hoarding"). */
function phraseSurface(text: string): string {
  for (const t of tokenize(text.replace(/\([^)]*\)/g, ' ')))
    if (!STOP_NORMS.has(t.norm)) return surfaceWord(t.raw);
  return '';
}

const STOP_NORMS = new Set([...STOP_WORDS].map((w) => normalizeWord(w)));

/** The normalised content words of a dictionary phrase. */
/**
 * A single word built from medical word parts: a clinical suffix (-uria, -emia, -osis,
 * -plasia, -genia, -acusis, -phonia, -gnathia, -ism, -poiesis, ...) on a stem of at least four
 * letters, and not itself the label of another term. Everyday words ("order", "slow", "rage")
 * and short ones ("cancer") never qualify, nor a "-pathy" (a disease of an organ: "neuropathy"
 * is broader than its related Peripheral neuropathy).
 */
export function isMedicalCompound(text: string, labels: ReadonlySet<string>): boolean {
  const w = text.trim().toLowerCase();
  if (!/^[a-z]+$/.test(w) || labels.has(w)) return false;
  const m = MEDICAL_SUFFIX_RE.exec(w);
  return m !== null && m.index >= 4;
}
const MEDICAL_SUFFIX_RE =
  /(?:uria|a?emia|osis|plasia|genia|acusis|phonia|gnathia|ophthalmos|ism|poiesis|plakia|phalangy|cephaly|ekplexia|stenosis)$/;

export function phraseWords(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text.replace(/\([^)]*\)/g, ' ')))
    if (!STOP_NORMS.has(t.norm)) out.push(t.norm);
  return out;
}
