/**
 * The age at onset stated in free text, as the HPO Onset term (HP:0003674 subtree) its age falls
 * in: "onset at 7 years" -> Juvenile onset, "seizures began at 3 months" -> Infantile onset,
 * "hypotonia from birth" -> Congenital onset, "presented at 45 years" -> Middle age onset,
 * "since early childhood" -> Childhood onset, "the cataracts were congenital" -> Congenital onset.
 *
 * Only statements that say when something began are read: an onset noun ("onset", "age at
 * onset"), a verb of beginning or first notice ("began", "started", "appeared", "developed",
 * "presented", "first noted", "was noticed") or "since" / "from" before the age. A bare age ("a
 * 5-year-old boy", "at the age of 5 years he walked") is the age at examination or of a
 * milestone, not of onset, and is not read; neither is an age after "diagnosed" (diagnosis
 * follows onset) nor after "until" (onset came later).
 *
 * An age after birth becomes an onset term by the engine's onsetTermOfDays (the HPO definitions,
 * hp.json 2026-01-08: neonatal under 28 days, ..., middle age 40 to 60, late over 60 years).
 * A gestational age ("at 20 weeks of gestation") is antenatal: embryonal up to 10 weeks of
 * gestation, late first trimester 11+0 to 13+6, second trimester 14+0 to 27+6, third trimester
 * from 28+0. The negation, hedging and subject (patient or relative) of a statement are
 * decided by the extractor's context reader like those of any mention.
 */
import { onsetTermOfDays } from '@rarelens/engine';
import { NUM, numberOf } from './milestones.ts';

export interface OnsetStatement {
  /** HPO id of the onset term. */
  id: string;
  /** 0-based, end-exclusive offsets of the statement ("onset at 7 years"). */
  start: number;
  end: number;
}

const ONSET = {
  antenatal: 'HP:0030674',
  embryonal: 'HP:0011460',
  lateFirstTrimester: 'HP:0034199',
  secondTrimester: 'HP:0034198',
  thirdTrimester: 'HP:0034197',
  congenital: 'HP:0003577',
  neonatal: 'HP:0003623',
  infantile: 'HP:0003593',
  childhood: 'HP:0011463',
  juvenile: 'HP:0003621',
  pediatric: 'HP:0410280',
  adult: 'HP:0003581',
  youngAdult: 'HP:0011462',
  earlyYoungAdult: 'HP:0025708',
  intermediateYoungAdult: 'HP:0025709',
  lateYoungAdult: 'HP:0025710',
  middleAge: 'HP:0003596',
  late: 'HP:0003584',
} as const;

const DAYS_PER_YEAR = 365.25;
/** An age stated in a text above this is not read as an age at onset (a misreading or not an age). */
const MAX_AGE_DAYS = 120 * DAYS_PER_YEAR;

/**
 * The onset term of an age after birth in days stated in a text: the engine's mapping
 * (onsetTermOfDays, the HPO definitions), undefined for a negative age or one over 120 years.
 */
export function onsetOfStatedAge(days: number): string | undefined {
  if (!Number.isFinite(days) || days < 0 || days >= MAX_AGE_DAYS) return undefined;
  return onsetTermOfDays(days);
}

/** The onset term of a gestational age in completed weeks. */
export function onsetOfGestation(weeks: number): string | undefined {
  if (!Number.isFinite(weeks) || weeks <= 0 || weeks > 44) return undefined;
  if (weeks < 11) return ONSET.embryonal;
  if (weeks < 14) return ONSET.lateFirstTrimester;
  if (weeks < 28) return ONSET.secondTrimester;
  return ONSET.thirdTrimester;
}

const UNIT_DAYS: [RegExp, number][] = [
  [/^h/i, 1 / 24],
  [/^d/i, 1],
  [/^w/i, 7],
  [/^m/i, DAYS_PER_YEAR / 12],
  [/^y/i, DAYS_PER_YEAR],
];

