/**
 * PhenomeAI offline extractor: clinical free text -> HPO terms with spans and context.
 *
 * 1. tokenise + normalise (spelling, light stemming);
 * 2. every window of consecutive tokens (function words free, punctuation-bounded) whose
 *    content-word multiset equals an HPO phrase becomes a candidate;
 * 3. overlapping candidates: the longest wins, then the better synonym scope, then the more
 *    specific term;
 * 4. in-text abbreviation definitions ("intellectual disability (ID)") are propagated;
 * 5. each mention gets its negation, hedging and experiencer from the sentence.
 */
import type { Ontology } from '@rarelens/engine';
import { ContextAnalyzer, type MentionContext } from './context.ts';
import {
  CLINICAL_COURSE_ROOT,
  INHERITANCE_ROOT,
  PHENOTYPIC_ABNORMALITY_ROOT,
  type DictEntry,
  type DictionaryOptions,
  PhraseDictionary,
  SCOPE_WEIGHT,
} from './dictionary.ts';
import {
  isAnatomicalAdjective,
  normalizeWord,
  surfaceWord,
  type Token,
  tokenize,
} from './normalize.ts';
import { abbreviationSense, contextShortForm } from './abbreviations.ts';
import { findLabValues } from './labs.ts';
import { ABNORMALITY_NOUNS } from './lexicon.ts';
import { findGrowthFindings } from './anthropometry.ts';
import { findMilestoneDelays } from './milestones.ts';
import { findOnsetStatements } from './onset.ts';
import { clinicalRegions } from './sections.ts';

export type PhenomeCategory = 'phenotype' | 'inheritance' | 'course' | 'modifier';

/** The branch of an HPO id (the ranking's phenotype profile takes 'phenotype' only). */
export function categoryOf(ontology: Ontology, id: string): PhenomeCategory {
  if (ontology.isA(id, PHENOTYPIC_ABNORMALITY_ROOT)) return 'phenotype';
  if (ontology.isA(id, INHERITANCE_ROOT)) return 'inheritance';
  if (ontology.isA(id, CLINICAL_COURSE_ROOT)) return 'course';
  return 'modifier';
}

export interface PhenomeTerm {
  /** Current HPO id. */
  id: string;
  /**
   * The HPO branch: 'phenotype' = a finding (Phenotypic abnormality, the only branch a
   * phenotype profile for ranking takes); 'inheritance' = Mode of inheritance; 'course' =
   * Clinical course (onset, progression, mortality); 'modifier' = Phenotypic variability.
   */
  category: PhenomeCategory;
  label: string;
  /** 0-based, end-exclusive UTF-16 offsets into the input text. */
  start: number;
  end: number;
  /** text.slice(start, end). */
  text: string;
  negated: boolean;
  subject: 'patient' | 'family';
  /** 0..1: synonym scope, word order, skipped modifiers and hedging lower it. */
  confidence: number;
  uncertain?: boolean;
  /** A more general term named inside a longer mention ("schwannoma" in "vestibular schwannoma"); only with options.nested. */
  nested?: boolean;
  /** Read from an abnormal laboratory value ("Hb 7.1 g/dL"), not from a phrase; only with options.labValues. */
  lab?: boolean;
}

export interface PhenomeOptions extends DictionaryOptions {
  /** Mentions below this confidence are not returned (default 0). */
  minConfidence?: number;
  /**
   * Also report the more general terms named inside a longer mention when the ontology says
   * they are its ancestors ("vestibular schwannoma" also yields Schwannoma). Annotation
   * corpora count these nested mentions; a UI usually wants only the longest. Default
   * `'compositional'` (SHIPPED_PHENOME_OPTIONS); `false` reports the longest mention only.
   * `'compositional'` reports them only where the longer phrase is a composition that names
   * the general finding in its own right: a tumour type qualified by its site ("vestibular
   * schwannoma" -> Schwannoma) and a lettered or numbered subtype ("brachydactyly type C" ->
   * Brachydactyly) and a severity grade ("severe mental retardation" -> Severe intellectual
   * disability and Intellectual disability); a laterality, onset or other qualifier does not
   * ("dilated cardiomyopathy" stays Dilated cardiomyopathy).
   */
  nested?: boolean | 'compositional';
  /**
   * For full texts with section headings, report only mentions in the case-description
   * sections (in the title/abstract when no such section is found), not the introduction, discussion, methods or back matter
   * (default true, SHIPPED_PHENOME_OPTIONS; texts without headings are unaffected). In such a sectioned article the
   * organ-level grouping terms ("Abnormality of the ear") are not reported either.
   */
  clinicalSectionsOnly?: boolean;
  /**
   * Read abnormal laboratory values as findings ("Hb 7.1 g/dL" -> Anemia): outside the reference
   * range written beside them or beyond a conservative age- and sex-independent threshold
   * (labs.ts). Default true (SHIPPED_PHENOME_OPTIONS).
   */
  labValues?: boolean;
}

/**
 * What PhenomeAI reads from a text, in two lists: `terms` are the phenotypic abnormalities
 * (HP:0000118: the symptoms and signs a phenotype profile takes); `modifiers` are the mentions
 * of every other HPO branch (mode of inheritance, onset, clinical course, variability,
 * frequency), which describe the disease rather than the patient's findings. Nothing is
 * dropped: every mention is in exactly one list, with the same span and context.
 */
export interface PhenomeExtraction {
  terms: PhenomeTerm[];
  modifiers: PhenomeTerm[];
}

/** Splits mentions into phenotypic abnormalities (`terms`) and clinical modifiers, keeping text order. */
export function separateModifiers(mentions: readonly PhenomeTerm[]): PhenomeExtraction {
  const terms: PhenomeTerm[] = [];
  const modifiers: PhenomeTerm[] = [];
  for (const m of mentions) (m.category === 'phenotype' ? terms : modifiers).push(m);
  return { terms, modifiers };
}

export interface Phenome {
  /** All mentions in text order, every HPO branch (negated and family mentions included, flagged). */
  extract(text: string): PhenomeTerm[];
  /** The same mentions as extract(), phenotypic abnormalities apart from clinical modifiers. */
  extractFindings(text: string): PhenomeExtraction;
  /** Negation, hedging and experiencer of the span [start, end) of text (for spans found elsewhere). */
  contextOf(text: string, start: number, end: number): MentionContext;
  readonly ontologyVersion: string;
  /** Index statistics, for logs and the benchmark. */
  readonly stats: { terms: number; phrases: number; skippedLexicon: readonly string[] };
}

const enum Kind {
  Unknown = 0,
  Stop = 1,
  Content = 2,
  Modifier = 3,
}

interface Candidate {
  first: number;
  /** Exclusive token index. */
  last: number;
  entry: DictEntry;
  contentWords: number;
  score: number;
  nested?: boolean;
  /** A coordinated phrase that replaces the shorter mentions inside it. */
  covers?: boolean;
}

/**
 * The one configuration the product ships: createPhenome's defaults, used by the API (PhenomeAI
 * suggestions on upload and Diagnose, term extraction for a case submitted without terms), the
 * CLI `rarelens phenome` and `npm run bench:phenome`, which chooses these values by
 * document-grouped cross-validation on the development corpora and reports them.
 */
export const SHIPPED_PHENOME_OPTIONS = {
  nested: 'compositional',
  clinicalSectionsOnly: true,
  minConfidence: 0,
  labValues: true,
} as const satisfies PhenomeOptions;

/**
 * A term that the phenotype profile of the patient takes: a finding (Phenotypic abnormality,
 * not an inheritance mode, onset or course, which describe the disease), of the patient (not
 * a relative), stated (not hedged) and not the more general term nested in a longer mention.
 */
export function inCaseProfile(t: PhenomeTerm): boolean {
  return t.category === 'phenotype' && t.subject === 'patient' && !t.uncertain && !t.nested;
}

/**
 * The phenotype profile a case gets from the extracted terms (a case submitted without terms,
 * and the benchmark's "case profile" rows): the present findings, and the excluded ones that
 * are never also stated present.
 */
export function caseProfile(terms: readonly PhenomeTerm[]): {
  present: string[];
  excluded: string[];
} {
  const own = terms.filter(inCaseProfile);
  const present = [...new Set(own.filter((t) => !t.negated).map((t) => t.id))];
  const seen = new Set(present);
  const excluded = [...new Set(own.filter((t) => t.negated && !seen.has(t.id)).map((t) => t.id))];
  return { present, excluded };
}

