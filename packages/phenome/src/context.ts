/**
 * Sentence segmentation and the context of a mention: negation (NegEx-style pre/post triggers
 * with pseudo-triggers and scope terminators), the experiencer (patient or a relative) and
 * hedging. Works on the token stream so offsets stay exact.
 */
import type { Token } from './normalize.ts';

export type TriggerKind =
  'neg-pre' | 'neg-post' | 'neg-both' | 'unc-pre' | 'unc-post' | 'pseudo' | 'family-pre' | 'term';

interface Trigger {
  words: string[];
  kind: TriggerKind;
}

function triggers(kind: TriggerKind, phrases: readonly string[]): Trigger[] {
  return phrases.map((p) => ({ words: p.split(' '), kind }));
}

// Lower-case word sequences. The longest trigger starting at a token wins, so a pseudo-trigger
// ("not be ruled out", "with or without") shadows the shorter real trigger it contains.
const TRIGGERS: Trigger[] = [
  ...triggers('pseudo', [
    'not only',
    'not necessarily',
    'no longer',
    'not infrequently',
    'not uncommon',
    'not uncommonly',
    'not unusual',
    'no change',
    'no increase',
    'no significant change',
    'with or without',
    'or without',
    'not all',
    'gram negative',
  ]),
  ...triggers('unc-pre', [
    'possible',
    'possibly',
    'probable',
    'probably',
    'suspected',
    'suspect',
    'suspicion of',
    'suspicious for',
    'questionable',
    'query',
    'presumed',
    'presumably',
    'may have',
    'might have',
    'could have',
    'rule out',
    // "r/o" of notes (the slash splits the tokens).
    'r o',
    'to rule out',
    'cannot exclude',
    'can not exclude',
    'could not exclude',
    'not exclude',
    'cannot rule out',
    'could not rule out',
    'not rule out',
    'differential diagnosis',
    'concern for',
  ]),
  ...triggers('unc-post', [
    'cannot be excluded',
    'can not be excluded',
    'could not be excluded',
    'not be excluded',
    'cannot be ruled out',
    'could not be ruled out',
    'not be ruled out',
    'was suspected',
    'were suspected',
    'is suspected',
    'are suspected',
    'is possible',
    'was possible',
    'is questionable',
    'was questionable',
    'may be absent',
    'might be absent',
    'can be absent',
    'could be absent',
  ]),
  ...triggers('neg-pre', [
    'no',
    'not',
    'without',
    'denies',
    'denied',
    'deny',
    'denying',
    'never',
    'nor',
    'neither',
    'negative for',
    // "Eye examination was negative for X": longer than the post-trigger "was negative".
    'was negative for',
    'were negative for',
    'is negative for',
    'are negative for',
    'was negative with respect to',
    'were negative with respect to',
    'negative with respect to',
    'excluding',
    'we excluded',
    'we ruled out',
    'absence of',
    'free of',
    'lack of',
    'lacks',
    'lacked',
    'lacking',
    'fails to reveal',
    'failed to reveal',
    'failed to show',
    'did not have',
    'does not have',
    'do not have',
    'did not show',
    'does not show',
    'did not develop',
    'did not exhibit',
    'not have',
    'not had',
    'not show',
    'not showed',
    'not develop',
    'not developed',
    'not exhibit',
    'not reveal',
    'not demonstrate',
    "didn't have",
    "doesn't have",
    "don't have",
    'has no',
    'had no',
    'have no',
    'showed no',
    'shows no',
    'never had',
    'never developed',
    'unremarkable for',
    // "None of the patients had X, Y or Z": the verb is part of the trigger, not a terminator.
    'none had',
    'none showed',
    'none developed',
    'none of them had',
    'none of them showed',
    'none of the patients had',
    'none of the patients showed',
    'none of the patients developed',
    'none of these patients had',
    'none of the affected had',
    'none of the children had',
    'none of the siblings had',
    'resolution of',
  ]),
  ...triggers('neg-post', [
    'absent',
    'was absent',
    'were absent',
    'not observed',
    'not seen',
    'not present',
    'not found',
    'not detected',
    'not noted',
    'not identified',
    'not evident',
    'not apparent',
    // Not "not reported": a case report's "X was not reported in this syndrome before" claims a
    // new feature of its patient.
    'not documented',
    'not recorded',
    'was negative',
    'were negative',
    'was excluded',
    'were excluded',
    'resolved',
    'unlikely',
    'seemed unlikely',
    'within normal range',
    'within normal ranges',
    'within the normal range',
    'within normal limits',
    'within the normal limits',
    'was normal',
    'were normal',
  ]),
  // Before or after the mention: "we ruled out X and Y", "X was ruled out".
  ...triggers('neg-both', ['ruled out']),
  ...triggers('family-pre', [
    'family history of',
    'family history',
    'history in the family of',
    'familial history of',
  ]),
  ...triggers('term', [
    'but',
    'however',
    'although',
    'though',
    'except',
    'apart from',
    'aside from',
    'which',
    'who',
    'whom',
    'whose',
    'whereas',
    'while',
    'yet',
    'nevertheless',
    'nonetheless',
    'still',
    'because',
    'since',
    'is',
    'are',
    'was',
    'were',
    'has',
    'have',
    'had',
    'showed',
    'shows',
    'developed',
    'presented',
    'exhibited',
    'displayed',
    'revealed',
    'demonstrated',
    'can',
    'could',
    'may',
    'might',
    'should',
    'would',
    'will',
    // What is denied is the cause, not the finding after it: "no hormonal or systemic cause of
    // growth retardation was identified", "no explanation for the seizures was found".
    'cause of',
    'causes of',
    'explanation for',
    'explanation of',
    'reason for',
    'etiology of',
    'aetiology of',
  ]),
];