const UNIT = '(hours?|hrs?|days?|weeks?|wks?\\.?|months?|mos?\\.?|years?|yrs?\\.?|y)';
/**
 * "7 years", "3 months of age", "2 1/2 years", "45 years old", "18-month", "8 mo"; the unit may
 * be left out after "age" ("at the age of 12", "since age 40": years), see byAge.
 */
const AGE = `(${NUM})(?![\\d.,]\\d)((?:\\s*(?:½|1/2|and a half))?)(?:\\s*(?:-|\\s)?${UNIT}(?![a-z])(?:\\s+(?:of age|old|of life))?)?`;
/** "at", "at the age of", "by about", "around age", "in the first". */
const AT =
  '(?:at|around|about|aged|in|from|during|within)(?:\\s+(?:about|around|approximately|roughly|the age of|the ages? of|age|an age of|ages?|the first))?';
const GESTATION = `(${NUM})\\s*(?:\\+\\s*\\d\\s*)?(?:-|\\s)?(?:weeks?|wks?\\.?)(?:'|’)?\\s*(?:of\\s+)?(?:gestation(?:al age)?|gestational|GA)\\b`;

/** Verbs that say something began or was first seen. */
const BEGAN =
  '(?:began|begun|begin(?:s|ning)?|start(?:ed|s|ing)|commenced|appeared|emerged|arose|manifested|developed|presented|occurred|(?:was|were) (?:first )?(?:noticed|recognized|recognised|observed|detected|identified)|(?:first )?(?:noticed|recognized|recognised|observed|detected)|first (?:noted|appeared|developed|presented|occurred|manifested|experienced|had|showed)|(?:was|were) first noted|became (?:apparent|evident|noticeable|symptomatic))';

/**
 * What may stand between a verb and the age ("seizures began at", "developed seizures at"):
 * up to 60 characters within the sentence, not a milestone, treatment or schooling (what began
 * then is not a finding) nor a normal course ("developed normally until").
 */
const GAP = '((?:,\\s*)?[^.,;:!?()\\[\\]]{0,60}?)';
const NOT_A_FINDING =
  /\b(?:walk|sit(?:s|ting)?\b|sat\b|stand|stood|crawl|talk|speak|spoke|words?\b|smil|roll(?:s|ed|ing)?\b|school|educat|treat|therap|medicat|drug|dose|supplement|diet\b|follow|attend|normal|improv|recover|resol|menarche|menstrua|pregnan|work|married|stud(?:y|ied)\b|trial|enrol|recruit|sampl|test(?:s|ed|ing)?\b|examin|evaluat|assess|visit|referr|review|diagnos|admi(?:tted|ssion)|hospital|clinic|department|cent(?:re|er)\b|us\b|our\b|surgery|operat|transplant)/i;

/** Periods of life named in words, with the onset term each names. */
const PERIODS: [string, string][] = [
  ['birth', ONSET.congenital],
  ['the neonatal period', ONSET.neonatal],
  ['the newborn period', ONSET.neonatal],
  ['the first (?:days|weeks|month) of life', ONSET.neonatal],
  ['the first days after birth', ONSET.neonatal],
  ['(?:early )?infancy', ONSET.infantile],
  ['the first year of life', ONSET.infantile],
  ['(?:his|her|their) first year', ONSET.infantile],
  ['early childhood', ONSET.childhood],
  // The HPO's own wording: Childhood onset = "Symptoms begin in childhood".
  ['(?:his|her|their )?childhood', ONSET.childhood],
  ['(?:early |late )?adolescence', ONSET.juvenile],
  ['(?:his|her|their )?(?:teens|teenage years)', ONSET.juvenile],
  // Decades of life: "in her thirties", "in the fifth decade".
  ['(?:his|her|their) (?:early |mid |late )?twenties', ONSET.youngAdult],
  ['(?:his|her|their) (?:early |mid |late )?thirties', ONSET.lateYoungAdult],
  ['(?:his|her|their) (?:early |mid |late )?(?:forties|fifties)', ONSET.middleAge],
  ['(?:his|her|their) (?:early |mid |late )?(?:sixties|seventies|eighties)', ONSET.late],
  ['the first decade(?: of life)?', ONSET.pediatric],
  ['the third decade(?: of life)?', ONSET.youngAdult],
  ['the fourth decade(?: of life)?', ONSET.lateYoungAdult],
  ['the (?:fifth|sixth) decade(?: of life)?', ONSET.middleAge],
  ['the (?:seventh|eighth) decade(?: of life)?', ONSET.late],
  ['(?:early |young )?adulthood', ONSET.adult],
  ['middle age', ONSET.middleAge],
  ['utero', ONSET.antenatal],
];
const PERIOD = `(${PERIODS.map(([p]) => p).join('|')})\\b`;

