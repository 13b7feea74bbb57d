/**
 * Growth measurements read as phenotypes: "her height was 74 cm (-4.18 SD)" is Short stature,
 * "head circumference of 47 cm (< 3rd percentile)" is Microcephaly.
 *
 * A standard deviation score or a centile is already age- and sex-specific, so the limits are
 * those of the HPO's own definitions: Short stature "more than 2 SD below the mean" (or below
 * the 3rd centile), Tall stature "above the 97th centile or more than 2 SD above", Microcephaly
 * "below 2 SD", Macrocephaly "above the 97th centile" (or 2 SD). A value exactly at a limit
 * ("-2 SD", "3rd centile") is not beyond it. Weight and body mass index are read the same way:
 * Increased body weight ("Abnormally increased body weight") above the 97th centile or 2 SD; a
 * weight below the 3rd centile or 2 SD (Decreased body weight, exact synonym "Weight less than
 * 3rd percentile") is not read: on the dev corpora all three such weights were gold-annotated
 * as Failure to thrive, Growth delay or nothing, and JAX lost F1 (0.562 -> 0.561, P 0.473 ->
 * 0.471; session 18, second round). A body mass index below the 3rd centile or 2 SD is Decreased body mass index
 * (WHO thinness, BMI-for-age < -2 SD), above the 97th or 2 SD Obesity (WHO growth reference
 * 5-19 years: obesity > +2 SD; CDC: obesity at or above the 95th centile for age and sex).
 * Only a measurement with its score or centile gives a finding: a height in centimetres or a
 * weight in kilograms alone gives nothing (no age or sex to compare with), nor a measurement at
 * birth (its own terms), a target or mid-parental height, or a fetus's.
 */

export interface GrowthFinding {
  /** HPO id of the finding. */
  id: string;
  /** 0-based, end-exclusive offsets of the measurement through its score or centile. */
  start: number;
  end: number;
}

const SHORT_STATURE = 'HP:0004322';
const TALL_STATURE = 'HP:0000098';
const MICROCEPHALY = 'HP:0000252';
const MACROCEPHALY = 'HP:0000256';
const INCREASED_WEIGHT = 'HP:0004324';
const DECREASED_BMI = 'HP:0045082';
const OBESITY = 'HP:0001513';

/** `owned`: the word before the name must leave the measurement the body's (bodyMeasure). */
const MEASURES: { re: RegExp; low?: string; high: string; owned: boolean }[] = [
  {
    re: /\b(?:height|stature|body length|length)\b/gi,
    low: SHORT_STATURE,
    high: TALL_STATURE,
    owned: true,
  },
  {
    re: /\b(?:head circumference|occipito-?frontal (?:head )?circumference|OFC|HC)\b/g,
    low: MICROCEPHALY,
    high: MACROCEPHALY,
    owned: false,
  },
  // "Wt" only capitalised: "wt" is also the wild type.
  {
    re: /\b(?:[Bb]ody [Ww]eight|[Ww]eight|WEIGHT|Wt)\b/g,
    high: INCREASED_WEIGHT,
    owned: true,
  },
  {
    re: /\b(?:BMI|[Bb]ody[-\s][Mm]ass[-\s][Ii]ndex)\b/g,
    low: DECREASED_BMI,
    high: OBESITY,
    owned: true,
  },
];
/** Case-insensitive head-circumference names (the abbreviations above are case-sensitive). */
const HEAD_NAME_RE = /\b(?:head circumference|occipito-?frontal (?:head )?circumference)\b/gi;

/** Another measurement between the name and the score ends the search: it is not ours. */
const OTHER_MEASURE_RE =
  /\b(?:height|stature|length|weight|head circumference|OFC|HC|BMI|body mass index|arm span|span)\b/i;
/** A measurement's rate of change, not the measurement ("height velocity", "OFC growth rate"). */
const RATE_RE =
  /^[\s-]*(?:velocity|velocities|gain|loss|increment|growth(?:\s+rate)?|increase|for[\s-](?:height|length))\b/i;
/**
 * "(-2.2 SD)", "−4.18 SD", "below the -4 SD", "+2.5 SDS", "2.5 SD below the mean", "SDS -3.1",
 * "z-score -2.5".
 */
const SD_RE =
  /(?:(below|less than|under|<|above|more than|over|>)\s*(?:the\s+)?)?([−–-]|\+|minus\s*|plus\s*)?\s?(\d+(?:\.\d+)?)\s?(?:SDS?|s\.d\.|standard deviations?)\b(?:\s+(below|under|above|over)\s+(?:the\s+)?(?:mean|average|norm|normal)\b)?|(?:SDS|z-?score)\s*(?:of\s*)?([−–-]|\+)?\s?(\d+(?:\.\d+)?)/i;
/** "< 3rd percentile", "3rd–5th centile", "below the 3rd centile", "> 97th percentile", "<3rd %ile". */
const CENTILE_RE =
  /(?:(below|less than|under|<|above|more than|over|>)\s*(?:the\s+)?)?(\d{1,2}(?:\.\d)?)(?:st|nd|rd|th|d)?(?:\s*(?:[–-]|to)\s*(\d{1,2}(?:\.\d)?)(?:st|nd|rd|th|d)?)?\s*(?:percentile|centile|%ile)s?\b/i;
/** Measurements that are not the patient's stature or head size now. */
const EXCLUDED_CONTEXT_RE =
  /\b(?:at birth|birth (?:length|weight|height)|born|newborn|neonat\w*|target|mid-?parental|fetal|foetal|fetus|prenatal)\b/i;