const TRIGGERS_BY_FIRST = new Map<string, Trigger[]>();
for (const t of TRIGGERS) {
  const first = t.words[0] ?? '';
  const list = TRIGGERS_BY_FIRST.get(first);
  if (list) list.push(t);
  else TRIGGERS_BY_FIRST.set(first, [t]);
}
for (const list of TRIGGERS_BY_FIRST.values()) list.sort((a, b) => b.words.length - a.words.length);

/** The owner a possessive names ("sister's" -> "sister", "parents'" -> "parents"). */
function possessor(word: string): string {
  return word.endsWith("'s") ? word.slice(0, -2) : word.endsWith("s'") ? word.slice(0, -1) : word;
}

const FAMILY_WORDS = new Set([
  'mother',
  'father',
  'parent',
  'parents',
  'sister',
  'sisters',
  'brother',
  'brothers',
  'sibling',
  'siblings',
  'sib',
  'sibs',
  'aunt',
  'aunts',
  'uncle',
  'uncles',
  'cousin',
  'cousins',
  'grandmother',
  'grandfather',
  'grandparent',
  'grandparents',
  'niece',
  'nephew',
  'relative',
  'relatives',
  'mom',
  'dad',
  // The patient's own children and spouse ("her first daughter presented tall stature"); "the
  // first son of healthy parents" is the patient ("X of" is skipped below).
  'daughter',
  'daughters',
  'son',
  'sons',
  'grandson',
  'granddaughter',
  'husband',
  'wife',
  'offspring',
]);

/** Words naming the patient: they end a relative's scope ("his mother ..., and he has ..."). */
const PATIENT_WORDS = new Set([
  'patient',
  'patients',
  'proband',
  'probands',
  'he',
  'she',
  'index',
  'boy',
  'girl',
  'infant',
  'we',
]);
const PREPOSITIONS = new Set(['to', 'of', 'from', 'by', 'between', 'with']);
/** Words that start another phrase between a mention and a post-trigger. */
const JOINING_WORDS = new Set(['with', 'and', 'or', 'but', 'whereas', 'while', 'plus']);