function periodOnset(phrase: string): string | undefined {
  for (const [p, id] of PERIODS) if (new RegExp(`^${p}$`, 'i').test(phrase)) return id;
  return undefined;
}

function ageInDays(amount: string, half: string, unit: string): number | undefined {
  let value = numberOf(amount);
  if (!Number.isFinite(value)) return undefined;
  if (half.trim() !== '') value += 0.5;
  const perUnit = UNIT_DAYS.find(([re]) => re.test(unit))?.[1];
  return perUnit === undefined ? undefined : value * perUnit;
}

interface Pattern {
  re: RegExp;
  /** The onset term of a match, or undefined when the match is not an onset statement. */
  read: (m: RegExpExecArray) => string | undefined;
}

/** "20 weeks of the pregnancy", "32 weeks by ultrasound": an age in weeks that is gestational. */
const PRENATAL_AFTER =
  /^[^.;]{0,30}?\b(?:gestation|pregnancy|ultraso|USG|sonograph|scan|in utero|prenatal|antenatal|fetal|foetal)/i;

/** "when he was", "when the child was about": the clause that states the patient's age then. */
const WHEN =
  'when\\s+(?:he|she|they|the (?:patient|proband|child|boy|girl|infant|baby))\\s+(?:was|were)(?:\\s+(?:only|just|aged|about|around|approximately))*';
/** Before a number without a unit: "when she was (about)" (years, as "at age"). */
const WHEN_BEFORE = new RegExp(`\\b${WHEN}\\s*$`, 'i');

/** Before a number without a unit: "age", "aged", "age of", "age at onset (was)". */
const AGE_WORD_BEFORE =
  /\bage(?:d|\s+of|\s+at\s+(?:\w+\s+)?onset(?:\s+(?:was|of|is))?)?\s*[:=,]?\s*(?:about|around|approximately|~)?\s*$/i;
/** After a number without a unit: the end of the phrase, not a measure ("age 12 kg"). */
const PHRASE_END_AFTER =
  /^(?:\s*[,.;:)]|\s+(?:with|when|he|she|they|his|her|the|in|at|of|but|while|until|as)\b|\s*$)/i;
/** A time relative to another event ("6 weeks after vaccination"), unless that event is birth. */
const RELATIVE_AFTER =
  /^\s*(?:after|before|later|earlier|post|prior|following)\b(?!\s+(?:birth|delivery)\b)/i;

const byAge =
  (at: number) =>
  (m: RegExpExecArray): string | undefined => {
    const [amount, half, unit] = [m[at], m[at + 1], m[at + 2]];
    if (amount === undefined) return undefined;
    const after = m.input.slice(m.index + m[0].length);
    if (RELATIVE_AFTER.test(after)) return undefined;
    if (unit === undefined) {
      const numberAt = m.indices?.[at]?.[0];
      const before = numberAt === undefined ? '' : m.input.slice(m.index, numberAt);
      if (numberAt === undefined || !(AGE_WORD_BEFORE.test(before) || WHEN_BEFORE.test(before)))
        return undefined;
      if (!PHRASE_END_AFTER.test(after)) return undefined;
    }
    if (unit !== undefined && /^w/i.test(unit) && PRENATAL_AFTER.test(after)) {
      return onsetOfGestation(numberOf(amount));
    }
    const days = ageInDays(amount, half ?? '', unit ?? 'years');
    return days === undefined || days === 0 ? undefined : onsetOfStatedAge(days);
  };

