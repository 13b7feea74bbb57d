/**
 * Developmental milestones reached late, from the age stated in the text: "walked at 24
 * months", "did not walk until the age of 2 years 6 months", "sat unsupported at 11 months",
 * "first words at 3 years" -> Delayed ability to walk / sit / stand, Delayed speech and
 * language development.
 *
 * The limits are the upper ends of the normal windows of achievement: WHO Multicentre Growth
 * Reference Study (Acta Paediatr 2006, Suppl 450: 86-95), 99th centile of sitting without
 * support 9.2 months, standing alone 16.9 months, walking alone 17.6 months; first words are
 * expected by 18 months (no single words by 16-18 months is the usual referral criterion).
 * An age is delayed when it is past the limit in whole months (walking at 18 months is not
 * reported, at 19 months it is).
 */

export interface MilestoneFinding {
  /** HPO id of the delay. */
  id: string;
  /** 0-based, end-exclusive offsets of the statement ("walked at 24 months"). */
  start: number;
  end: number;
  /** The age stated, in months. */
  months: number;
}

interface Milestone {
  id: string;
  /** Latest normal age of achievement in months (inclusive). */
  limit: number;
  /** The statement of achievement, up to the age expression. */
  verb: string;
}

const QUALIFIER =
  '(?:\\s+(?:independently|alone|unsupported|unaided|unassisted|freely|by (?:himself|herself|themselves)|on (?:his|her|their) own|without (?:any )?(?:support|assistance|help|aid)))?';
/** "could walk at", "was able to walk at", "the ability to sit at": achieved at that age. */
const ABLE = '(?:(?:could|was able to|were able to|became able to|ability to)\\s+)';
/** "did not / could not / was unable to / only" before a verb: achievement came only at that age. */
const NOT_UNTIL =
  "(?:(?:did|could|would) not|didn[’']t|couldn[’']t|was unable to|were unable to)\\s+";
/** "was not (yet) walking at 2 years", "not yet sitting by 12 months": not achieved at that age. */
const NOT_YET = '(?:(?:was|were|is|are) not (?:yet )?|(?:was|were|is|are) still not |not yet )';

const MILESTONES: Milestone[] = [
  {
    id: 'HP:0031936', // Delayed ability to walk
    limit: 18,
    verb: `(?:walked|${NOT_UNTIL}walk|${NOT_YET}walking|${ABLE}walk|(?:began|started|learned|learnt) (?:to walk|walking)|(?:took|taking) (?:(?:his|her|their) )?first (?:independent )?steps|first (?:independent )?steps|(?:independent )?walking (?:was )?(?:achieved|acquired|attained|began|started)|achieved (?:independent )?walking|(?:independent )?ambulation (?:was )?(?:achieved|acquired|attained|began|started)|ambulated)${QUALIFIER}`,
  },
  {
    id: 'HP:0025336', // Delayed ability to sit
    limit: 9,
    verb: `(?:sat|${NOT_UNTIL}sit|${NOT_YET}sitting|${ABLE}sit|(?:began|started|learned|learnt) (?:to sit|sitting)|(?:independent )?sitting (?:was )?(?:achieved|acquired|attained|began|started)|achieved (?:independent )?sitting)${QUALIFIER}`,
  },
  {
    id: 'HP:0025335', // Delayed ability to stand
    limit: 17,
    verb: `(?:stood|${NOT_UNTIL}stand|${NOT_YET}standing|${ABLE}stand|(?:began|started|learned|learnt) (?:to stand|standing))${QUALIFIER}`,
  },
  {
    id: 'HP:0000750', // Delayed speech and language development
    limit: 18,
    verb: `(?:(?:spoke|said|uttered|produced) (?:(?:his|her|their) )?first (?:single )?words?|first (?:single )?words?(?: (?:were|was))?(?: (?:spoken|said|uttered|appeared|came))?|${NOT_UNTIL}(?:speak|talk|say (?:a|any) (?:single )?words?)|${NOT_YET}(?:speaking|talking)|(?:had|has|have) no (?:single |meaningful )?words|(?:began|started|learned|learnt) (?:to speak|to talk|speaking|talking))`,
  },
];

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  eighteen: 18,
  twenty: 20,
  thirty: 30,
};
/** A number as written in an age: digits (one decimal) or a word ("two", "eighteen"). */
export const NUM = `(?:\\d{1,2}(?:\\.\\d)?|${Object.keys(NUMBER_WORDS).join('|')})`;
const HALF = '(?:\\s*(?:½|1/2|and a half))?';
const MONTHS = '(?:months?|mos?\\.?|mo)';
const YEARS = '(?:years?|yrs?\\.?|y)';
/**
 * "24 months", "2 years", "2 1/2 years", "2 years 6 months", "2 years and 6 months", "2.5 y",
 * "1 year and 7 to 8 months" (the lower bound of a range is taken).
 */