/** Wording of a statement about a disease or a population (lower-case tokens joined by spaces). */
const GENERIC_RE = new RegExp(
  ' (?:' +
    [
      'characteri[sz]ed by',
      'is distinguished',
      'are distinguished',
      'manifestations of',
      '(?:features|findings|signs|manifestations|these) (?:\\S+ ){0,4}include',
      'have been (?:described|reported|observed|found)',
      'has been (?:described|reported|observed|found)',
      'been associated',
      'is associated',
      'are associated',
      'classically',
      'such as',
      'e g',
      'criteria',
      '\\d+ of (?:the )?(?:reported )?(?:patients|cases|individuals|affected)',
      'of (?:the )?(?:reported )?(?:patients|cases|individuals) with',
      // A disease as the subject: "Marden-Walker syndrome also shows A and B", "patients with
      // Lowe syndrome present A" (a differential diagnosis or the literature).
      '(?:syndrome|disease|disorder)s? (?:also )?(?:shows?|exhibits?|presents? with)',
      'patients with (?:\\S+ ){1,4}(?:syndrome|disease|disorder) (?:present|have|show|exhibit|develop)',
      '(?:less|more|fewer) than \\d+',
    ].join('|') +
    ') ',
);
/**
 * Wording of a statement about molecules or an experiment, not about a person: "a residue of
 * the hydrophobic side chain", "transfected into human osteosarcoma U2OS cells", "knockout
 * mice show ...". In a case report such a sentence names no finding of the patient (unless it
 * names the patient too).
 */
const MOLECULAR_RE =
  / (?:residues?|side chains?|amino acids?|hydrophobic\S*|hydrophilic\S*|transfect\S*|cell lines?|plasmids?|in vitro|knock ?(?:out|down|in)|mice|zebrafish|drosophila|animals|animal models?|mouse models?|murine|canine|rats) /;
/** Words that name a patient of the article ("our" only before a patient word: "our patient"). */
const OWN_PATIENT_RE = /^(?:he|she|his|her|him|proband|probands|index|p\d+|ii|iii|iv)$/;
const OUR_PATIENT_RE =
  / our (?:\S+ )?(?:patients?|probands?|cases?|child|children|boy|girl|family|families|subjects?|index) /;

/** Abbreviations after which a full stop does not end a sentence. */
const NO_BREAK_BEFORE_DOT = new Set([
  'e',
  'g',
  'i',
  'eg',
  'ie',
  'al',
  'fig',
  'figs',
  'vs',
  'dr',
  'mr',
  'mrs',
  'ms',
  'no',
  'approx',
  'ca',
  'cf',
  'st',
  'resp',
]);

/** Negation triggers whose scope ends at the next punctuation mark. */
const PHRASE_SCOPED = new Set(['without', 'absence of', 'lack of', 'lacking', 'free of']);

/** Maximum distance (tokens) between a trigger and the mention it governs. */
const PRE_SCOPE = 12;
const POST_SCOPE = 5;
const FAMILY_SCOPE = 14;
/** Longest item (tokens) of a list that a negation is distributed over. */
const LIST_ITEM_MAX = 6;

export interface MentionContext {
  negated: boolean;
  uncertain: boolean;
  subject: 'patient' | 'family';
}

interface TriggerHit {
  kind: TriggerKind;
  start: number;
  end: number;
}