const gapIsAFinding = (gap: string | undefined): boolean =>
  gap === undefined || !NOT_A_FINDING.test(gap);

const PATTERNS: Pattern[] = [
  // "age at onset 7 years", "age of onset was 3 months", "mean age at onset: 45 years".
  {
    re: new RegExp(
      `\\b(?:ages?\\s+(?:at|of)\\s+(?:disease\\s+|symptom\\s+|first\\s+)?onset(?:\\s+(?:was|of|is|were))?\\s*[:=,]?|onset(?:\\s+(?:was|is)|\\s*[:=]))\\s*(?:about|around|approximately|~)?\\s*${AGE}`,
      'gi',
    ),
    read: byAge(1),
  },
  // "onset at 7 years", "onset of weakness at 14 years", "the onset was in the first 3 months".
  {
    re: new RegExp(`\\bonset\\b${GAP}\\b${AT}\\s+${AGE}`, 'gi'),
    read: (m) => (gapIsAFinding(m[1]) ? byAge(2)(m) : undefined),
  },
  // "seizures began at 3 months", "she developed ataxia at the age of 45 years", "presented at 3 months".
  {
    re: new RegExp(`\\b${BEGAN}\\b${GAP}\\b${AT}\\s+${AGE}`, 'gi'),
    read: (m) => (gapIsAFinding(m[1]) ? byAge(2)(m) : undefined),
  },
  // "seizures started 2 days after birth".
  {
    re: new RegExp(`\\b${BEGAN}\\b${GAP}\\b${AGE}\\s+after\\s+(?:birth|delivery)\\b`, 'gi'),
    read: (m) => (gapIsAFinding(m[1]) && m[4] !== undefined ? byAge(2)(m) : undefined),
  },
  // "At 6 months of age, she developed seizures", "at the age of 3 years he presented with".
  {
    re: new RegExp(
      `\\b(?:at|by|around)(?:\\s+(?:about|around|approximately|the age of|age))?\\s+${AGE}\\s*,?\\s+(?:(?:he|she|they|the (?:patient|proband|child|boy|girl|infant))\\s+)?(?:first\\s+)?${BEGAN}\\b`,
      'gi',
    ),
    read: byAge(1),
  },
  // "seizures started when he was 2 months old", "first noticed when she was 4".
  {
    re: new RegExp(`\\b${BEGAN}\\b${GAP}\\b${WHEN}\\s+${AGE}`, 'gi'),
    read: (m) => (gapIsAFinding(m[1]) ? byAge(2)(m) : undefined),
  },
  // "When he was 2 months old, seizures started" (not "he started walking": what began is read).
  {
    re: new RegExp(`\\b${WHEN}\\s+${AGE}\\s*,?${GAP}\\b(?:first\\s+)?${BEGAN}\\b`, 'gi'),
    read: (m) => {
      const what = m.input.slice(m.index + m[0].length).slice(0, 40);
      // The age is the patient's ("when she was"): not when a relative's disease began.
      const relative = /\b(?:mother|father|parents?|sisters?|brothers?|siblings?|aunts?|uncles?|cousins?|grand\w*|sons?|daughters?|twins?)\b/i;
      return gapIsAFinding(m[4]) && !relative.test(m[4] ?? '') && !NOT_A_FINDING.test(what) ? byAge(1)(m) : undefined;
    },
  },
  // "since the age of 3 years", "from 6 months of age on".
  {
    re: new RegExp(
      `\\b(?:since|ever since|from)\\s+(?:the\\s+age\\s+of\\s+|age\\s+)?${AGE}(?!\\s*(?:to|until|till|through|and|or|-|–)(?![a-z]))`,
      'gi',
    ),
    read: byAge(1),
  },
  // "onset in infancy", "began in early childhood", "present from birth", "since infancy".
  {
    re: new RegExp(
      `\\b(?:(?:onset|${BEGAN})\\b${GAP}\\b(?:in|during|at|from|since|within)|(?:present|evident|apparent|noted|noticed|observed)\\s+(?:at|from|since|in|during)|(?:ever\\s+)?since|from)\\s+${PERIOD}(?!\\s*(?:to|until|till|through|-|–)\\s)`,
      'gi',
    ),
    read: (m) => {
      if (!gapIsAFinding(m[1])) return undefined;
      const phrase = m[2];
      if (phrase === undefined) return undefined;
      const id = periodOnset(phrase);
      // "from birth" / "at birth" with nothing that says present then: a weight "at birth".
      if (
        id === ONSET.congenital &&
        !/(?:present|evident|apparent|noted|since|from|onset|began|start|notic|observ|detect|recogni)/i.test(
          m[0],
        )
      )
        return undefined;
      return id;
    },
  },
  // "During childhood, recurrent episodes of abdominal pain appeared", "In infancy she developed".
  {
    re: new RegExp(
      `\\b(?:during|in|since|from)\\s+${PERIOD}\\s*,?${GAP}\\b(?:first\\s+)?${BEGAN}\\b`,
      'gi',
    ),
    read: (m) => {
      if (!gapIsAFinding(m[2]) || m[1] === undefined) return undefined;
      const id = periodOnset(m[1]);
      return id === ONSET.congenital ? undefined : id;
    },
  },
  // "At birth, pterygia were present at the left elbow": present then.
  {
    re: new RegExp(
      `\\bat\\s+birth\\s*,?${GAP}\\b(?:was|were)\\s+(?:already\\s+)?(?:present|noted|noticed|observed|seen|evident|apparent|detected|found)\\b`,
      'gi',
    ),
    read: (m) => (gapIsAFinding(m[1]) ? ONSET.congenital : undefined),
  },
  // "the cataracts were congenital", "deafness is congenital".
  {
    re: /\b(?:was|were|is|are|be|been|probably|likely)\s+congenital\b(?!-|\s+(?!and\b|or\b|but\b|in\b|at\b|with\b)[a-z])/gi,
    read: () => ONSET.congenital,
  },
  // "detected at 20 weeks of gestation", "onset at 30 weeks' gestation".
  {
    re: new RegExp(
      `\\b(?:onset|${BEGAN})\\b${GAP}\\b(?:at|by|around|from)\\s+(?:about\\s+)?${GESTATION}`,
      'gi',
    ),
    read: (m) => {
      if (!gapIsAFinding(m[1]) || m[2] === undefined) return undefined;
      return onsetOfGestation(numberOf(m[2]));
    },
  },
];

/** With the offsets of the groups (byAge reads what stands before the number). */
const COMPILED: Pattern[] = PATTERNS.map(({ re, read }) => ({
  re: new RegExp(re.source, `${re.flags}d`),
  read,
}));

/**
 * The sentence before the statement says what the age is of: an examination, a treatment, a
 * referral ("On examination at 56 years, she presented with", "physical therapy since the age of
 * one year", "improvement ... was observed at 1 yr").
 */
function ageOfSomethingElse(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 40), start);
  const sentence = before.slice(before.search(/[.;!?]\s+[^.;!?]*$/) + 1);
  return NOT_A_FINDING.test(sentence);
}

/** Statements of onset in the text, in text order (overlapping readings: the first and longest). */
export function findOnsetStatements(text: string): OnsetStatement[] {
  const found: OnsetStatement[] = [];
  for (const { re, read } of COMPILED) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const id = read(m);
      if (id !== undefined && !ageOfSomethingElse(text, m.index))
        found.push({ id, start: m.index, end: m.index + m[0].length });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: OnsetStatement[] = [];
  for (const f of found) {
    const last = out[out.length - 1];
    if (last && f.start < last.end) continue;
    out.push(f);
  }
  return out;
}
