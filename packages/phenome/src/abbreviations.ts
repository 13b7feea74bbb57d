/**
 * Clinical abbreviations with more than one common expansion, read by their context: "BPD" is
 * bronchopulmonary dysplasia in a note about a preterm infant, borderline personality disorder
 * in a psychiatric history and the biparietal diameter (a measurement, no finding) in a fetal
 * scan; "ASD" is an atrial septal defect beside an echocardiogram and autism spectrum disorder
 * beside behaviour and social communication; "TGA" is a transposition of the great arteries or
 * transient global amnesia (or a stop codon in a primer); "CVI" a cerebral visual impairment or
 * chronic venous insufficiency.
 *
 * A sense is chosen when the words of the abbreviation's sentence point to that sense alone; when
 * they point nowhere, its neighbourhood (200 characters either side), then the whole text, must
 * point to one sense alone.
 * Cues of two senses, or of none, leave the abbreviation unread: a guessed finding is worse than
 * a missed one. An in-text definition ("bronchopulmonary dysplasia (BPD)") is handled before
 * this and wins.
 */

export interface AbbreviationSense {
  /** HPO term of this sense; undefined when the sense is not a finding (a measurement). */
  id?: string;
  /** The HPO label when the sense was written; a test checks it still holds. */
  label?: string;
  /** What the sense means, for readers of this table. */
  meaning: string;
  /** Words that make this sense the likely one. */
  cues: RegExp;
}

const NEONATAL =
  /\b(?:pre-?term|prematur\w*|neonat\w*|newborns?|NICU|gestation(?:al)?|surfactant|ventilat\w*|oxygen|CPAP|intubat\w*|extubat\w*|VLBW|ELBW|corrected age|bronchopulmonary)\b/gi;
const PSYCHIATRIC =
  /\b(?:personality|psychiatr\w*|self-?harm\w*|suicid\w*|mood|impulsiv\w*|dialectical|DBT|emotionally unstable|borderline)\b/gi;
const FETAL_BIOMETRY =
  /\b(?:biparietal|femur length|abdominal circumference|biometry|sonograph\w*|ultrasound|fetus|fetal|foetal)\b/gi;
// "an ASD", "a small ASD": a count noun, the defect (autism takes no article, except before
// another noun: "an ASD diagnosis").
const CARDIAC =
  /\b(?:atrial|septal|septum|echocardiogra\w*|cardiac|heart|murmur|VSD|PDA|PFO|shunt|cardiolog\w*|ostium|secundum|(?:an|small|large)\s+ASDs?\b(?!\s+(?:diagnos\w*|evaluation|assessment|features|traits|symptoms|phenotype|screen\w*)))\b/gi;
// Intellectual disability and developmental delay come with autism far more than with a
// heart defect in a note that names neither the heart nor behaviour.
const AUTISM =
  /\b(?:autis\w*|social|behaviou?r\w*|ADOS|communication|repetitive|stereotyp\w*|ADHD|eye contact|intellectual(?:ly)?\s+disabilit\w*|mental(?:ly)?\s+retard\w*|developmental(?:ly)?\s+delay\w*|(?:speech|language)\s+delay\w*|learning\s+disabilit\w*)\b/gi;

const AMNESIA = /\b(?:amnesi\w*|memory|forget\w*|confus\w*|transient global)\b/gi;
const VISUAL =
  /\b(?:visual|vision|visually|cortical|cerebral|blind\w*|ophthalm\w*|fixat\w*|eye contact)\b/gi;
const VENOUS =
  /\b(?:venous|veins?|varicos\w*|varices|stasis|o?edema|leg ulcers?|compression stockings?)\b/gi;