/** Sentence index of every token (a new sentence after . ! ? ; or a blank line). */
export function sentenceIds(text: string, tokens: readonly Token[]): Int32Array {
  const ids = new Int32Array(tokens.length);
  let s = 0;
  for (let i = 0; i < tokens.length; i++) {
    ids[i] = s;
    const t = tokens[i] as Token;
    const next = tokens[i + 1];
    if (!next || !t.breakAfter) continue;
    const gap = text.slice(t.end, next.start);
    if (/[!?;]|\n\s*\n/.test(gap)) s++;
    else if (/\.\s/.test(gap) || /\.$/.test(gap)) {
      const startsSentence = /^[\p{Lu}\p{N}]/u.test(next.raw);
      const lower = t.raw.toLowerCase();
      // "No." is "number" only before one ("no. 3", "accession no. NM_0011"): "Seizures: no.
      // Hypotonia: yes." are two sentences.
      const abbrev =
        (NO_BREAK_BEFORE_DOT.has(lower) && (lower !== 'no' || /\d/.test(next.raw))) ||
        (t.raw.length === 1 && /\p{Lu}/u.test(t.raw));
      if (startsSentence && !abbrev) s++;
    } else if (/\n/.test(gap) && /^[\p{Lu}]/u.test(next.raw) && /[.:]\s*\n/.test(gap)) s++;
  }
  return ids;
}

/** Context analyser for one document: triggers are found once per sentence, lazily. */
export class ContextAnalyzer {
  private readonly lower: string[];
  private readonly sentences: Int32Array;
  private readonly hitsBySentence = new Map<number, TriggerHit[]>();
  private readonly sentenceStart: Int32Array;
  private readonly sentenceEnd: Int32Array;
  /** The characters between token i and token i + 1 (to the end of the text for the last). */
  private readonly gaps: string[];

  constructor(
    text: string,
    private readonly tokens: readonly Token[],
  ) {
    this.gaps = tokens.map((t, i) => text.slice(t.end, tokens[i + 1]?.start ?? text.length));
    this.lower = tokens.map((t) => t.raw.toLowerCase().replace(/’/g, "'"));
    this.sentences = sentenceIds(text, tokens);
    const count = tokens.length === 0 ? 0 : (this.sentences[tokens.length - 1] ?? 0) + 1;
    this.sentenceStart = new Int32Array(count).fill(-1);
    this.sentenceEnd = new Int32Array(count);
    for (let i = 0; i < tokens.length; i++) {
      const s = this.sentences[i] ?? 0;
      if (this.sentenceStart[s] === -1) this.sentenceStart[s] = i;
      this.sentenceEnd[s] = i + 1;
    }
  }

  sentenceOf(tokenIndex: number): number {
    return this.sentences[tokenIndex] ?? 0;
  }

  private readonly genericCache = new Map<number, boolean>();

  /**
   * The sentence of this token states what a disease or a population shows rather than what
   * a patient has: "X is a rare dysplasia characterized by A, B and C", "hip malformations,
   * such as A or B, develop in 70% of patients", "A and B have been described". It names no
   * patient of the article ("our", "the proband", "he", "P1", "case 2" ...). A statement
   * about molecules or an experiment ("a residue of the hydrophobic side chain", "transfected
   * into osteosarcoma cells") is treated the same way.
   */
  isGenericStatement(tokenIndex: number): boolean {
    const sentence = this.sentenceOf(tokenIndex);
    const cached = this.genericCache.get(sentence);
    if (cached !== undefined) return cached;
    const from = this.sentenceStart[sentence] ?? 0;
    const to = this.sentenceEnd[sentence] ?? 0;
    const words = this.lower.slice(from, to);
    // A run-on "sentence" of table cells is not a statement.
    if (words.length > 200) {
      this.genericCache.set(sentence, false);
      return false;
    }
    const joined = ` ${words.join(' ')} `;
    const namesPatient =
      words.some((w) => OWN_PATIENT_RE.test(w)) ||
      OUR_PATIENT_RE.test(joined) ||
      /\b(?:the|this|both|two|three|all|affected) (?:patients?|probands?|siblings?|sibs|children|boys?|girls?|cases?|brothers?|sisters?)\b/.test(
        joined,
      );
    let generic = (GENERIC_RE.test(joined) || MOLECULAR_RE.test(joined)) && !namesPatient;
    // An item of a list that a colon introduces and semicolons separate ("the minor criteria
    // were ascertained, including the following: dysmorphic signs, e.g., A; dermatological
    // signs, i.e., B, C; ...") is read with its lead-in: each item is a clause of its own here.
    if (!generic && !namesPatient && sentence > 0 && this.listItemOf(sentence))
      generic = this.isGenericStatement(this.sentenceStart[sentence - 1] ?? 0);
    this.genericCache.set(sentence, generic);
    return generic;
  }