const AGE = `(${NUM})${HALF}\\s*(?:-|\\s)?(${MONTHS}|${YEARS})(?![a-z])(?:(?:\\s*,)?(?:\\s+and)?\\s+(${NUM})(?:\\s*(?:-|–|to)\\s*${NUM})?\\s*(?:-|\\s)?${MONTHS})?(?:\\s+(?:of age|old))?`;
/** What may stand between the verb and the age: "at", "until the age of", "only at about". */
const LINK =
  '\\s+(?:only\\s+)?(?:at|by|until|till|after|around|aged)(?:\\s+(?:about|around|approximately|the age of|age|an age of))?\\s+';

/**
 * "until age 4", "at the age of 3": after the word "age" a number without its unit is in years.
 * Not a number that a unit, a fraction or a decimal follows (the AGE form reads those).
 */
const BARE_AGE = `\\s+(?:only\\s+)?(?:at|by|until|till|after|around)(?:\\s+(?:about|around|approximately))?\\s+(?:the\\s+)?age\\s+(?:of\\s+)?(${NUM})(?![.,]?\\d)(?!\\s*(?:-|\\s)?(?:${MONTHS}|${YEARS}|½|1/2|and a half)(?![a-z]))`;

const MILESTONE_RES = MILESTONES.map((m) => ({
  milestone: m,
  // One scan for both forms: groups 1-3 are AGE's, group 4 the bare age's.
  re: new RegExp(`\\b${m.verb}(?:${LINK}${AGE}|${BARE_AGE})`, 'gi'),
}));

/** The value of a NUM match. */
export function numberOf(word: string): number {
  const w = word.toLowerCase();
  return NUMBER_WORDS[w] ?? Number(w);
}

/** The age in months of an AGE match's groups, or undefined when it is not a plausible age. */
function ageInMonths(
  amount: string,
  half: boolean,
  unit: string,
  extraMonths: string | undefined,
): number | undefined {
  let value = numberOf(amount);
  if (!Number.isFinite(value)) return undefined;
  if (half) value += 0.5;
  const years = /^y/i.test(unit);
  let months = years ? value * 12 : value;
  if (extraMonths !== undefined) {
    if (!years) return undefined;
    months += numberOf(extraMonths);
  }
  // A milestone age beyond 10 years is a different statement (a relapse, an adult event).
  return months > 0 && months <= 120 ? months : undefined;
}

/** Milestones stated as reached (or not reached until) an age past the normal window. */
export function findMilestoneDelays(text: string): MilestoneFinding[] {
  const out: MilestoneFinding[] = [];
  for (const { milestone, re } of MILESTONE_RES) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const [whole, amount, unit, extra, bareYears] = m;
      let months: number | undefined;
      if (bareYears !== undefined) months = ageInMonths(bareYears, false, 'years', undefined);
      else if (amount !== undefined && unit !== undefined)
        months = ageInMonths(amount, /½|1\/2|and a half/.test(whole), unit, extra);
      if (months === undefined || Math.floor(months) <= milestone.limit) continue;
      out.push({ id: milestone.id, start: m.index, end: m.index + whole.length, months });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