/**
 * The word before a stature, weight or BMI name must leave it the body's ("her height", "a
 * length of", "weight and height"), not a part's or another's ("femur length", "sitting height",
 * "vertebral height", "molecular weight", "maternal BMI").
 */
const STATURE_OWNERS = new Set(
  "his her their its the a body current final adult standing supine and or with of in at by has had have is was were patient’s patient's child’s child's".split(
    ' ',
  ),
);

/** The measurement name at this offset is the body's: no word before it, or an owner word. */
function bodyMeasure(text: string, start: number): boolean {
  const before = /([A-Za-z'’-]+)\s*$/.exec(text.slice(Math.max(0, start - 30), start));
  return before === null || STATURE_OWNERS.has((before[1] as string).toLowerCase());
}

const LOW_SIGNS = /^(?:[−–-]|minus\s*)$/i;
const BELOW_WORDS = /^(?:below|less than|under|<)$/i;
const ABOVE_WORDS = /^(?:above|more than|over|>)$/i;

/** -1 = below the normal range, 1 = above, 0 = within or unknown. */
function sdDirection(m: RegExpExecArray): -1 | 0 | 1 {
  const [, cmp, sign, value, side, sign2, value2] = m;
  const v = Number(value ?? value2);
  const s = sign ?? sign2 ?? '';
  if (!Number.isFinite(v)) return 0;
  // "2.5 SD below the mean" is -2.5, "3 SD above the mean" +3 (a sign written too wins).
  if (side !== undefined && s === '') {
    if (BELOW_WORDS.test(side)) return v > 2 ? -1 : 0;
    return v > 2 ? 1 : 0;
  }
  const z = LOW_SIGNS.test(s.trim()) ? -v : v;
  // "below the -4 SD": at most -4; "above +2 SD": at least 2.
  if (z < -2 || (z === -2 && cmp !== undefined && BELOW_WORDS.test(cmp))) return -1;
  // A positive score needs its sign or a comparison word ("2 SD" alone says no direction).
  const signed =
    s.trim() === '+' || /^plus/i.test(s.trim()) || (cmp !== undefined && ABOVE_WORDS.test(cmp));
  if (signed && (z > 2 || (z === 2 && cmp !== undefined && ABOVE_WORDS.test(cmp)))) return 1;
  return 0;
}

function centileDirection(m: RegExpExecArray): -1 | 0 | 1 {
  const [, cmp, a, b] = m;
  const lo = Number(a);
  const hi = b === undefined ? lo : Number(b);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return 0;
  const below = cmp !== undefined && BELOW_WORDS.test(cmp);
  const above = cmp !== undefined && ABOVE_WORDS.test(cmp);
  if (hi < 3 || (below && hi <= 3)) return -1;
  if (lo > 97 || (above && lo >= 97)) return 1;
  return 0;
}

/** The sentence around an offset (bounded by ". ", a line break or the text's ends). */
function sentenceAround(text: string, start: number, end: number): string {
  let s = start;
  while (s > 0 && !/[\n]/.test(text[s - 1] as string) && !/[.!?]\s$/.test(text.slice(s - 2, s)))
    s--;
  let e = end;
  while (
    e < text.length &&
    !/[\n]/.test(text[e] as string) &&
    !/[.!?]\s/.test(text.slice(e, e + 2))
  )
    e++;
  return text.slice(s, e);
}

/** Stature and head size stated beyond the normal range by a score or a centile. */
export function findGrowthFindings(text: string): GrowthFinding[] {
  const out: GrowthFinding[] = [];
  const names: { start: number; end: number; low?: string; high: string; owned: boolean }[] = [];
  for (const { re, low, high, owned } of MEASURES) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text))
      names.push({ start: m.index, end: m.index + m[0].length, low, high, owned });
  }
  HEAD_NAME_RE.lastIndex = 0;
  for (let m = HEAD_NAME_RE.exec(text); m; m = HEAD_NAME_RE.exec(text))
    if (!names.some((n) => n.start === m?.index))
      names.push({
        start: m.index,
        end: m.index + m[0].length,
        low: MICROCEPHALY,
        high: MACROCEPHALY,
        owned: false,
      });
  names.sort((a, b) => a.start - b.start);
  for (const n of names) {
    // "head circumference" also contains no stature word; "length" inside "body length" once.
    if (
      names.some(
        (o) => o !== n && o.start <= n.start && n.end <= o.end && o.end - o.start > n.end - n.start,
      )
    )
      continue;
    if (n.owned && !bodyMeasure(text, n.start)) continue;
    // A growth rate is no size: "height velocity below the 3rd centile" is no short stature.
    if (RATE_RE.test(text.slice(n.end, n.end + 20))) continue;
    // The score or centile must follow within the same clause, before any other measurement.
    const window = text.slice(n.end, n.end + 60);
    const stop = window.search(/[.;\n]\s|\n/);
    let scope = stop >= 0 ? window.slice(0, stop) : window;
    const other = OTHER_MEASURE_RE.exec(scope);
    if (other) scope = scope.slice(0, other.index);
    const sd = SD_RE.exec(scope);
    const centile = CENTILE_RE.exec(scope);
    const hit = [sd, centile]
      .filter((x): x is RegExpExecArray => x !== null)
      .sort((a, b) => a.index - b.index)[0];
    if (!hit) continue;
    const dir = hit === sd ? sdDirection(hit) : centileDirection(hit);
    if (dir === 0) continue;
    const end = n.end + hit.index + hit[0].length;
    if (EXCLUDED_CONTEXT_RE.test(sentenceAround(text, n.start, end))) continue;
    const id = dir < 0 ? n.low : n.high;
    if (id !== undefined) out.push({ id, start: n.start, end });
  }
  return out;
}