  /** The sentence follows a semicolon in a list that a colon opened earlier in the chain. */
  private listItemOf(sentence: number): boolean {
    for (let s = sentence; s > 0; s--) {
      const first = this.sentenceStart[s] ?? 0;
      if (!(this.gaps[first - 1] ?? '').includes(';')) return false;
      const from = this.sentenceStart[s - 1] ?? 0;
      for (let i = from; i < first - 1; i++) if ((this.gaps[i] ?? '').includes(':')) return true;
    }
    return false;
  }

  private hits(sentence: number): TriggerHit[] {
    const cached = this.hitsBySentence.get(sentence);
    if (cached) return cached;
    const out: TriggerHit[] = [];
    const from = this.sentenceStart[sentence] ?? 0;
    const to = this.sentenceEnd[sentence] ?? 0;
    for (let i = from; i < to;) {
      const cands = TRIGGERS_BY_FIRST.get(this.lower[i] ?? '');
      let matched: Trigger | undefined;
      if (cands) {
        for (const c of cands) {
          if (i + c.words.length > to) continue;
          let ok = true;
          for (let k = 1; k < c.words.length; k++) {
            if (this.lower[i + k] !== c.words[k]) {
              ok = false;
              break;
            }
          }
          if (ok) {
            matched = c;
            break;
          }
        }
      }
      if (matched) {
        out.push({ kind: matched.kind, start: i, end: i + matched.words.length });
        i += matched.words.length;
      } else i++;
    }
    this.hitsBySentence.set(sentence, out);
    return out;
  }

  /** Context of the mention spanning tokens [start, end). */
  analyse(start: number, end: number): MentionContext {
    const sentence = this.sentenceOf(start);
    const hits = this.hits(sentence);
    let negated = false;
    let uncertain = false;
    // Pre-triggers: the closest governing trigger before the mention, not cut by a terminator.
    for (let h = hits.length - 1; h >= 0; h--) {
      const hit = hits[h] as TriggerHit;
      if (hit.end > start) continue;
      if (hit.kind === 'term') break;
      if (start - hit.end > PRE_SCOPE) break;
      // "without X, Y" and "absence of X, Y": the scope is the first phrase only; "no X, Y
      // or Z" governs the whole list.
      if (
        hit.kind === 'neg-pre' &&
        this.isPhraseScoped(hit) &&
        this.crossesPunctuation(hit.end, start) &&
        !this.inParenthesisedList(hit, hits, start, end) &&
        !this.inOrList(hit, hits, end)
      )
        break;
      if (hit.kind === 'neg-pre' || hit.kind === 'neg-both') negated = true;
      else if (hit.kind === 'unc-pre') uncertain = true;
      else continue;
      if (negated) break;
    }
    // Post-triggers: right after the mention, within the same clause (no punctuation).
    for (const hit of hits) {
      if (hit.start < end) continue;
      if (hit.start - end > POST_SCOPE) {
        // "Seizures, hypotonia and ataxia were absent": the list ends before the trigger.
        if (this.postNegatesList(start, end, hit, hits)) negated = true;
        break;
      }
      if (hit.kind === 'term' && !this.isCopulaBeforePost(hit, hits)) break;
      if (
        this.crossesPunctuation(end - 1, hit.start) ||
        // "spasticity with increased patellar and absent Achilles reflexes": the trigger
        // belongs to another phrase joined by a preposition or conjunction.
        this.joinsAnotherPhrase(end, hit.start)
      ) {
        if (this.postNegatesList(start, end, hit, hits)) negated = true;
        break;
      }
      if (hit.kind === 'neg-post' || hit.kind === 'neg-both') negated = true;
      else if (hit.kind === 'unc-post') uncertain = true;
    }
    if (uncertain && negated) negated = false;
    return { negated, uncertain, subject: this.subject(start, end, hits) };
  }