/** Short forms (case-sensitive, as written) and their senses. */
export const CONTEXT_ABBREVIATIONS: Readonly<Record<string, readonly AbbreviationSense[]>> = {
  BPD: [
    {
      id: 'HP:0006528',
      label: 'Chronic lung disease',
      meaning: 'bronchopulmonary dysplasia',
      cues: NEONATAL,
    },
    {
      id: 'HP:0012076',
      label: 'Borderline personality disorder',
      meaning: 'borderline personality disorder',
      cues: PSYCHIATRIC,
    },
    { meaning: 'biparietal diameter (a fetal measurement)', cues: FETAL_BIOMETRY },
  ],
  TGA: [
    {
      id: 'HP:0001669',
      label: 'Transposition of the great arteries',
      meaning: 'transposition of the great arteries',
      cues: CARDIAC,
    },
    {
      id: 'HP:0010534',
      label: 'Transient global amnesia',
      meaning: 'transient global amnesia',
      cues: AMNESIA,
    },
  ],
  CVI: [
    {
      id: 'HP:0100704',
      label: 'Cerebral visual impairment',
      meaning: 'cerebral (cortical) visual impairment',
      cues: VISUAL,
    },
    {
      id: 'HP:0005293',
      label: 'Venous insufficiency',
      meaning: 'chronic venous insufficiency',
      cues: VENOUS,
    },
  ],
  ASD: [
    {
      id: 'HP:0001631',
      label: 'Atrial septal defect',
      meaning: 'atrial septal defect',
      cues: CARDIAC,
    },
    {
      id: 'HP:0000729',
      label: 'Autistic behavior',
      meaning: 'autism spectrum disorder',
      cues: AUTISM,
    },
  ],
};

/**
 * The listed short form a token writes ("BPD", plural "ASDs"), or undefined; own keys only (a
 * word such as "constructor" is no short form).
 */
export function contextShortForm(raw: string): string | undefined {
  // Most tokens are ordinary words: rule them out on their first letter before any lookup.
  const c = raw.charCodeAt(0);
  if (c < 65 || c > 90 || raw.length > MAX_SHORT_FORM + 1) return undefined;
  if (SHORT_FORMS.has(raw)) return raw;
  const singular = raw.endsWith('s') ? raw.slice(0, -1) : undefined;
  return singular !== undefined && SHORT_FORMS.has(singular) ? singular : undefined;
}

const SHORT_FORMS: ReadonlySet<string> = new Set(Object.keys(CONTEXT_ABBREVIATIONS));
const MAX_SHORT_FORM = Math.max(...[...SHORT_FORMS].map((sf) => sf.length));

/** How far either side of the abbreviation its own context reaches (characters). */
const NEAR = 200;

/** Indices of the senses whose cues occur in `span`, the abbreviation itself left out. */
function cuedSenses(
  senses: readonly AbbreviationSense[],
  text: string,
  from: number,
  to: number,
  skip: [number, number],
): number[] {
  const out: number[] = [];
  senses.forEach((s, i) => {
    s.cues.lastIndex = 0;
    const slice = text.slice(from, to);
    let m: RegExpExecArray | null;
    while ((m = s.cues.exec(slice)) !== null) {
      const at = from + m.index;
      if (at >= skip[0] && at < skip[1]) continue;
      out.push(i);
      break;
    }
  });
  return out;
}

/**
 * The sense of the short form at text[start, end): the sense's HPO id, null when the context
 * chose a sense that is no finding or could not choose, undefined when `sf` is not listed.
 */
export function abbreviationSense(
  text: string,
  sf: string,
  start: number,
  end: number,
): string | null | undefined {
  if (!Object.hasOwn(CONTEXT_ABBREVIATIONS, sf)) return undefined;
  const senses = CONTEXT_ABBREVIATIONS[sf] ?? [];
  const skip: [number, number] = [start, end];
  // Its sentence, then its neighbourhood, then the whole text: the nearest cues decide.
  const sentenceStart = Math.max(0, text.slice(0, start).search(/[.!?\n][^.!?\n]*$/) + 1);
  const next = text.slice(end).search(/[.!?](?:\s|$)|\n/);
  const sentenceEnd = next < 0 ? text.length : end + next;
  let chosen: number[] = [];
  for (const [from, to] of [
    [sentenceStart, sentenceEnd],
    [Math.max(0, start - NEAR), Math.min(text.length, end + NEAR)],
    [0, text.length],
  ] as const) {
    chosen = cuedSenses(senses, text, from, to, skip);
    if (chosen.length > 0) break;
  }
  if (chosen.length !== 1) return null;
  return senses[chosen[0] as number]?.id ?? null;
}