/** Builds the phrase index once (about a second for the full HPO) and returns the extractor. */
export function createPhenome(ontology: Ontology, overrides: PhenomeOptions = {}): Phenome {
  const options: PhenomeOptions = {
    ...overrides,
    nested: overrides.nested ?? SHIPPED_PHENOME_OPTIONS.nested,
    clinicalSectionsOnly:
      overrides.clinicalSectionsOnly ?? SHIPPED_PHENOME_OPTIONS.clinicalSectionsOnly,
    minConfidence: overrides.minConfidence ?? SHIPPED_PHENOME_OPTIONS.minConfidence,
    labValues: overrides.labValues ?? SHIPPED_PHENOME_OPTIONS.labValues,
  };
  const dict = new PhraseDictionary(ontology, options);
  const minConfidence = options.minConfidence ?? 0;
  const organs = organWords(ontology);
  if (minConfidence < 0 || minConfidence > 1)
    throw new RangeError(`minConfidence must be within 0..1, got ${minConfidence}`);
  const depthCache = new Map<string, number>();
  const depth = (id: string): number => {
    let d = depthCache.get(id);
    if (d === undefined) {
      d = ontology.ancestors(id).size;
      depthCache.set(id, d);
    }
    return d;
  };

  const chooseEntry = (
    entries: readonly DictEntry[],
    windowWords: readonly string[],
  ): { entry: DictEntry; ordered: boolean } | undefined => {
    let best: DictEntry | undefined;
    let bestOrdered = false;
    let bestKey = -Infinity;
    for (const e of entries) {
      const ordered =
        e.words.length === windowWords.length && e.words.every((w, k) => w === windowWords[k]);
      // Generated organ phrases are loose; they must match in their own word order.
      if (e.source === 'derived' && !ordered) continue;
      // Scope first, then literal order; a phrase naming both a term and its descendant is
      // only evidence for the more general one.
      const key = e.weight * 1000 + (ordered ? 100 : 0) - Math.min(depth(e.termId), 99);
      if (key > bestKey) {
        bestKey = key;
        best = e;
        bestOrdered = ordered;
      }
    }
    return best ? { entry: best, ordered: bestOrdered } : undefined;
  };

  const findCandidates = (tokens: readonly Token[]): Candidate[] => {
    const n = tokens.length;
    const kinds = new Uint8Array(n);
    const hashes = new Float64Array(n);
    const words: string[] = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const v = dict.lookup((tokens[i] as Token).norm);
      if (!v) continue;
      kinds[i] = v.isStop ? Kind.Stop : v.isModifier ? Kind.Modifier : Kind.Content;
      hashes[i] = v.hash;
      words[i] = v.word;
    }
    const out: Candidate[] = [];
    const maxWords = dict.maxWords;
    const allWords: string[] = [];
    const coreWords: string[] = [];
    for (let i = 0; i < n; i++) {
      if (dict.bySurface.size > 0) {
        const single = dict.bySurface.get(surfaceWord((tokens[i] as Token).raw));
        if (single) {
          const chosen = chooseEntry(single, single[0]?.words ?? []);
          if (chosen) {
            const { entry } = chosen;
            out.push({ first: i, last: i + 1, entry, contentWords: 1, score: entry.weight });
          }
        }
      }
      const ki = kinds[i] as Kind;
      if (ki !== Kind.Content && ki !== Kind.Modifier) continue;
      let sumAll = 0;
      let sumCore = 0;
      allWords.length = 0;
      coreWords.length = 0;
      for (let j = i; j < n; j++) {
        if (j > i && (tokens[j - 1] as Token).breakAfter) break;
        const kj = kinds[j] as Kind;
        if (kj === Kind.Unknown) break;
        if (kj === Kind.Stop) continue;
        const norm = words[j] as string;
        sumAll += hashes[j] ?? 0;
        allWords.push(norm);
        if (kj === Kind.Content) {
          sumCore += hashes[j] ?? 0;
          coreWords.push(norm);
        }
        if (coreWords.length > maxWords) break;
        if (allWords.length <= maxWords) {
          const chosen = chooseEntry(dict.entriesFor(sumAll, allWords), allWords);
          if (
            chosen &&
            (chosen.ordered || !endsInOpenModifier(tokens, j)) &&
            !endsInOrganAdjective(tokens, j)
          ) {
            const { entry, ordered } = chosen;
            out.push({
              first: i,
              last: j + 1,
              entry,
              contentWords: allWords.length,
              score: entry.weight * (ordered ? 1 : 0.93),
            });
          }
        }
        if (ki === Kind.Content && kj === Kind.Content && coreWords.length < allWords.length) {
          const chosen = chooseEntry(dict.entriesFor(sumCore, coreWords), coreWords);
          if (chosen) {
            const { entry, ordered } = chosen;
            out.push({
              first: i,
              last: j + 1,
              entry,
              contentWords: coreWords.length,
              score: entry.weight * (ordered ? 0.9 : 0.85),
            });
          }
        }
      }
    }
    return out;
  };

  /**
   * "hepato-splenomegaly", "up-slanting": a prefix that is no word of the vocabulary (or a
   * direction: up, down) joined by a hyphen forms one word with the next
   * ("hepatosplenomegaly", "upslanting") when the vocabulary has that word. "non-" stays
   * apart (it negates the word after it).
   */
  const joinHyphenated = (text: string, tokens: Token[]): Token[] => {
    if (!tokens.some((t) => t.hyphenNext)) return tokens;
    const out: Token[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const a = tokens[i] as Token;
      const b = tokens[i + 1];
      if (
        b !== undefined &&
        a.hyphenNext &&
        b.start - a.end === 1 &&
        /^\p{L}+$/u.test(a.raw) &&
        /^\p{L}+$/u.test(b.raw) &&
        !/^non$/i.test(a.raw)
      ) {
        const own = dict.lookup(a.norm);
        // A word of its own stays apart ("end-stage", "low-set" are indexed as two words), but
        // for a direction prefix ("up-slanting").
        if (own === undefined || own.isStop || DIRECTION_PREFIX_RE.test(a.raw)) {
          const raw = a.raw + b.raw;
          const norm = normalizeWord(raw);
          const joined = dict.lookup(norm);
          if (joined !== undefined && !joined.isStop && !joined.isModifier) {
            out.push({ ...b, raw, norm, start: a.start, end: b.end });
            i++;
            continue;
          }
        }
      }
      out.push(a);
    }
    return out;
  };

  const selectNonOverlapping = (cands: Candidate[]): Candidate[] => {
    cands.sort(
      (a, b) =>
        b.contentWords - a.contentWords ||
        b.score - a.score ||
        depth(b.entry.termId) - depth(a.entry.termId) ||
        a.last - a.first - (b.last - b.first) ||
        a.first - b.first,
    );
    const taken: Candidate[] = [];
    const used = new Set<number>();
    for (const c of cands) {
      let free = true;
      for (let k = c.first; k < c.last; k++) {
        if (used.has(k)) {
          free = false;
          break;
        }
      }
      if (!free) continue;
      for (let k = c.first; k < c.last; k++) used.add(k);
      taken.push(c);
    }
    return taken.sort((a, b) => a.first - b.first);
  };

  /** Content words (normalised, function words dropped) of tokens [first, last). */
  const contentOf = (tokens: readonly Token[], first: number, last: number): string[] => {
    const out: string[] = [];
    for (let k = first; k < last; k++) {
      const norm = (tokens[k] as Token).norm;
      const v = dict.lookup(norm);
      if (!v?.isStop) out.push(v?.word ?? norm);
    }
    return out;
  };

  const lookupWords = (words: readonly string[], allowDerived = true): DictEntry | undefined => {
    let sum = 0;
    for (const w of words) {
      const v = dict.lookup(w);
      if (!v || v.isStop) return undefined;
      sum += v.hash;
    }
    const entries = dict.entriesFor(sum, words);
    const entry = chooseEntry(
      allowDerived ? entries : entries.filter((e) => e.source !== 'derived'),
      words,
    )?.entry;
    if (entry) return entry;
    // "low serum copper and ceruloplasmin": the skippable modifiers may be left out, as in a
    // mention of its own.
    const core = words.filter((w) => !dict.lookup(w)?.isModifier);
    return core.length < words.length && core.length > 1
      ? lookupWords(core, allowDerived)
      : undefined;
  };

  const abnormalityNouns = new Set(
    ABNORMALITY_NOUNS.map((n) => dict.lookup(normalizeWord(n))?.word ?? normalizeWord(n)),
  );

  /**
   * "<finding> of (the) <modifiers> <organ> and <organ2>": the finding of <organ2> alone, the
   * words between "of" and the first organ left out. Only for a mention that reads "<finding>
   * of ..." (the phrase before "of" is the finding each organ has).
   */
  const ofHeadWithout = (
    tokens: readonly Token[],
    m: Candidate,
    words: readonly string[],
    coordinated: string,
    allowDerived: boolean,
  ): DictEntry | undefined => {
    let of = -1;
    for (let k = m.first + 1; k < m.last - 1; k++)
      if (/^of$/i.test((tokens[k] as Token).raw)) {
        of = k;
        break;
      }
    if (of < 0) return undefined;
    const head = contentOf(tokens, m.first, of);
    // Something must have been left out, or the plain replacement already said it.
    if (head.length === 0 || head.length + 1 >= words.length) return undefined;
    return lookupWords([...head, coordinated], allowDerived);
  };

  /**
   * Coordinated modifiers or heads share the rest of the phrase: "sensorineural, conductive or
   * mixed hearing loss", "subcapsular/capsular cataract", "cleft lip and palate".
   */
  const expandCoordinations = (
    text: string,
    tokens: readonly Token[],
    mentions: readonly Candidate[],
  ): Candidate[] => {
    const out: Candidate[] = [];
    const isConj = (k: number): boolean => /^(and|or|and\/or)$/i.test(tokens[k]?.raw ?? '');
    const gap = (a: number): string =>
      text.slice((tokens[a] as Token).end, (tokens[a + 1] as Token).start);
    const canonical = (k: number): string => {
      const norm = (tokens[k] as Token).norm;
      return dict.lookup(norm)?.word ?? norm;
    };
    const isContent = (k: number): boolean => {
      const v = tokens[k] ? dict.lookup(tokens[k].norm) : undefined;
      return v !== undefined && !v.isStop;
    };
    const inOther = (m: Candidate, k: number): boolean =>
      mentions.some((o) => o !== m && o.first <= k && k < o.last);
    const COPULA_RE = /^(?:is|are|was|were)$/i;
    /**
     * "The ears were small, low-set and posteriorly rotated": after a predicate mention ("ears
     * were small"), a list of predicates that commas open (and "and" / "or" may close) is said
     * of the same subject. An item is one word, a hyphenated pair or an adverb and its word
     * ("posteriorly rotated"); the subject with the item must be a name the ontology gives. An
     * item that is a finding of its own is left to its own mention and ends nothing.
     */
    const predicateList = (m: Candidate, words: readonly string[]): Candidate[] => {
      const found: Candidate[] = [];
      let copula = false;
      for (let k = m.first + 1; k < m.last - 1; k++)
        if (COPULA_RE.test((tokens[k] as Token).raw)) copula = true;
      if (!copula || m.last >= tokens.length || !/^\s*,\s*$/.test(gap(m.last - 1))) return found;
      const subject = words.slice(0, -1);
      let q = m.last;
      for (let step = 0; step < 5 && q < tokens.length; step++) {
        const closing = isConj(q) && /^\s+$/.test(gap(q));
        if (closing) q++;
        let taken = 0;
        for (const len of [2, 1]) {
          const last = q + len - 1;
          if (last >= tokens.length) continue;
          const first = tokens[q] as Token;
          if (len === 2 && !first.hyphenNext && !/ly$/i.test(first.raw)) continue;
          if (len === 2 && first.breakAfter) continue;
          let ok = true;
          for (let r = q; r <= last; r++) if (!isContent(r) || inOther(m, r)) ok = false;
          // The item ends at punctuation, a conjunction or the end of the text.
          const ends =
            (tokens[last] as Token).breakAfter || isConj(last + 1) || last + 1 >= tokens.length;
          if (!ok || !ends) continue;
          const item: string[] = [];
          for (let r = q; r <= last; r++) item.push(canonical(r));
          const entry = lookupWords([...subject, ...item], false);
          if (entry && entry.termId !== m.entry.termId)
            found.push({
              first: m.first,
              last: last + 1,
              entry,
              contentWords: words.length,
              score: entry.weight * 0.85,
            });
          taken = len;
          break;
        }
        if (taken === 0 || closing) break;
        q += taken;
        if (q >= tokens.length || !/^\s*,?\s*$/.test(gap(q - 1))) break;
      }
      return found;
    };
    for (const m of mentions) {
      const words = contentOf(tokens, m.first, m.last);
      if (words.length < 2) continue;
      // Leftwards: replace the first content word by each coordinated word before it.
      let k = m.first;
      let sawConj = false;
      for (let step = 0; step < 5 && k > 0; step++) {
        let w: number;
        const g = gap(k - 1);
        if (
          !sawConj &&
          isConj(k - 1) &&
          /^\s+$/.test(g) &&
          k >= 2 &&
          /^\s*,?\s*$/.test(gap(k - 2))
        ) {
          w = k - 2;
          sawConj = true;
        } else if (/^\s*\/\s*$/.test(g) || (sawConj && /^\s*,\s*$/.test(g))) w = k - 1;
        else break;
        if (!isContent(w)) break;
        // A word that belongs to another finding is not a shared modifier: "triphalangeal thumb
        // and ear anomalies" are no thumb anomalies.
        if (mentions.some((o) => o !== m && o.first <= w && w < o.last)) break;
        const entry = lookupWords([canonical(w), ...words.slice(1)]);
        if (entry)
          out.push({
            first: w,
            last: m.last,
            entry,
            contentWords: words.length,
            score: entry.weight * 0.85,
          });
        k = w;
      }
      // A word written before slash-coordinated modifiers qualifies each of them: "posterior
      // subcapsular/capsular cataract" is a posterior subcapsular and a posterior capsular one.
      if (
        k < m.first &&
        k > 0 &&
        /^\s*\/\s*$/.test(gap(k)) &&
        /^\s+$/.test(gap(k - 1)) &&
        isContent(k - 1)
      ) {
        for (let w = k; w <= m.first; w++) {
          if (w > k && !/^\s*\/\s*$/.test(gap(w - 1))) break;
          const entry = lookupWords([canonical(k - 1), canonical(w), ...words.slice(1)], false);
          if (entry)
            out.push({
              first: k - 1,
              last: m.last,
              entry,
              contentWords: words.length + 1,
              score: entry.weight * 0.85,
            });
        }
      }
      // A range of grades names each end: "mild to moderate global developmental delay" is
      // Mild and Moderate global developmental delay.
      if (
        m.first >= 2 &&
        /^to$/i.test(tokens[m.first - 1]?.raw ?? '') &&
        SEVERITY_RE.test((tokens[m.first] as Token).raw) &&
        SEVERITY_RE.test((tokens[m.first - 2] as Token).raw) &&
        /^\s+$/.test(gap(m.first - 2)) &&
        /^\s+$/.test(gap(m.first - 1))
      ) {
        const grade = canonical(m.first - 2);
        const entry = lookupWords([grade, ...words.slice(1)], true);
        // The term must name that grade (not the finding with the grade skipped).
        if (entry && entry.termId !== m.entry.termId && entry.words.includes(grade))
          out.push({
            first: m.first - 2,
            last: m.last,
            entry,
            contentWords: words.length,
            score: entry.weight * 0.85,
          });
      }
      // Rightwards: "cleft lip and palate" -> replace the last content word; an article may
      // open the second conjunct ("the semicircular canals and the incus").
      const after = m.last;
      const next = /^the$/i.test(tokens[after + 1]?.raw ?? '') ? after + 2 : after + 1;
      if (
        next < tokens.length &&
        isConj(after) &&
        /^\s+$/.test(gap(after - 1)) &&
        isContent(next) &&
        // The coordinated word must end its phrase ("lip and palate", not "lip and palate
        // surgery"); a preposition other than "of" opens a phrase of its own ("the incus with
        // fusion").
        ((tokens[next] as Token).breakAfter ||
          !isContent(next + 1) ||
          /^(with|without|in|at|on|from|by|for|during|since|after|before)$/i.test(
            tokens[next + 1]?.raw ?? '',
          ))
      ) {
        const coordinated = canonical(next);
        // A generated organ phrase is too loose for a coordinated head ("stenosis and
        // manifestations"), but it may take a coordinated organ: "anomalies of the hands and
        // feet" names anomalies of the feet (neither word is the noun of the abnormality).
        const organs =
          !abnormalityNouns.has(words[words.length - 1] as string) &&
          !abnormalityNouns.has(coordinated);
        // The first conjunct's own modifiers need not qualify the second: "hypoplasia of the
        // inferior vermis and cerebellum" is hypoplasia of the cerebellum.
        const entry =
          lookupWords([...words.slice(0, -1), coordinated], organs) ??
          ofHeadWithout(tokens, m, words, coordinated, organs);
        if (entry)
          out.push({
            first: m.first,
            last: next + 1,
            entry,
            contentWords: words.length,
            score: entry.weight * 0.85,
          });
      }
      out.push(...predicateList(m, words));
      // "reduced patellar tendon reflex and ankle reflex": a phrase of two or three words after
      // the conjunction that is no finding of its own takes the mention's first word.
      if (after + 2 < tokens.length && isConj(after) && /^\s+$/.test(gap(after - 1))) {
        const startsMention = mentions.some((o) => o.first <= after + 1 && after + 1 < o.last);
        // "ankle jerks" is the Achilles reflex, not the Myoclonus of "jerks" inside it.
        for (let k = 2; k <= 3 && !startsMention; k++) {
          const end = after + k; // last token of the phrase
          if (end >= tokens.length) break;
          let ok = true;
          for (let q = after + 1; q <= end; q++)
            if (!isContent(q) || (q < end && (tokens[q] as Token).breakAfter)) ok = false;
          if (!ok) break;
          if (!(tokens[end] as Token).breakAfter && isContent(end + 1)) continue;
          const rest: string[] = [];
          for (let q = after + 1; q <= end; q++) rest.push(canonical(q));
          const entry = lookupWords([words[0] as string, ...rest], false);
          if (entry && entry.termId !== m.entry.termId)
            out.push({
              first: after + 1,
              last: end + 1,
              entry,
              contentWords: words.length,
              score: entry.weight * 0.85,
              covers: true,
            });
          break;
        }
      }
    }
    // "a movement and balance disorder": two words sharing the head after the second, where
    // only the first with the head is a name the ontology gives (a label or a synonym, no
    // generated phrase) and nothing in the phrase is a finding already.
    let covered: Uint8Array | undefined;
    for (let c = 1; c + 2 < tokens.length; c++) {
      if (!isConj(c) || !/^\s+$/.test(gap(c - 1)) || !/^\s+$/.test(gap(c))) continue;
      const a = c - 1;
      const head = c + 2;
      if (!isContent(a) || !isContent(c + 1) || !isContent(head)) continue;
      if ((tokens[c + 1] as Token).breakAfter) continue;
      // The head must end its phrase ("movement and balance disorder", not "... disorder clinic").
      if (!(tokens[head] as Token).breakAfter && isContent(head + 1)) continue;
      // Nor may the first word be the end of a longer phrase ("severe movement and ...").
      if (a > 0 && !(tokens[a - 1] as Token).breakAfter && isContent(a - 1)) continue;
      if (!covered) {
        covered = new Uint8Array(tokens.length);
        for (const o of mentions) covered.fill(1, o.first, o.last);
      }
      if (covered[a] || covered[c + 1] || covered[head]) continue;
      const entry = lookupWords([canonical(a), canonical(head)], false);
      if (entry)
        out.push({ first: a, last: head + 1, entry, contentWords: 2, score: entry.weight * 0.85 });
    }
    // "reduced sensory and motor conduction velocity", "short upper and lower limbs": a word
    // before two coordinated modifiers qualifies each, the head after the second is shared.
    // Both readings must be names the ontology gives (no generated phrase).
    for (let c = 2; c + 2 < tokens.length; c++) {
      if (!isConj(c) || !/^\s+$/.test(gap(c - 2)) || !/^\s+$/.test(gap(c - 1))) continue;
      if (!/^\s+$/.test(gap(c))) continue;
      const [w, a, b] = [c - 2, c - 1, c + 1];
      if (!isContent(w) || !isContent(a) || !isContent(b)) continue;
      for (let e = b + 1; e < tokens.length && e <= b + 4; e++) {
        if (!isContent(e) || (tokens[e - 1] as Token).breakAfter) break;
        // The head runs to the end of its phrase (a preposition opens another: "... with").
        const ends =
          (tokens[e] as Token).breakAfter ||
          !isContent(e + 1) ||
          /^(with|without|in|at|on|from|by|for|during|since|after|before)$/i.test(
            tokens[e + 1]?.raw ?? '',
          );
        if (!ends) continue;
        const head: string[] = [];
        for (let q = b + 1; q <= e; q++) head.push(canonical(q));
        const word = canonical(w);
        const first = lookupWords([word, canonical(a), ...head], false);
        const second = lookupWords([word, canonical(b), ...head], false);
        // Each term must name the shared word (not the finding with a modifier skipped).
        if (
          first?.words.includes(word) &&
          second?.words.includes(word) &&
          first.termId !== second.termId
        )
          for (const entry of [first, second])
            out.push({
              first: w,
              last: e + 1,
              entry,
              contentWords: head.length + 2,
              score: entry.weight * 0.85,
            });
        break;
      }
    }
    return out;
  };

  /**
   * A finding said to progress is its progressive form when the HPO names one: "Cataracts
   * progressed with age", "the hearing loss was slowly progressive" -> Progressive cataract,
   * Progressive hearing impairment. The mention is kept; the progressive term spans both.
   */
  const statedProgression = (
    text: string,
    tokens: readonly Token[],
    mentions: readonly Candidate[],
  ): Candidate[] => {
    const out: Candidate[] = [];
    // Where the text says "progress..." at all (most texts: nowhere, or a few places).
    const at: number[] = [];
    PROGRESS_WORD_RE.lastIndex = 0;
    for (let w = PROGRESS_WORD_RE.exec(text); w; w = PROGRESS_WORD_RE.exec(text)) at.push(w.index);
    if (at.length === 0) return out;
    const progressive = canonicalWord(normalizeWord('progressive'));
    for (const m of mentions) {
      const end = (tokens[m.last - 1] as Token).end;
      if (!at.some((i) => i > end && i < end + 60)) continue;
      const said = PROGRESSION_RE.exec(text.slice(end, end + 60));
      if (!said) continue;
      let last = m.last;
      while (last < tokens.length && (tokens[last] as Token).end <= end + said[0].length) last++;
      const entry = lookupWords([progressive, ...contentOf(tokens, m.first, m.last)], false);
      if (entry && entry.termId !== m.entry.termId)
        out.push({
          first: m.first,
          last,
          entry,
          contentWords: m.contentWords,
          score: entry.weight * 0.85,
        });
    }
    return out;
  };

  /**
   * The HPO's synonym "Weakness" is Asthenia (lack of energy and strength), but weakness placed
   * in a body region or muscle group is muscle weakness: "proximal weakness" -> Proximal
   * muscle weakness (the phrase with "muscle" inserted, when the HPO has it), "weakness in
   * feet and legs", "neck weakness" -> Muscle weakness.
   */
  const muscleWeakness = (tokens: readonly Token[], m: Candidate): Candidate => {
    if (m.entry.termId !== ASTHENIA || m.last - m.first !== 1) return m;
    const weaknessTok = tokens[m.first] as Token;
    if (!/^weakness$/i.test(weaknessTok.raw)) return m;
    const before = m.first > 0 ? (tokens[m.first - 1] as Token) : undefined;
    const attached = before !== undefined && !before.breakAfter;
    if (attached) {
      const qualified = lookupWords(
        [canonicalWord(before.norm), canonicalWord(MUSCLE_NORM), canonicalWord(weaknessTok.norm)],
        false,
      );
      // The HPO names "<region> muscle weakness"; "mild muscle weakness" is found as plain
      // Muscle weakness (the modifier skipped) and does not count.
      if (qualified && qualified.termId !== MUSCLE_WEAKNESS)
        return { ...m, first: m.first - 1, entry: qualified, contentWords: 2 };
    }
    let located = attached && BODY_REGION_RE.test(before.raw);
    // "weakness in (both|the|his|her)? feet", "weakness of the neck muscles".
    const prep = tokens[m.first + 1];
    // "weakness of the peroneal and anterior tibial muscles", "weakness grade 4 of the hip
    // flexors": a muscle group named after "in"/"of" in the same clause.
    let site: Token | undefined;
    if (!located && prep && !(tokens[m.first] as Token).breakAfter) {
      let sawPrep = false;
      for (let k = m.first + 1; k < Math.min(tokens.length, m.first + 9); k++) {
        const t = tokens[k] as Token;
        if (sawPrep && BODY_REGION_RE.test(t.raw)) {
          located = true;
          site ??= t;
          break;
        }
        if (sawPrep && !site && !SITE_FUNCTION_WORD_RE.test(t.raw)) site = t;
        if (/^(?:in|of)$/i.test(t.raw)) sawPrep = true;
        else if (
          !sawPrep
            ? !/^(?:mrc|grade|\d+(?:\/\d+)?)$/i.test(t.raw)
            : !(WEAKNESS_SITE_WORD_RE.test(t.raw) || ADJECTIVE_END.test(t.raw))
        )
          break;
        if (t.breakAfter) break;
      }
    }
    // "Facial muscles showed a slight weakness", "the arms showed a grade 4 weakness": the
    // muscles or the region named just before, in the same clause.
    if (!located)
      for (let k = m.first - 1; k >= Math.max(0, m.first - 6); k--) {
        const t = tokens[k] as Token;
        if (t.breakAfter) break;
        if (BODY_REGION_RE.test(t.raw) && !/^(?:proximal|distal)$/i.test(t.raw)) {
          located = true;
          break;
        }
      }
    if (!located) return m;
    // "weakness of the peroneal and anterior tibial muscles" -> Peroneal muscle weakness,
    // "weakness of the neck muscles" -> Neck muscle weakness: the first muscle group named,
    // when the HPO has "<group> muscle weakness".
    if (site && !/^(?:muscles?|muscular)$/i.test(site.raw)) {
      const specific = lookupWords(
        [canonicalWord(site.norm), canonicalWord(MUSCLE_NORM), canonicalWord(weaknessTok.norm)],
        false,
      );
      if (specific && specific.termId !== MUSCLE_WEAKNESS) return { ...m, entry: specific };
    }
    const entry = lookupWords([canonicalWord(MUSCLE_NORM), canonicalWord(weaknessTok.norm)], false);
    return entry ? { ...m, entry } : m;
  };
  const canonicalWord = (norm: string): string => dict.lookup(norm)?.word ?? norm;
  const MUSCLE_NORM = normalizeWord('muscle');

  /**
   * "brachy/plagiocephaly", "hypo/hyperpigmentation": a bound prefix before a slash takes the
   * ending of the word after it ("brachy" + "cephaly" = Brachycephaly) when that names a term
   * in one word. A prefix that names a term itself is a word of its own, and two whole words
   * ("subcapsular/capsular cataract", a coordination read by expandCoordinations) give no
   * joined word.
   */
  const slashPrefixCandidates = (text: string, tokens: readonly Token[]): Candidate[] => {
    const out: Candidate[] = [];
    for (let i = 0; i + 1 < tokens.length; i++) {
      const a = tokens[i] as Token;
      const b = tokens[i + 1] as Token;
      if (text.slice(a.end, b.start).trim() !== '/' || a.raw.length < 3) continue;
      if (!/^\p{L}{3,8}$/u.test(a.raw) || lookupWords([canonicalWord(a.norm)], false)) continue;
      const second = b.raw.toLowerCase();
      // The shortest ending first: "plagiocephaly" gives "cephaly" before "ocephaly".
      for (let k = second.length - 4; k >= 1; k--) {
        const joined = a.raw.toLowerCase() + second.slice(k);
        const entry =
          dict.bySurface.get(surfaceWord(joined))?.[0] ??
          lookupWords([canonicalWord(normalizeWord(joined))], false);
        if (!entry) continue;
        out.push({ first: i, last: i + 1, entry, contentWords: 1, score: entry.weight * 0.9 });
        break;
      }
    }
    return out;
  };

  /** Candidates inside a selected mention whose term is an ancestor of the mention's term. */
  const groupingCache = new Map<string, boolean>();
  /** "Abnormality of the ear", "Abnormal thumb morphology": HPO's organ-level grouping classes. */
  const isGroupingTerm = (id: string): boolean => {
    let g = groupingCache.get(id);
    if (g === undefined) {
      g = GROUPING_LABEL_RE.test(ontology.label(id) ?? '');
      groupingCache.set(id, g);
    }
    return g;
  };

  const categoryCache = new Map<string, PhenomeCategory>();
  const category = (id: string): PhenomeCategory => {
    let c = categoryCache.get(id);
    if (c === undefined) {
      c = categoryOf(ontology, id);
      categoryCache.set(id, c);
    }
    return c;
  };

  const compositionalOnly = options.nested === 'compositional';
  const isComposition = (tokens: readonly Token[], m: Candidate, ancestor: string): boolean => {
    if (ontology.isA(ancestor, NEOPLASM)) return true;
    if (isGradedOf(ontology.label(m.entry.termId), ontology.label(ancestor))) return true;
    for (let k = m.first; k + 1 < m.last; k++)
      if (
        /^(type|class|grade)$/i.test((tokens[k] as Token).raw) &&
        SUBTYPE_RE.test((tokens[k + 1] as Token).raw)
      )
        return true;
    return false;
  };

  const nestedAncestors = (
    tokens: readonly Token[],
    mentions: readonly Candidate[],
    candidates: readonly Candidate[],
  ): Candidate[] => {
    const byFirst = new Map<number, Candidate[]>();
    for (const c of candidates) {
      const list = byFirst.get(c.first);
      if (list) list.push(c);
      else byFirst.set(c.first, [c]);
    }
    const out: Candidate[] = [];
    for (const m of mentions) {
      if (m.last - m.first < 2) continue;
      const seen = new Set<string>([m.entry.termId]);
      for (let f = m.first; f < m.last; f++) {
        for (const c of byFirst.get(f) ?? []) {
          if (c.last > m.last || (c.first === m.first && c.last === m.last)) continue;
          const id = c.entry.termId;
          if (seen.has(id) || !ontology.isA(m.entry.termId, id)) continue;
          if (compositionalOnly && !isComposition(tokens, m, id)) continue;
          seen.add(id);
          out.push({ ...c, nested: true });
        }
      }
    }
    return out;
  };

  /**
   * "skeletal anomalies of the hands": the organ after "of" is where the anomaly is, the
   * adjective the tissue. Where a grouping mention ("skeletal anomalies") is followed by "of" and
   * a grouping mention starts at its noun and runs past it ("anomalies of the hands"), the
   * first gives way to the second (whose coordination then reads "... and feet").
   */
  const locatedAnomalies = (tokens: readonly Token[], cands: readonly Candidate[]): Candidate[] =>
    cands.filter(
      (a) =>
        !(
          /^of$/i.test(tokens[a.last]?.raw ?? '') &&
          isGroupingTerm(a.entry.termId) &&
          cands.some(
            (b) => b.first === a.last - 1 && b.last > a.last + 1 && isGroupingTerm(b.entry.termId),
          )
        ),
    );

  const extract = (text: string): PhenomeTerm[] => {
    if (typeof text !== 'string') throw new TypeError('extract(text): text must be a string');
    const tokens = joinHyphenated(text, tokenize(text));
    if (tokens.length === 0) return [];
    // A recurrence name the text does not support ("fractures of the long bones", a synonym of
    // Recurrent long bone fractures) is no candidate: it would hide the mentions inside it.
    const candidates = [
      ...findCandidates(tokens).filter(
        (c) =>
          !readsNegationAsWord(tokens, c) &&
          !unsupportedRecurrence(tokens, c, ontology.label(c.entry.termId) ?? ''),
      ),
      ...slashPrefixCandidates(text, tokens),
    ];
    let mentions = selectNonOverlapping(locatedAnomalies(tokens, candidates)).map((m) =>
      muscleWeakness(tokens, m),
    );
    const coordinated = expandCoordinations(text, tokens, mentions);
    const covering = coordinated.filter((c) => c.covers);
    if (covering.length > 0)
      mentions = mentions.filter(
        (m) => !covering.some((c) => c.first <= m.first && m.last <= c.last),
      );
    mentions = [...mentions, ...coordinated, ...statedProgression(text, tokens, mentions)];
    if (options.nested) {
      // Two graded mentions of one finding ("mild to moderate X") nest the same X once.
      const seen = new Set<string>();
      mentions = [...mentions, ...nestedAncestors(tokens, mentions, candidates)].filter((m) => {
        const key = `${m.entry.termId}:${m.first}:${m.last}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    mentions = applyAbbreviations(text, tokens, mentions);
    mentions = senseAbbreviations(text, tokens, mentions);
    if (options.labValues) mentions = [...mentions, ...labMentions(text, tokens, mentions)];
    mentions = [...mentions, ...milestoneMentions(text, tokens, mentions)];
    mentions = [
      ...mentions,
      ...computedMentions(text, tokens, mentions, findGrowthFindings(text), 'growth'),
      ...computedMentions(text, tokens, mentions, findOnsetStatements(text), 'onset'),
    ];
    mentions.sort((a, b) => a.first - b.first || b.last - a.last);
    if (mentions.length === 0) return [];
    const context = new ContextAnalyzer(text, tokens);
    let regions = options.clinicalSectionsOnly ? clinicalRegions(text) : undefined;
    // The title and abstract summarise what the case sections describe in full (and the
    // disease in general): with case sections present, they are the patient's record.
    if (regions && regions.length > 1 && regions[0]?.start === 0) regions = regions.slice(1);
    // A sectioned article describes its patient by specific findings; its "skeletal
    // anomalies" or "facial features" summarise the disease or a series, so HPO grouping terms
    // are not reported from it.
    const article =
      regions !== undefined &&
      !(regions.length === 1 && regions[0]?.start === 0 && regions[0].end === text.length);

    const caseReport = article || isCaseReport(text);
    const out: PhenomeTerm[] = [];
    for (const m of mentions) {
      const startTok = tokens[m.first] as Token;
      const endTok = tokens[m.last - 1] as Token;
      if (regions && !regions.some((r) => startTok.start >= r.start && endTok.end <= r.end))
        continue;
      if (article && isGroupingTerm(m.entry.termId)) continue;
      if (looseOrganPhrase(text, tokens, m, isGroupingTerm(m.entry.termId))) continue;
      if (unsupportedRecurrence(tokens, m, ontology.label(m.entry.termId) ?? '')) continue;
      const computed =
        m.entry.source === 'lab' ||
        m.entry.source === 'milestone' ||
        m.entry.source === 'growth' ||
        m.entry.source === 'onset';
      if (!computed && namesSomethingElse(text, tokens, m, caseReport)) continue;
      if (!computed && otherSenseOf(tokens, m, ontology.label(m.entry.termId) ?? '', organs))
        continue;
      if (!computed && eponymDisease(text, tokens, m) && !ontology.isA(m.entry.termId, NEOPLASM))
        continue;
      // In a case report, statements about the disease or a population are not the patient's.
      if (caseReport && context.isGenericStatement(m.first) && !onTableRow(text, startTok.start))
        continue;
      const ctx = context.analyse(m.first, m.last);
      // An onset statement may name its owner inside it ("onset in her brother was at 12 years").
      if (m.entry.source === 'onset' && context.analyse(m.last - 1, m.last).subject === 'family')
        ctx.subject = 'family';
      // "a non-encephalopathic liver disorder", "non-dysmorphic": the prefix negates the word.
      if (!computed && negatedByPrefix(text, tokens, m.first)) ctx.negated = true;
      // "Seizures: no", "splenomegaly (-)": the value a note writes after the finding decides.
      const value = computed ? undefined : fieldValue(text, endTok.end);
      if (value !== undefined) ctx.negated = value === 'absent';
      if (!computed && queried(text, startTok.start, endTok.end)) ctx.uncertain = true;
      const confidence = round3(m.score * (ctx.uncertain ? 0.6 : 1));
      if (confidence < minConfidence) continue;
      const term: PhenomeTerm = {
        id: m.entry.termId,
        category: category(m.entry.termId),
        label: ontology.label(m.entry.termId) ?? m.entry.termId,
        start: startTok.start,
        end: endTok.end,
        text: text.slice(startTok.start, endTok.end),
        negated: ctx.negated,
        subject: ctx.subject,
        confidence,
      };
      if (ctx.uncertain) term.uncertain = true;
      if (m.nested) term.nested = true;
      if (m.entry.source === 'lab') term.lab = true;
      out.push(term);
    }
    return readTables(text, out, article);
  };

  /** Abnormal laboratory values not already named by an overlapping mention of the same term. */
  const labMentions = (
    text: string,
    tokens: readonly Token[],
    mentions: readonly Candidate[],
  ): Candidate[] => computedMentions(text, tokens, mentions, findLabValues(text), 'lab');

  /** Milestones reached late ("walked at 24 months"), unless named at the same place already. */
  const milestoneMentions = (
    text: string,
    tokens: readonly Token[],
    mentions: readonly Candidate[],
  ): Candidate[] =>
    computedMentions(text, tokens, mentions, findMilestoneDelays(text), 'milestone');

  const computedMentions = (
    text: string,
    tokens: readonly Token[],
    mentions: readonly Candidate[],
    findings: readonly { id: string; start: number; end: number }[],
    source: 'lab' | 'milestone' | 'growth' | 'onset',
  ): Candidate[] => {
    const out: Candidate[] = [];
    for (const f of findings) {
      const id = ontology.resolve(f.id);
      if (!id) continue;
      const range = tokenRange(tokens, f.start, f.end);
      if (!range) continue;
      const { first, last } = range;
      // Named at the same place already, or more precisely ("mildly elevated creatine kinase").
      const named = (t: string): boolean => t === id || ontology.isA(t, id) || ontology.isA(id, t);
      if (mentions.some((m) => named(m.entry.termId) && m.first < last && first < m.last)) continue;
      const entry: DictEntry = {
        termId: id,
        source,
        weight: SCOPE_WEIGHT[source],
        words: [],
        text: text.slice(f.start, f.end),
      };
      out.push({ first, last, entry, contentWords: last - first, score: entry.weight });
    }
    return out;
  };

  /**
   * Abbreviations with several clinical senses ("BPD", "ASD") read by their context
   * (abbreviations.ts) instead of the one sense a dictionary gives or none; not where the text
   * defines the short form itself, nor inside a longer mention ("decreased BPD").
   */
  const senseAbbreviations = (
    text: string,
    tokens: readonly Token[],
    mentions: readonly Candidate[],
  ): Candidate[] => {
    const out = [...mentions];
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i] as Token;
      const sf = contextShortForm(tok.raw);
      if (sf === undefined || definesAbbreviation(text, sf)) continue;
      const at = out.findIndex((m) => m.first <= i && i < m.last);
      const own = at >= 0 && (out[at] as Candidate).last - (out[at] as Candidate).first === 1;
      if (at >= 0 && !own) continue;
      if (own) out.splice(at, 1);
      const sense = abbreviationSense(text, sf, tok.start, tok.end);
      const id = sense ? ontology.resolve(sense) : undefined;
      if (!id) continue;
      const entry: DictEntry = {
        termId: id,
        source: 'abbreviation',
        weight: SCOPE_WEIGHT.abbreviation,
        words: [],
        text: tok.raw,
      };
      out.push({ first: i, last: i + 1, entry, contentWords: 1, score: entry.weight });
    }
    return out.sort((a, b) => a.first - b.first);
  };

  const contextOf = (text: string, start: number, end: number): MentionContext => {
    if (!(start >= 0 && end >= start && end <= text.length))
      throw new RangeError(`span ${start}..${end} outside text of length ${text.length}`);
    const tokens = tokenize(text);
    if (tokens.length === 0) return { negated: false, uncertain: false, subject: 'patient' };
    // A span after the last token takes the last token's context.
    const { first, last } = tokenRange(tokens, start, end) ?? {
      first: tokens.length - 1,
      last: tokens.length,
    };
    return new ContextAnalyzer(text, tokens).analyse(first, Math.max(last, first + 1));
  };

  return {
    extract,
    extractFindings: (text) => separateModifiers(extract(text)),
    contextOf,
    ontologyVersion: ontology.version,
    stats: { terms: dict.termCount, phrases: dict.entryCount, skippedLexicon: dict.skippedLexicon },
  };
}

/**
 * The value a note writes right after a finding, as a field ("Seizures: no", "Hepatomegaly:
 * absent", "anemia: present") or a sign in brackets ("splenomegaly (-)", "ataxia (neg)",
 * "hepatomegaly (+)"), ending at punctuation or the line's end: not a value that continues
 * ("Seizures: no history of ..."), a number ("Ataxia: -2 points") or a range of signs ("(+/-)").
 */
const FIELD_ABSENT = String.raw`[-−–]|no|none|nil|neg(?:ative)?|absent|not\s+(?:present|seen|found|observed)`;
const FIELD_PRESENT = String.raw`\+{1,3}|yes|present|pos(?:itive)?`;
const FIELD_VALUE_RE = new RegExp(
  String.raw`^\s*(?:\(\s*(?:(${FIELD_ABSENT})|(${FIELD_PRESENT}))\s*\)|[:=]\s*(?:(${FIELD_ABSENT})|(${FIELD_PRESENT}))(?=\s*(?:[.,;)]|
|$)))`,
  'i',
);

/** The query mark of a note on a finding: "?seizures", "anemia?" (not "(why?)"). */
function queried(text: string, start: number, end: number): boolean {
  return (
    /(?:^|[\s,;:(])\?$/.test(text.slice(Math.max(0, start - 2), start)) ||
    /^\?(?:[\s.,;)]|$)/.test(text.slice(end, end + 2))
  );
}

export function fieldValue(text: string, end: number): 'absent' | 'present' | undefined {
  const m = FIELD_VALUE_RE.exec(text.slice(end, end + 24));
  if (!m) return undefined;
  return m[1] !== undefined || m[3] !== undefined ? 'absent' : 'present';
}

/** A cell that marks a finding present in one column's patient ("+", "√", "yes", "present"). */
const PRESENT_MARK_RE = /^(?:\+{1,3}|\+\/[-−–]|[√✓✔xX]|yes|y|present|affected)$/i;
/** A cell that marks it absent ("-", "no", "absent", "none"). */
const ABSENT_MARK_RE = /^(?:[-−–—]|no|n|absent|none|not present|unaffected)$/i;
/** A cell that says nothing either way ("NA", "?", "not assessed"). */
const UNKNOWN_MARK_RE =
  /^(?:n\/?a|nd|n\.?d\.?|\?|unknown|not (?:assessed|known|tested|examined|reported|available))$/i;

/**
 * How a table row marks the finding named in its first cell: the other cells hold one
 * presence mark per patient ("Seizures  +  -  +"). 'present' when any column marks it present,
 * 'absent' when every marked column marks it absent, undefined when the row is not such a
 * row (values, references, free text) or the mention is not in its first cell.
 */
export function tableRowMark(
  text: string,
  start: number,
  end: number,
): 'present' | 'absent' | undefined {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nl = text.indexOf('\n', end);
  const line = text.slice(lineStart, nl < 0 ? text.length : nl);
  if (!line.includes('\t')) return undefined;
  const cells = line.split('\t');
  const first = cells.findIndex((c) => c.trim() !== '');
  if (first < 0) return undefined;
  // The mention must lie in the row's first non-empty cell (the row header).
  let offset = lineStart;
  for (let k = 0; k < first; k++) offset += (cells[k] as string).length + 1;
  if (start < offset || end > offset + (cells[first] as string).length) return undefined;
  let present = false;
  let absent = false;
  for (const raw of cells.slice(first + 1)) {
    const cell = raw.trim();
    if (cell === '' || UNKNOWN_MARK_RE.test(cell)) continue;
    if (PRESENT_MARK_RE.test(cell)) present = true;
    else if (ABSENT_MARK_RE.test(cell)) absent = true;
    else return undefined;
  }
  return present ? 'present' : absent ? 'absent' : undefined;
}

/**
 * Table rows (tab-separated cells). A row that marks its finding per patient ("Scoliosis  -  +
 * +") is read as it says: present when any patient has it, negated when every marked patient
 * lacks it. In a sectioned article, any other row tabulates a series of patients or the
 * literature, so a term named only in such rows and never in the prose is not reported; a
 * laboratory value in a table is the table's own finding and stays.
 */
function readTables(text: string, terms: PhenomeTerm[], article: boolean): PhenomeTerm[] {
  if (!text.includes('\t')) return terms;
  const marks = terms.map((t) => (t.lab === true ? undefined : tableRowMark(text, t.start, t.end)));
  const read = terms.map((t, i) => {
    const mark = marks[i];
    if (mark === undefined) return t;
    return { ...t, negated: mark === 'absent' };
  });
  if (!article) return read;
  const inTable = (t: PhenomeTerm): boolean => {
    const lineStart = text.lastIndexOf('\n', t.start) + 1;
    const lineEnd = text.indexOf('\n', t.end);
    const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
    return line.includes('\t') || betweenTableRows(text, lineStart, line);
  };
  const table = read.map(inTable);
  const inProse = new Set(read.filter((_, i) => !table[i]).map((t) => t.id));
  return read.filter(
    (t, i) => !table[i] || marks[i] !== undefined || inProse.has(t.id) || t.lab === true,
  );
}

/** Lines without cells that still sit inside a table, at most (a sub-heading and a row). */
const TABLE_GAP_LINES = 3;

/**
 * A short line without cells between table rows ("Delayed eruption of permanent teeth" with its
 * empty cells left out, under a sub-heading "Teeth"): a row of the table, not prose. The lines
 * of the run up and down to the nearest tab-separated row are all short and end no sentence.
 */
function betweenTableRows(text: string, lineStart: number, line: string): boolean {
  const rowLike = (l: string): boolean =>
    l.trim() !== '' && !/[.;:!?]\s*$/.test(l) && l.trim().split(/\s+/).length <= 8;
  if (!rowLike(line)) return false;
  const lineEnd = lineStart + line.length;
  const lines = (from: number, step: -1 | 1): string[] => {
    const out: string[] = [];
    let at = from;
    for (let k = 0; k <= TABLE_GAP_LINES; k++) {
      if (step < 0) {
        if (at <= 0) break;
        const start = text.lastIndexOf('\n', at - 2) + 1;
        out.push(text.slice(start, at - 1));
        at = start;
      } else {
        if (at >= text.length) break;
        const end = text.indexOf('\n', at + 1);
        out.push(text.slice(at + 1, end < 0 ? text.length : end));
        at = end < 0 ? text.length : end;
      }
    }
    return out;
  };
  const reachesRow = (run: string[]): boolean => {
    for (const l of run) {
      if (l.includes('\t')) return true;
      if (!rowLike(l)) return false;
    }
    return false;
  };
  return reachesRow(lines(lineStart, -1)) && reachesRow(lines(lineEnd, 1));
}

const PROGRESS_WORD_RE = /\bprogress(?:ive|ed)\b/gi;
/** "was (slowly) progressive", "progressed": the predicate that says a finding progresses. */
const PROGRESSION_RE =
  /^\s+(?:(?:was|were|is|are|became|has\s+been|have\s+been|had\s+been)\s+(?:(?:slowly|rapidly|very|steadily)\s+)?progressive|(?:(?:slowly|rapidly|steadily)\s+)?progressed)\b/i;
/** Grades of severity that a range joins ("mild to moderate", "moderate-to-severe"). */
const SEVERITY_RE = /^(?:mild|moderate|severe|profound)$/i;
const NEOPLASM = 'HP:0002664';
const ASTHENIA = 'HP:0025406';
const MUSCLE_WEAKNESS = 'HP:0001324';
/** Body regions and muscle groups in which weakness is muscle weakness. */
const BODY_REGION_RE =
  /^(?:limbs?|legs?|arms?|hands?|feet|foot|neck|face|facial|trunk|truncal|shoulders?|hips?|thighs?|muscles?|muscular|extremit(?:y|ies)|proximal|distal|pyramidal|flexors?|extensors?|quadriceps|deltoids?|biceps|triceps|girdle|axial|bulbar|limb)$/i;
/** Words between "weakness of" and the muscle group it names ("of both upper and lower limbs"). */
const WEAKNESS_SITE_WORD_RE =
  /^(?:the|both|his|her|their|all|four|upper|lower|left|right|distal|proximal|and|or|anterior|posterior)$/i;
/** Capitalised words before a finding that name no disease: a patient or a place in a table. */
const EPONYM_EXCEPTIONS = new Set([
  'patient',
  'case',
  'proband',
  'mild',
  'severe',
  'moderate',
  'marked',
  'bilateral',
  'chronic',
]);
/** Words before the muscle group after "weakness of" that name none ("of both the left ..."). */
const SITE_FUNCTION_WORD_RE = /^(?:the|both|his|her|their|all|four|left|right|and|or)$/i;
const GROUPING_LABEL_RE = /^(?:abnormality of\b|abnormal .+ morphology$)/i;

/**
 * The body's parts as the ontology names them: the words of its organ grouping labels
 * ("Abnormality of the liver", "Abnormal joint morphology"), normalised as tokens are.
 */
function organWords(ontology: Ontology): ReadonlySet<string> {
  const out = new Set<string>();
  for (const term of ontology.terms.values()) {
    const m =
      /^abnormality of (?:the )?(.+)$/i.exec(term.label) ??
      /^abnormal (.+) morphology$/i.exec(term.label);
    for (const w of (m?.[1] ?? '').split(/[\s,/-]+/))
      if (w.length > 2 && !/^(?:and|or|the|of)$/i.test(w)) out.add(normalizeWord(w));
  }
  return out;
}
/** Who an "of" phrase may name beside an organ ("hypersensitivity of the patient"). */
const PERSON_RE =
  /^(?:patients?|probands?|child(?:ren)?|boys?|girls?|infants?|siblings?|brothers?|sisters?|him|her|them|individuals?|strangers?|people|others|adults?|peers?)$/i;

/**
 * A one-word exact synonym that drops its term's qualifier ("Hypersensitivity" of Emotional
 * hypersensitivity, "Contracture" of Joint contracture) followed by "of" and what is neither a
 * body part the ontology names nor a person: the word in another sense ("hypersensitivity of
 * erythroid progenitors to EPO", "a contracture of 10°").
 */
function otherSenseOf(
  tokens: readonly Token[],
  m: Candidate,
  label: string,
  organs: ReadonlySet<string>,
): boolean {
  if (m.last - m.first !== 1 || m.entry.source !== 'exact' || m.entry.words.length !== 1)
    return false;
  const synonym = m.entry.text.toLowerCase();
  const labelWords = label.toLowerCase().split(/[\s-]+/);
  if (labelWords.length < 2 || !labelWords.includes(synonym)) return false;
  // The qualifier dropped names a site ("Joint", "Hepatic"): an organ after "of" is that site
  // said another way ("contracture of the elbow"); otherwise ("Emotional") no organ is.
  const siteQualifier = labelWords.some((w) => w !== synonym && organs.has(normalizeWord(w)));
  const word = tokens[m.first] as Token;
  const of = tokens[m.last];
  if (word.breakAfter || of === undefined || !/^of$/i.test(of.raw) || of.breakAfter) return false;
  for (let k = m.last + 1; k < Math.min(tokens.length, m.last + 5); k++) {
    const t = tokens[k] as Token;
    if (SITE_FUNCTION_WORD_RE.test(t.raw) && !t.breakAfter) continue;
    return !(siteQualifier && organs.has(t.norm)) && !PERSON_RE.test(t.raw);
  }
  return false;
}

/** Prepositions that do not attach an abnormality to an organ ("disease on brain imaging"). */
const NOT_OF_ORGAN_RE = /^(?:on|at|with|for|by|from|to|after|before|during|than|as)$/i;

/**
 * An organ grouping term read from a generated phrase ("brain disease", "ophthalmic finding")
 * that the text does not say: the words joined by another preposition than "of"/"in" ("moyamoya
 * disease on brain imaging"), or the adjective part of a hyphenated one ("a neuro-ophthalmic
 * finding" is no eye finding).
 */
function looseOrganPhrase(
  text: string,
  tokens: readonly Token[],
  m: Candidate,
  grouping: boolean,
): boolean {
  if (!grouping || m.entry.source !== 'derived') return false;
  for (let k = m.first + 1; k < m.last - 1; k++)
    if (NOT_OF_ORGAN_RE.test((tokens[k] as Token).raw)) return true;
  if (m.first === 0) return false;
  const before = tokens[m.first - 1] as Token;
  // "non-skeletal findings" is a negation (negatedByPrefix), not another adjective.
  return (
    /^[-‐‑]$/.test(text.slice(before.end, (tokens[m.first] as Token).start)) &&
    !/^non$/i.test(before.raw)
  );
}

const RECURRENT_LABEL_RE = /^recurrent\b/i;
const RECURRENCE_RE =
  /^(recurr\w*|repeat\w*|frequent\w*|multiple|several|numerous|many|episod\w*|relaps\w*|chronic)$/i;

/**
 * "Recurrent fractures" has the synonym "Fractures", but "a fracture of the femur" does not say
 * that fractures recur: a synonym that drops the label's "Recurrent" needs a word of
 * recurrence in or just before the mention.
 */
function unsupportedRecurrence(tokens: readonly Token[], m: Candidate, label: string): boolean {
  if (!RECURRENT_LABEL_RE.test(label) || m.entry.source === 'label') return false;
  if (/recurr|repeat|frequent|multiple|episod/i.test(m.entry.text)) return false;
  for (let k = Math.max(0, m.first - 4); k < m.last; k++)
    if (RECURRENCE_RE.test((tokens[k] as Token).raw)) return false;
  return true;
}
/** Words that end the name of a rating instrument ("Glasgow Coma Scale", "Autism Rating Scale"). */
const INSTRUMENT_RE =
  /^(?:scales?|ratings?|questionnaires?|inventory|inventories|checklists?|schedules?|quotient)$/i;
/** Words that make "aspiration" or "biopsy"-like nouns a procedure ("bone marrow aspiration"). */
const PROCEDURE_BEFORE_RE =
  /^(?:marrow|needle|aspirate|suction|endotracheal|tracheal|nasogastric)$/i;
const PROCEDURE_NOUN_RE = /^aspirations?$/i;
/** Direction prefixes that the HPO writes solid ("Upslanted", "Downslanted"). */
const DIRECTION_PREFIX_RE = /^(?:up|down)$/i;
/** Things that carry an identifier ("Patient ID", "Sample IDs"). */
const IDENTIFIED_RE =
  /^(?:patients?|samples?|subjects?|family|families|cases?|individuals?|participants?|study|specimens?|records?)$/i;
/** Head nouns of a disease name: a phenotype word right before them names the disease. */
/** "genes for", "gene panel associated with", then up to three words of the disease's name. */
const GENES_FOR_RE =
  /\b(?:genes?|panels?)\s+(?:for|associated\s+with|related\s+to|causing|responsible\s+for|implicated\s+in)\s+(?:the\s+)?(?:[\p{L}\d-]+\s+){0,3}$/iu;
const DISEASE_HEAD_RE = /^(?:syndromes?|diseases?|\p{L}*dysplasias?)$/iu;

/**
 * A phenotype word used as part of another name: a rating instrument ("Glasgow Coma Scale",
 * "Childhood Autism Rating Scale": the words right after the mention, capitalised, end in
 * Scale/Rating/Questionnaire...), a procedure ("bone marrow aspiration") or a disease ("acromicric
 * dysplasia"; in a case report any finding right before syndrome/disease/dysplasia).
 */
function namesSomethingElse(
  text: string,
  tokens: readonly Token[],
  m: Candidate,
  caseReport: boolean,
): boolean {
  const last = tokens[m.last - 1] as Token;
  if (!last.breakAfter) {
    for (let k = m.last; k < Math.min(tokens.length, m.last + 3); k++) {
      const t = tokens[k] as Token;
      if (INSTRUMENT_RE.test(t.raw)) return true;
      // Only a capitalised name continues ("Autism Diagnostic Observation Schedule").
      if (!/^\p{Lu}/u.test(t.raw) || t.breakAfter) break;
    }
  }
  // "acromicric dysplasia", and in a case report "chronic fatigue syndrome": a finding's words
  // naming a disease (an abstract's "basal cell carcinoma syndrome" also names the finding).
  const next = tokens[m.last];
  const first = tokens[m.first] as Token;
  // An author cited by name: "Comas (1975)", "Hurst et al.".
  if (
    /^\p{Lu}/u.test(first.raw) &&
    /^[\s’']*(?:et\s+al\b|\(\s*(?:1[89]|20)\d\d\b|and\s+\p{Lu}\p{Ll}+\s+\(\s*(?:1[89]|20)\d\d\b)/u.test(
      text.slice(last.end, last.end + 40),
    )
  )
    return true;
  // A species' Latin epithet after its genus: "Streptococcus pneumoniae", "Neisseria meningitidis".
  if (m.last - m.first === 1 && m.first > 0 && /^\p{Ll}+(?:ae|idis)$/u.test(first.raw)) {
    const genus = tokens[m.first - 1] as Token;
    if (!genus.breakAfter && /^\p{Lu}\p{Ll}{2,}$/u.test(genus.raw)) return true;
  }
  // "the brachydactyly type A1 gene", "the cataract locus".
  const designated =
    next !== undefined && !next.breakAfter && SUBTYPE_RE.test(next.raw) ? tokens[m.last + 1] : next;
  if (
    !last.breakAfter &&
    designated !== undefined &&
    /^(?:genes?|locus|loci)$/i.test(designated.raw)
  )
    return true;
  if (
    !last.breakAfter &&
    next !== undefined &&
    DISEASE_HEAD_RE.test(next.raw) &&
    (caseReport || (m.last - m.first === 1 && ADJECTIVE_END.test(last.raw)))
  )
    return true;
  // What genes or a gene panel are for ("133 candidate genes for hereditary motor sensory
  // neuropathy", "a panel of genes associated with skeletal dysplasia") names a disease
  // searched for, not a finding, in a case report (an abstract's "the gene for nevoid basal
  // cell carcinoma syndrome" also names the finding, as above).
  if (caseReport && GENES_FOR_RE.test(text.slice(Math.max(0, first.start - 80), first.start)))
    return true;
  // A procedure that reports a result ("Aspiration showed active marrow") is no finding.
  if (
    m.last - m.first === 1 &&
    PROCEDURE_NOUN_RE.test(last.raw) &&
    !last.breakAfter &&
    /^\s*(?:showed|shows|revealed|reveals|demonstrated|disclosed|yielded|confirmed|was\s+(?:performed|done|repeated))\b/i.test(
      text.slice(last.end, last.end + 30),
    )
  )
    return true;
  if (m.last - m.first === 1 && PROCEDURE_NOUN_RE.test(last.raw) && m.first > 0) {
    let b = m.first - 1;
    // "bone marrow (BM) aspiration": the abbreviation in brackets between.
    if (
      b > 0 &&
      /^\p{Lu}{2,5}$/u.test((tokens[b] as Token).raw) &&
      /\(\s*$/.test(text.slice((tokens[b - 1] as Token).end, (tokens[b] as Token).start))
    )
      b--;
    const before = tokens[b] as Token;
    if (PROCEDURE_BEFORE_RE.test(before.raw) && (b < m.first - 1 || !before.breakAfter))
      return true;
  }
  // Everyday phrases: "falling asleep", "fall short of", "fall into two groups", "values fall
  // within the range" are no fall, "dried blood spots" (a newborn screening sample) no
  // purpura, "the collecting system / ducts" (anatomy) no Collectionism.
  if (
    next !== undefined &&
    !last.breakAfter &&
    m.last - m.first === 1 &&
    /^(?:fall|falls|fell|falling)$/i.test(first.raw) &&
    /^(?:asleep|short|into|within|outside|under|below|above|between|apart|behind)$/i.test(next.raw)
  )
    return true;
  if (
    next !== undefined &&
    !last.breakAfter &&
    /^collecting$/i.test(last.raw) &&
    /^(?:systems?|ducts?|tubules?)$/i.test(next.raw)
  )
    return true;
  if (m.first > 0 && /^blood$/i.test(first.raw) && /^spots?$/i.test(last.raw)) {
    const before = tokens[m.first - 1] as Token;
    if (!before.breakAfter && /^(?:dried|dry)$/i.test(before.raw)) return true;
  }
  // "Patient ID", "sample IDs": an identifier, not Intellectual disability.
  // An identifier code after it ("ID AN_002501") says the same.
  if (m.last - m.first === 1 && /^IDs?$/.test(first.raw)) {
    let b = m.first - 1;
    // "Patient(s) ID"
    if (b > 0 && /^s$/i.test((tokens[b] as Token).raw)) b--;
    const before = tokens[b];
    if (
      before !== undefined &&
      IDENTIFIED_RE.test(before.raw) &&
      /^(?:\(s\))?\s*$/i.test(text.slice(before.end, first.start))
    )
      return true;
    if (/^\s*[:#]?\s*[A-Z]+[_-]?\d/i.test(text.slice(first.end, first.end + 20))) return true;
  }
  return false;
}

/**
 * "non-encephalopathic", "non-syndromic": the mention starts right after "non-". Not in
 * "skeletal and non-skeletal findings", which names both.
 */
/**
 * "Absence of seizures" / "lack of X" negate X: the noun does not take part in a phrase that
 * uses it as a word of another sense ("Absence seizure" from "absence of seizures"). A phrase
 * that says "absence of" itself or names the absence in other words ("absence of the corpus
 * callosum" -> Absent corpus callosum) still matches.
 */
function readsNegationAsWord(tokens: readonly Token[], c: Candidate): boolean {
  if (c.last - c.first < 3) return false;
  const first = (tokens[c.first] as Token).raw.toLowerCase();
  if (
    (first !== 'absence' && first !== 'lack') ||
    (tokens[c.first + 1] as Token).raw.toLowerCase() !== 'of'
  )
    return false;
  return new RegExp(`\\b${first}\\b(?! of\\b)`, 'i').test(c.entry.text);
}

/**
 * A disease named by an eponym and a finding: "Fanconi anemia", "Diamond-Blackfan anemia". The
 * name is capitalised in mid-sentence (not a title in title case: the finding is lower-case)
 * and joined to a one-word finding. (A neoplasm so named is still one: "Hodgkin lymphoma".)
 */
function eponymDisease(text: string, tokens: readonly Token[], m: Candidate): boolean {
  const first = tokens[m.first] as Token;
  if (m.last - m.first !== 1 || m.first === 0 || !/^\p{Ll}/u.test(first.raw)) return false;
  const name = tokens[m.first - 1] as Token;
  const before = m.first > 1 ? (tokens[m.first - 2] as Token) : undefined;
  const gapBefore = before ? text.slice(before.end, name.start) : '\n';
  // After "(" a capital is a name when the parenthesis spells out the acronym before it:
  // "FACC (Fanconi anemia, group C)".
  const spellsOut =
    before !== undefined &&
    /^\s*\(\s*$/.test(gapBefore) &&
    /^\p{Lu}{2,6}$/u.test(before.raw) &&
    before.raw[0] === name.raw[0];
  return (
    !name.breakAfter &&
    /^\p{Lu}\p{Ll}{2,}$/u.test(name.raw) &&
    (spellsOut || !/[.!?:;\n\t(]/.test(gapBefore)) &&
    !EPONYM_EXCEPTIONS.has(name.raw.toLowerCase())
  );
}

function negatedByPrefix(text: string, tokens: readonly Token[], first: number): boolean {
  if (first === 0) return false;
  const before = tokens[first - 1] as Token;
  const gap = text.slice(before.end, (tokens[first] as Token).start);
  if (!/^non$/i.test(before.raw) || !/^[-‐‑]$/.test(gap)) return false;
  const conj = tokens[first - 2];
  const pair = tokens[first - 3];
  const word = (tokens[first] as Token).raw.toLowerCase();
  return !(
    conj !== undefined &&
    pair !== undefined &&
    /^(?:and|or)$/i.test(conj.raw) &&
    pair.raw.toLowerCase() === word
  );
}

/** The length from which a text is a full article rather than an abstract or a note. */
const FULL_TEXT_CHARS = 3000;
const REPORTS_A_CASE_RE =
  /\b(?:our (?:patient|proband|case)s?|we (?:report|describe|present)|case (?:report|presentation))\b/i;

/**
 * A full-text case report, with or without section headings: long, and it reports its own
 * patient ("we report", "our patient", "Case presentation"). Unlike an abstract or a disease
 * summary, what it says about the disease in general is not the patient's phenotype.
 */
function isCaseReport(text: string): boolean {
  return text.length >= FULL_TEXT_CHARS && REPORTS_A_CASE_RE.test(text);
}

/** The line of this offset is a table row (tab-separated cells). */
function onTableRow(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  return text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).includes('\t');
}

/**
 * "Severe intellectual disability" of Intellectual disability: a term that is another one graded
 * by severity, the finding named in its own right ("severe mental retardation" states
 * intellectual disability, and says how severe).
 */
function isGradedOf(label: string | undefined, ancestorLabel: string | undefined): boolean {
  if (label === undefined || ancestorLabel === undefined) return false;
  const rest = /^(?:mild|moderate|severe|profound)\s+(.+)$/i.exec(label)?.[1];
  return rest !== undefined && rest.toLowerCase() === ancestorLabel.toLowerCase();
}

/** "C", "A1", "2", "II": the designation after "type". */
const SUBTYPE_RE = /^(?:[A-Z]\d?|\d{1,2}[A-Z]?|[IVX]{1,4})$/;

const ADJECTIVE_END = /(al|ar|ic|ous|ary|ive)$/i;

/**
 * "hyperplasia of the mandibular coronoid processes": a reordered match whose last word is an
 * adjective followed by more words names something else than the phrase it resembles.
 */
function endsInOpenModifier(tokens: readonly Token[], last: number): boolean {
  const t = tokens[last] as Token;
  const next = tokens[last + 1];
  return (
    next !== undefined && !t.breakAfter && ADJECTIVE_END.test(t.raw) && /^\p{L}/u.test(next.raw)
  );
}

/**
 * "aplasia of the ulnar rays", "small cerebellar hemispheres": an organ's adjective read as its
 * noun (normalize.ts) ends no mention when a word it qualifies follows; the phrase names that
 * word ("ulnar ray"), not the organ.
 */
function endsInOrganAdjective(tokens: readonly Token[], last: number): boolean {
  const t = tokens[last] as Token;
  const next = tokens[last + 1];
  return (
    next !== undefined && !t.breakAfter && /^\p{L}/u.test(next.raw) && isAnatomicalAdjective(t.raw)
  );
}

/** Tokens [first, last) overlapping the characters [start, end); undefined when none follow start. */
function tokenRange(
  tokens: readonly Token[],
  start: number,
  end: number,
): { first: number; last: number } | undefined {
  const first = tokens.findIndex((t) => t.end > start);
  if (first < 0) return undefined;
  let last = first;
  while (last < tokens.length && (tokens[last] as Token).start < end) last++;
  return { first, last };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

// "long form (SF)": a short form of 2-10 characters with at least two capitals.
const REVERSE_DEFINITION_RE = /\b([A-Z][A-Za-z0-9]{1,9})\s*\(([A-Za-z][^()]{2,80})\)/g;
const DEFINITION_RE = /\(\s*([A-Za-z][A-Za-z0-9-]{0,8}[A-Za-z0-9])s?\s*[),;]/g;

/** The text defines `sf` itself: "long form (SF)" or "SF (long form)". */
function definesAbbreviation(text: string, sf: string): boolean {
  return new RegExp(String.raw`\(\s*${sf}s?\s*[),;]|\b${sf}\s*\([A-Za-z]`).test(text);
}

/**
 * Propagates in-text abbreviation definitions. When the words just before "(SF)" were matched
 * to a term, every occurrence of SF is a mention of that term; when they were not, SF is not a
 * phenotype in this document and a dictionary abbreviation must not reinterpret it.
 */
function applyAbbreviations(
  text: string,
  tokens: readonly Token[],
  mentions: Candidate[],
): Candidate[] {
  if (!text.includes('(')) return mentions;
  const defined = new Map<string, DictEntry | null>();
  const endByTokenEnd = new Map<number, Candidate>();
  for (const m of mentions) endByTokenEnd.set(m.last - 1, m);
  const tokenIndexByStart = new Map<number, number>();
  for (let i = 0; i < tokens.length; i++) tokenIndexByStart.set((tokens[i] as Token).start, i);
  DEFINITION_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DEFINITION_RE.exec(text)) !== null) {
    const sf = m[1] ?? '';
    if ((sf.match(/[A-Z]/g) ?? []).length < 2) continue;
    const sfStart = m.index + m[0].indexOf(sf);
    const sfTok = tokenIndexByStart.get(sfStart);
    if (sfTok === undefined || sfTok === 0) continue;
    const long = endByTokenEnd.get(sfTok - 1);
    // The long form must account for the short form's first letter (Schwartz & Hearst).
    const isLongForm =
      long !== undefined &&
      tokens
        .slice(long.first, long.last)
        .some((t) => t.raw[0]?.toLowerCase() === sf[0]?.toLowerCase());
    if (isLongForm) defined.set(sf, long.entry);
    else if (!defined.has(sf)) defined.set(sf, null);
  }
  // Reverse definitions "SF (long form)": the short form is defined even when nothing was
  // matched, which keeps an ontology abbreviation from reinterpreting it ("the BO (branchio-oto)
  // syndrome" is not Body odor).
  REVERSE_DEFINITION_RE.lastIndex = 0;
  while ((m = REVERSE_DEFINITION_RE.exec(text)) !== null) {
    const sf = m[1] ?? '';
    const long = m[2] ?? '';
    if ((sf.match(/[A-Z]/g) ?? []).length < 2 || defined.has(sf)) continue;
    if (long[0]?.toLowerCase() !== sf[0]?.toLowerCase()) continue;
    const longStart = m.index + m[0].indexOf('(') + 1;
    const inside = mentions.find(
      (c) =>
        (tokens[c.first] as Token).start >= longStart &&
        (tokens[c.last - 1] as Token).end <= longStart + long.length,
    );
    defined.set(
      sf,
      inside && inside.last - inside.first === long.trim().split(/[\s-]+/).length
        ? inside.entry
        : null,
    );
  }
  if (defined.size === 0) return mentions;
  const kept: Candidate[] = [];
  const covered = new Set<number>();
  for (const c of mentions) {
    const raw = c.last - c.first === 1 ? (tokens[c.first] as Token).raw : undefined;
    const sf =
      raw === undefined
        ? undefined
        : defined.has(raw)
          ? raw
          : defined.has(raw.replace(/s$/, ''))
            ? raw.replace(/s$/, '')
            : undefined;
    if (sf !== undefined) {
      const entry = defined.get(sf);
      if (!entry) continue;
      kept.push({ ...c, entry, score: entry.weight * 0.9 });
    } else kept.push(c);
    for (let k = c.first; k < c.last; k++) covered.add(k);
  }
  for (let i = 0; i < tokens.length; i++) {
    if (covered.has(i)) continue;
    const raw = (tokens[i] as Token).raw;
    const entry = defined.get(raw) ?? defined.get(raw.replace(/s$/, ''));
    if (!entry) continue;
    kept.push({ first: i, last: i + 1, entry, contentWords: 1, score: entry.weight * 0.9 });
  }
  return kept.sort((a, b) => a.first - b.first);
}