  /**
   * "The lack of other distinguishing features (A, B, and C)": a parenthesis right after the
   * negated phrase lists what it names, so the negation governs the items inside it. True
   * when [start, end) lies inside such a parenthesis, the negated phrase before it is one
   * short phrase, and nothing in between ends the clause.
   */
  private inParenthesisedList(
    hit: TriggerHit,
    hits: readonly TriggerHit[],
    start: number,
    end: number,
  ): boolean {
    let open = -1;
    for (let k = hit.end; k < start; k++) {
      const gap = this.gaps[k] ?? '';
      if (gap.includes('(')) {
        if (open >= 0 || /[^\s(]/.test(gap)) return false;
        open = k + 1;
      } else if (open < 0 && this.tokens[k]?.breakAfter) return false;
      else if (open >= 0 && /[^\s,]/.test(gap)) return false;
    }
    if (open < 0 || open - hit.end > LIST_ITEM_MAX) return false;
    // The parenthesis closes after the mention, within the sentence.
    const to = this.sentenceEnd[this.sentenceOf(start)] ?? 0;
    let closed = false;
    for (let k = end - 1; k < to; k++) {
      const gap = this.gaps[k] ?? '';
      if (gap.includes(')')) {
        closed = true;
        break;
      }
      if (/[^\s,]/.test(gap)) return false;
    }
    return closed && !hits.some((h) => h.kind === 'term' && h.start >= hit.end && h.start < start);
  }

  /**
   * "without complications, seizures or hypotonia", "absence of A, B, or C": a list closed by
   * "or"/"nor" right after a phrase-scoped negation is negated as a whole (with "and" the list
   * may go on with positive findings, "deafness without cataract, seizures and hypotonia", so
   * only its first phrase is). The items are short, separated by commas, hold no verb or
   * other trigger, and the mention ends inside the list.
   */
  private inOrList(hit: TriggerHit, hits: readonly TriggerHit[], end: number): boolean {
    const to = this.sentenceEnd[this.sentenceOf(hit.start)] ?? 0;
    let item = 0;
    for (let k = hit.end; k < to; k++) {
      if (hits.some((h) => h.start === k)) return false;
      const w = this.lower[k] ?? '';
      if (w === 'and') return false;
      if (++item > LIST_ITEM_MAX) return false;
      if (w === 'or' || w === 'nor') {
        // The last item runs to the end of its phrase.
        let last = k + 1;
        while (last < to && !this.tokens[last - 1]?.breakAfter && last - k <= LIST_ITEM_MAX) last++;
        return end <= last;
      }
      if (this.tokens[k]?.breakAfter) {
        if (/[^\s,]/.test(this.gaps[k] ?? '')) return false;
        item = 0;
      }
    }
    return false;
  }

  /**
   * A negation after a coordinated list that opens its clause covers every item: "Seizures,
   * hypotonia and ataxia were absent", "Cataract and deafness were not observed". The list
   * runs from the start of the sentence (or of the clause after a colon) to the trigger, its
   * items are short and separated by commas or a last "and"/"or", it holds no verb, and the
   * trigger is a copula form ("were absent", "was not observed", "were normal").
   */
  private postNegatesList(
    start: number,
    end: number,
    found: TriggerHit,
    hits: readonly TriggerHit[],
  ): boolean {
    // The copula is a hit of its own before the trigger ("were" + "not observed").
    const hit = found.kind === 'term' ? (hits.find((h) => h.start === found.end) ?? found) : found;
    if (hit.kind !== 'neg-post' && hit.kind !== 'neg-both') return false;
    const copula = /^(?:is|are|was|were)$/;
    const before = hits.find((h) => h.end === hit.start);
    if (
      !copula.test(this.lower[hit.start] ?? '') &&
      !(before && copula.test(this.lower[before.start] ?? ''))
    )
      return false;
    const listEnd = before && before.kind === 'term' ? before.start : hit.start;
    const sentence = this.sentenceOf(start);
    let from = this.sentenceStart[sentence] ?? 0;
    for (let k = start - 1; k >= from; k--) {
      if (/:/.test(this.gaps[k] ?? '')) {
        from = k + 1;
        break;
      }
    }
    if (from >= listEnd || end > listEnd) return false;
    if (hits.some((h) => h.start >= from && h.start < listEnd)) return false;
    let item = 0;
    let coordinated = false;
    for (let k = from; k < listEnd; k++) {
      const w = this.lower[k] ?? '';
      if (w === 'and' || w === 'or') {
        coordinated = true;
        item = 0;
        continue;
      }
      if (++item > LIST_ITEM_MAX) return false;
      const gap = this.gaps[k] ?? '';
      if (k + 1 < listEnd && this.tokens[k]?.breakAfter) {
        if (/[^\s,]/.test(gap)) return false;
        item = 0;
      }
    }
    return coordinated;
  }

  private isPhraseScoped(hit: TriggerHit): boolean {
    return PHRASE_SCOPED.has(this.lower.slice(hit.start, hit.end).join(' '));
  }

  /** "seizures were absent": the copula is part of the post-trigger phrase, not a terminator. */
  private isCopulaBeforePost(hit: TriggerHit, hits: readonly TriggerHit[]): boolean {
    const next = hits.find((h) => h.start === hit.end);
    return (
      next !== undefined &&
      (next.kind === 'neg-post' || next.kind === 'neg-both' || next.kind === 'unc-post')
    );
  }

  private joinsAnotherPhrase(from: number, to: number): boolean {
    for (let k = from; k < to; k++) if (JOINING_WORDS.has(this.lower[k] ?? '')) return true;
    return false;
  }

  private crossesPunctuation(from: number, to: number): boolean {
    for (let k = from; k < to; k++) if (this.tokens[k]?.breakAfter) return true;
    return false;
  }

  private subject(start: number, end: number, hits: readonly TriggerHit[]): 'patient' | 'family' {
    for (const hit of hits) {
      if (hit.kind === 'family-pre' && hit.end <= start && start - hit.end <= FAMILY_SCOPE)
        return 'family';
    }
    const sentence = this.sentenceOf(start);
    const from = this.sentenceStart[sentence] ?? 0;
    // A relative as the subject before the mention: "his mother has cataracts", or its owner:
    // "his sister's polydactyly".
    for (let k = start - 1; k >= from && start - k <= FAMILY_SCOPE; k--) {
      const w = possessor(this.lower[k] ?? '');
      if (PATIENT_WORDS.has(w)) break;
      if (FAMILY_WORDS.has(w) && w !== this.lower[k]) return 'family';
      if (FAMILY_WORDS.has(w)) {
        if (this.lower[k + 1] === 'of') break;
        let isObject = false;
        for (let p = k - 1; p >= from && p >= k - 3; p--) {
          if (PREPOSITIONS.has(this.lower[p] ?? '')) isObject = true;
        }
        if (!isObject) return 'family';
        break;
      }
    }
    // A relative after the mention: "cataracts in his mother", "seen in two sibs", "the
    // polydactyly of his brother", "of the proband's sister" (a possessive is the relative's
    // determiner, not the subject).
    const to = this.sentenceEnd[sentence] ?? 0;
    const closed = this.tokens[end - 1]?.breakAfter ?? true;
    for (let k = end; !closed && k < to && k <= end + 4; k++) {
      if (this.lower[k] === 'in' || this.lower[k] === 'of') {
        for (let f = k + 1; f < to && f <= k + 3; f++) {
          const raw = this.lower[f] ?? '';
          const w = possessor(raw);
          if (FAMILY_WORDS.has(w)) return 'family';
          if (PATIENT_WORDS.has(w) && w === raw) break;
        }
        break;
      }
      if (this.tokens[k]?.breakAfter) break;
    }
    return 'patient';
  }
}
