/**
 * Laboratory values read as phenotypes: "Hb 7.1 g/dL" is Anemia, "CK 5,400 U/L" is an elevated
 * creatine kinase, "alkaline phosphatase was 276 (45–125) U/L" is an elevated alkaline
 * phosphatase.
 *
 * A value is abnormal when it lies outside the reference range written beside it (the
 * laboratory's own range, whatever the patient's age and sex) or, without one, beyond a
 * conservative threshold that is abnormal at every age after the newborn period and for both
 * sexes (e.g. haemoglobin below 10 g/dL: the lowest lower limit of normal, 11 g/dL, is that of
 * young children). Haemoglobin is read by the WHO anaemia threshold of the patient's age and
 * sex when the text states them ("a 45-year-old man ... Hb 11.5 g/dL"). A value needs a
 * recognised unit, a reference range or the laboratory's flag ("K 2.9 (L)", "ALT 210 H"); a
 * value written bare right after its name ("Hb 8.1", "plt 45") takes the one unit its size
 * allows for that analyte (Analyte.bare), and reads nothing where two units fit. A decimal
 * comma, a range instead of a value, or a specimen other than blood (urine, cerebrospinal
 * fluid) gives nothing.
 */

export interface LabFinding {
  /** HPO id of the abnormality. */
  id: string;
  /** 0-based, end-exclusive offsets of the analyte name through the value (and its unit). */
  start: number;
  end: number;
}

type Unit = string;
interface Limit {
  /** Canonical unit (see canonicalUnit) -> threshold in that unit. */
  below?: Record<Unit, number>;
  above?: Record<Unit, number>;
}
interface Analyte {
  name: string;
  /** Matched against the text; abbreviations are case-sensitive, names are not. */
  pattern: RegExp;
  low?: string;
  high?: string;
  limits: Limit;
  /** Cell counts: units are converted to 10^9/L first. */
  count?: boolean;
  /**
   * Lower limits for a patient whose age (and sex) the text states, tighter than the fixed
   * `limits.below` that must hold at every age; undefined keeps the fixed ones.
   */
  belowFor?: (patient: Patient) => Record<Unit, number> | undefined;
  /**
   * Values written without a unit ("Hb 8.1", "plt 45"): the ranges where only one unit is
   * possible, each with its unit (and for counts the factor to 10^9/L). A value outside every
   * range, or an analyte without them, reads nothing without its unit.
   */
  bare?: { min: number; max: number; unit: Unit; factor?: number }[];
}

/** The patient's age and sex as the text states them ("a 45-year-old man"). */
export interface Patient {
  years: number;
  sex?: 'male' | 'female';
  pregnant: boolean;
}

/**
 * WHO haemoglobin thresholds for anaemia (Haemoglobin concentrations for the diagnosis of
 * anaemia, WHO 2011; g/dL): 6-59 months 11.0, 5-11 years 11.5, 12-14 years 12.0, non-pregnant
 * women 12.0, pregnant women 11.0, men 13.0 (from 15 years); 12.0 from 15 years when the sex is
 * not stated. Before 6 months, 9.0: under the lower limit (-2 SD, about 9.4) of term infants at
 * the physiological nadir around 2 months, where the fixed 10 would call a normal value low.
 */
function whoAnaemiaLimit(p: Patient): Record<Unit, number> | undefined {
  let gdl: number;
  if (p.years < 0.5) gdl = 9;
  else if (p.years < 5) gdl = 11;
  else if (p.years < 12) gdl = 11.5;
  else if (p.years < 15 || p.sex !== 'male') gdl = p.pregnant ? 11 : 12;
  else gdl = 13;
  return { 'g/dl': gdl, 'g/l': gdl * 10, 'mmol/l': Math.round(gdl * 0.6206 * 100) / 100 };
}

const COUNT = 'x10^9/l';
/** ALT and AST are reported in U/L (= IU/L); 200 µkat/L would be 12,000 U/L. */
const TRANSAMINASE_BARE = [{ min: 200, max: 20_000, unit: 'u/l' }];

/** Thresholds are deliberately outside every age- and sex-specific reference interval. */
const ANALYTES: Analyte[] = [
  {
    name: 'haemoglobin',
    pattern: /\b(?:[Hh]a?emoglobin|Hb|Hgb|HGB)\b(?![-\s]?[A-Z]\d?\b)/g,
    low: 'HP:0001903', // Anemia
    limits: { below: { 'g/dl': 10, 'g/l': 100, 'mmol/l': 6.2 } },
    belowFor: whoAnaemiaLimit,
    // Survivable haemoglobin lies within 3-25 g/dL (30-250 g/L); the two do not overlap.
    // (The mmol/L of Dutch laboratories, 2-12, overlaps g/dL: notes in English write g/dL.)
    bare: [
      { min: 3, max: 25, unit: 'g/dl' },
      { min: 30, max: 250, unit: 'g/l' },
    ],
  },
  {
    name: 'platelets',
    pattern: /\b(?:[Pp]latelets?(?:\s+counts?)?|[Tt]hrombocytes?(?:\s+counts?)?|PLTs?|[Pp]lts?)\b/g,
    low: 'HP:0001873', // Thrombocytopenia
    high: 'HP:0001894', // Thrombocytosis
    count: true,
    limits: { below: { [COUNT]: 100 }, above: { [COUNT]: 600 } },
    // Notes write platelets per nanolitre (x10^9/L = x10^3/µL: "plt 45") or per microlitre
    // ("plt 45,000"); 1,500-5,000 could be either.
    bare: [
      { min: 1, max: 1500, unit: COUNT },
      { min: 5000, max: 1_500_000, unit: COUNT, factor: 0.001 },
    ],
  },
  {
    name: 'leukocytes',
    pattern:
      /\b(?:[Ww]hite\s+(?:blood\s+)?cells?(?:\s+counts?)?|[Ll]eu[ck]ocytes?(?:\s+counts?)?|WBCs?|wbc|WCC)\b/g,
    low: 'HP:0001882', // Decreased total leukocyte count
    high: 'HP:0001974', // Increased total leukocyte count
    count: true,
    limits: { below: { [COUNT]: 3 }, above: { [COUNT]: 30 } },
    // x10^9/L ("WBC 2.1") or per microlitre ("WBC 2,100"); 100-1,000 could be either.
    bare: [
      { min: 0.1, max: 100, unit: COUNT },
      { min: 1000, max: 500_000, unit: COUNT, factor: 0.001 },
    ],
  },
  {
    name: 'neutrophils',
    pattern: /\b(?:[Aa]bsolute\s+neutrophil\s+counts?|[Nn]eutrophils?(?:\s+counts?)?|ANC)\b/g,
    low: 'HP:0001875', // Decreased total neutrophil count
    count: true,
    limits: { below: { [COUNT]: 1 } },
    // "ANC 0.4" (x10^9/L) or "ANC 400" (per microlitre); 50-100 could be either.
    bare: [
      { min: 0, max: 50, unit: COUNT },
      { min: 100, max: 100_000, unit: COUNT, factor: 0.001 },
    ],
  },
  {
    name: 'creatine kinase',
    pattern: /\b(?:[Cc]reatine\s+(?:phospho)?kinase|CK|CPK)\b(?!-?MB)/g,
    high: 'HP:0003236',
    limits: { above: { 'u/l': 1000 } },
    // In µkat/L (Nordic laboratories) a value of 1,000 would be 60,000 U/L: a bare value that
    // large is in U/L; smaller ones are normal in U/L and read nothing either way.
    bare: [{ min: 1000, max: 1_000_000, unit: 'u/l' }],
  },
  {
    name: 'alkaline phosphatase',
    pattern: /\b(?:[Aa]lkaline\s+phosphatase|ALP)\b/g,
    high: 'HP:0003155',
    limits: { above: { 'u/l': 1000 } },
  },
  {
    name: 'alanine aminotransferase',
    pattern: /\b(?:[Aa]lanine\s+(?:amino)?transaminase|[Aa]lanine\s+aminotransferase|ALT|SGPT)\b/g,
    high: 'HP:0031964',
    limits: { above: { 'u/l': 200 } },
    bare: TRANSAMINASE_BARE,
  },
  {
    name: 'aspartate aminotransferase',
    pattern:
      /\b(?:[Aa]spartate\s+(?:amino)?transaminase|[Aa]spartate\s+aminotransferase|AST|SGOT)\b/g,
    high: 'HP:0031956',
    limits: { above: { 'u/l': 200 } },
    bare: TRANSAMINASE_BARE,
  },
  {
    name: 'sodium',
    pattern: /\b(?:[Ss]odium|Na)\b\+?/g,
    low: 'HP:0002902', // Hyponatremia
    high: 'HP:0003228', // Hypernatremia
    limits: { below: { 'mmol/l': 130, 'meq/l': 130 }, above: { 'mmol/l': 150, 'meq/l': 150 } },
    // Serum sodium is 100-180 mmol/L (= mEq/L) in every survivable state.
    bare: [{ min: 100, max: 180, unit: 'mmol/l' }],
  },
  {
    name: 'potassium',
    pattern: /(?<![Vv]itamin\s)\b(?:[Pp]otassium|K)\b\+?/g,
    low: 'HP:0002900', // Hypokalemia
    high: 'HP:0002153', // Hyperkalemia
    limits: { below: { 'mmol/l': 3, 'meq/l': 3 }, above: { 'mmol/l': 6.5, 'meq/l': 6.5 } },
    bare: [{ min: 1, max: 10, unit: 'mmol/l' }],
  },
  {
    name: 'glucose',
    pattern: /\b(?:[Gg]lucose|[Gg]lyc(?:a)?emia)\b/g,
    low: 'HP:0001943', // Hypoglycemia
    high: 'HP:0003074', // Hyperglycemia
    limits: { below: { 'mmol/l': 2.5, 'mg/dl': 45 }, above: { 'mmol/l': 11.1, 'mg/dl': 200 } },
  },
  {
    name: 'calcium',
    pattern: /\b(?:[Cc]alcium|Ca)\b(?:2\+|\+\+)?/g,
    low: 'HP:0002901', // Hypocalcemia
    high: 'HP:0003072', // Hypercalcemia
    limits: { below: { 'mmol/l': 1.9, 'mg/dl': 7.6 }, above: { 'mmol/l': 2.9, 'mg/dl': 11.6 } },
    // Total calcium is 0.5-4.5 mmol/L or 4.6-18 mg/dL (x4.008): the ranges do not meet.
    bare: [
      { min: 0.5, max: 4.5, unit: 'mmol/l' },
      { min: 4.6, max: 18, unit: 'mg/dl' },
    ],
  },
  {
    name: 'ammonia',
    pattern: /\b(?:[Aa]mmonia|[Aa]mmonium|NH3)\b/g,
    high: 'HP:0001987', // Hyperammonemia
    limits: { above: { 'umol/l': 100, 'ug/dl': 170 } },
  },
  {
    name: 'lactate',
    pattern: /\b(?:[Ll]actate|[Ll]actic\s+acid)\b(?!\s+dehydrogenase)/g,
    high: 'HP:0002151', // Increased circulating lactate concentration
    limits: { above: { 'mmol/l': 3, 'mg/dl': 27 } },
  },
  {
    name: 'vitamin B12',
    pattern: /\b(?:[Vv]itamin\s+B12|B12|[Cc]obalamin)\b/g,
    low: 'HP:0100502', // Decreased circulating vitamin B12 concentration
    limits: { below: { 'pg/ml': 150, 'ng/l': 150, 'pmol/l': 110 } },
  },
  {
    name: 'TSH',
    pattern: /\b(?:TSH|[Tt]hyroid[-\s]stimulating\s+hormone|[Tt]hyrotropin)\b/g,
    high: 'HP:0002925',
    limits: { above: { 'mu/l': 10, 'uu/ml': 10 } },
  },
  {
    name: 'creatinine',
    pattern: /\b[Cc]reatinine\b(?!\s+(?:clearance|kinase))/g,
    high: 'HP:0003259',
    limits: { above: { 'mg/dl': 2, 'umol/l': 177 } },
    // 0.1-15 mg/dL is 9-1,300 µmol/L (x88.4): below 9 only mg/dL, from 20 only µmol/L.
    bare: [
      { min: 0.1, max: 9, unit: 'mg/dl' },
      { min: 20, max: 3000, unit: 'umol/l' },
    ],
  },
  // Read from a printed reference range or a stated direction ("elevated ferritin", "LDH was
  // high"); a fixed threshold only where a value is abnormal at any age and for either sex
  // (not the sedimentation rate, whose upper limit rises with age and in pregnancy).
  {
    name: 'lactate dehydrogenase',
    pattern: /\b(?:[Ll]actate\s+dehydrogenase|LDH)\b/g,
    high: 'HP:0025435',
    limits: { above: { 'u/l': 1000 } },
  },
  {
    name: 'ferritin',
    pattern: /\b[Ff]erritin\b/g,
    high: 'HP:0003281',
    limits: { above: { 'ng/ml': 1000, 'ug/l': 1000 } },
  },
  {
    name: 'bilirubin',
    pattern: /\b(?:(?:total|direct|indirect|conjugated|unconjugated)\s+)?[Bb]ilirubin\b/g,
    high: 'HP:0002904', // Hyperbilirubinemia
    limits: {},
  },
  {
    name: 'C-reactive protein',
    pattern: /\b(?:C-reactive\s+protein|CRP)\b/g,
    high: 'HP:0011227',
    // Upper limits are 5-10 mg/L at every age; the physiological rise of the first days after
    // birth stays below 20 mg/L.
    limits: { above: { 'mg/l': 20, 'mg/dl': 2 } },
  },
  {
    name: 'erythrocyte sedimentation rate',
    pattern: /\b(?:[Ee]rythrocyte\s+sedimentation\s+rate|ESR)\b/g,
    high: 'HP:0003565',
    limits: {},
  },
  {
    name: 'IgE',
    pattern: /\b(?:IgE|[Ii]mmunoglobulin\s+E)\b/g,
    high: 'HP:0003212',
    limits: {},
  },
  {
    name: 'fibrinogen',
    pattern: /\b[Ff]ibrinogen\b/g,
    low: 'HP:0011900', // Hypofibrinogenemia
    limits: {},
  },
  {
    name: 'albumin',
    pattern: /\b[Aa]lbumin\b/g,
    low: 'HP:0003073', // Hypoalbuminemia
    limits: {},
  },
  {
    name: 'triglycerides',
    pattern: /\b[Tt]riglycerides?\b/g,
    high: 'HP:0002155', // Hypertriglyceridemia
    limits: {},
  },
  {
    name: 'cholesterol',
    pattern: /\b(?<!(?:HDL|LDL)[-\s])[Cc]holesterol\b/g,
    high: 'HP:0003124', // Hypercholesterolemia
    limits: {},
  },
  {
    name: 'testosterone',
    pattern: /\b[Tt]estosterone\b/g,
    low: 'HP:0040171',
    limits: {},
  },
  {
    name: 'FSH',
    pattern: /\b(?:FSH|[Ff]ollicle[-\s]stimulating\s+hormone)\b/g,
    low: 'HP:0030341',
    limits: {},
  },
  {
    name: 'LH',
    pattern: /\b(?:LH|[Ll]uteini[sz]ing\s+hormone)\b/g,
    low: 'HP:0030344',
    limits: {},
  },
];

/** A specimen other than blood just before the analyte ("urinary calcium", "CSF glucose"). */
const OTHER_SPECIMEN_RE =
  /\b(?:urine|urinary|csf|cerebrospinal|sweat|stool|f(?:a)?ecal|spinal\s+fluid|ionized|ionised|dietary|intake|supplement\w*)\W+(?:\w+\W+)?$/i;

const NUMBER = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)`;
/** A value: optional comparator, a number not inside another number (no decimal commas). */
// Not the "10^9" of a count unit ("× 10^9/L", "x109/L", "10(9)").
const VALUE_RE = new RegExp(
  String.raw`(?<![\d.,\w^]|[x×*]\s*|10\s*\(\s*)([<>≤≥]\s*)?(${NUMBER})(?![.,]?\d)`,
  'g',
);
const RANGE_RE = new RegExp(
  String.raw`(?<![\d.,])(${NUMBER})\s*(?:[-–—]|to)\s*(${NUMBER})(?![.,]?\d)`,
  'g',
);
/** "normal < 160", "nv ≤ 5": an upper reference limit only. */
const UPPER_REF_RE = new RegExp(
  String.raw`\b(?:normal|nv|ref\w*|range|n)\b[^\d<≤>≥]{0,20}[<≤]\s*(${NUMBER})`,
  'gi',
);
const COUNT_UNIT_RE =
  /^\s*(?:(?:[x×*]\s*10\s*(?:\^|\*\*|e)?\s*\(?\s*([0-9⁰¹²³⁴⁵⁶⁷⁸⁹]{1,2})\s*\)?\s*(?:cells\s*)?\/\s*(l|µl|μl|ul|mm3|mm³|microl\w*))|(?:cells\s*)?\/\s*(µl|μl|ul|mm3|mm³|microl\w*)|(g\/l)\b)/i;
const UNIT_RE = /^\s*([a-zµμ]{1,5}\s*\/\s*(?:[a-zµμ]{1,6}|100\s*ml))\b/i;

const SUPERSCRIPT: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
};

/** "mEq/L" -> "meq/l", "IU/L" and "unit/liter" -> "u/l", "µIU/mL" -> "uu/ml", "mg/100 ml" -> "mg/dl". */
export function canonicalUnit(unit: string): string {
  let u = unit.toLowerCase().replace(/\s+/g, '').replace(/[µμ]/g, 'u');
  u = u.replace(/\/(?:liter|litre)$/, '/l').replace(/\/100ml$/, '/dl');
  const [num = '', den = ''] = u.split('/');
  const n = /^(?:units?|iu|u)$/.test(num)
    ? 'u'
    : /^(?:miu|mu|munits?)$/.test(num)
      ? 'mu'
      : /^(?:uiu|uu)$/.test(num)
        ? 'uu'
        : num;
  return `${n}/${den}`;
}

/** A cell count's unit after the value, as a factor to 10^9/L ("/µL" -> 0.001). */
function countFactor(after: string): { factor: number; length: number } | undefined {
  const m = COUNT_UNIT_RE.exec(after);
  if (!m) return undefined;
  if (m[4]) return { factor: 1, length: m[0].length };
  if (m[3]) return { factor: 0.001, length: m[0].length };
  const exponent = Number(
    (m[1] ?? '')
      .split('')
      .map((c) => SUPERSCRIPT[c] ?? c)
      .join(''),
  );
  const perLitre = /^l$/i.test(m[2] ?? '');
  // "×10^9/L" and "×10^3/µL" are the same unit; "×109/L" is 10^9/L with the superscript lost.
  const e = exponent === 109 ? 9 : exponent === 103 ? 3 : exponent;
  const factor = perLitre ? 10 ** (e - 9) : 10 ** (e - 3);
  return { factor, length: m[0].length };
}

const toNumber = (s: string): number => Number(s.replace(/,/g, ''));

/** The text an analyte's value is looked for in: to the end of its sentence, cell row or clause. */
function windowAfter(text: string, from: number): number {
  const limit = Math.min(text.length, from + 90);
  for (let i = from; i < limit; i++) {
    const c = text[i];
    if (c === '\n' || c === ';') return i;
    if (c === '.' && /\s/.test(text[i + 1] ?? ' ') && !/\d/.test(text[i - 1] ?? '')) return i;
  }
  return limit;
}

/** "below normal", "above the reference range", "above the upper limit of normal". */
const reference = (limit: 'upper' | 'lower'): string =>
  String.raw`(?:the\s+)?(?:normal|reference|${limit}\s+limit)(?:\s+(?:range|limits?|values?|levels?|of\s+normal))?`;
const HIGH_WORDS = `elevated|increased|raised|high|higher|abnormally\\s+high|above\\s+${reference('upper')}`;
const LOW_WORDS = `decreased|reduced|low|lower|diminished|abnormally\\s+low|depressed|subnormal|below\\s+${reference('lower')}`;
const QUALIFIERS =
  '(?:(?:mildly|moderately|markedly|significantly|severely|very|persistently|slightly|highly|extremely)\\s+)?';
/** "serum", "total and LDL serum" (cholesterol): the specimen and fractions before an analyte. */
const SPECIMEN = '(?:(?:serum|plasma|blood|circulating|total|free|LDL|HDL)\\s+(?:and\\s+)?){0,3}';
const HIGH_RE = new RegExp(`^(?:${HIGH_WORDS})$`, 'i');
/** "elevated serum CK", "low platelets": a direction word just before the analyte. */
const BEFORE_RE = new RegExp(
  String.raw`\b${QUALIFIERS}(${HIGH_WORDS}|${LOW_WORDS})\s+(?:${SPECIMEN}(?:levels?|concentrations?|values?|activity|activities)\s+of\s+)?${SPECIMEN}$`,
  'i',
);
/** "(levels) of the proband", "in our patient": whose values they are, between analyte and predicate. */
const WHOSE = String.raw`(?:\s+(?:of|in)\s+(?:the|our|this|both)\s+(?:index\s+)?(?:proband|patients?|boy|girl|child|infant|man|woman|siblings?|brothers?|sisters?))?`;
/** "CK was elevated", "platelet counts were markedly low": the direction in the predicate. */
const AFTER_RE = new RegExp(
  String.raw`^(?:\s+(?:levels?|concentrations?|counts?|values?|activity))?${WHOSE}\s+(?:was|were|is|are|remained|became)\s+(?:also\s+)?${QUALIFIERS}(${HIGH_WORDS}|${LOW_WORDS})\b`,
  'i',
);

interface Statement {
  high: boolean;
  /** The direction word stands before the analyte ("elevated CK") or in the predicate after it. */
  how: 'before' | 'after';
  start: number;
  end: number;
}

/** The direction a qualitative statement gives the analyte ("elevated CK", "platelets were low"). */
function readDirection(text: string, start: number, end: number): Statement | undefined {
  const from = Math.max(0, start - 50);
  const before = BEFORE_RE.exec(text.slice(from, start));
  const after = before ? null : AFTER_RE.exec(text.slice(end, end + 60));
  const word = (before?.[1] ?? after?.[1])?.toLowerCase();
  if (!word) return undefined;
  const high = HIGH_RE.test(word);
  return before
    ? { high, how: 'before', start: from + before.index, end }
    : { high, how: 'after', start, end: end + (after?.[0].length ?? 0) };
}

/** Abnormal laboratory values in text, as HPO findings, in text order. */
export function findLabValues(text: string): LabFinding[] {
  const out: LabFinding[] = [];
  // Analyte mentions in text order; a value belongs to the nearest analyte before it.
  const mentions: { analyte: Analyte; start: number; end: number }[] = [];
  for (const analyte of ANALYTES) {
    analyte.pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = analyte.pattern.exec(text)) !== null)
      mentions.push({ analyte, start: m.index, end: m.index + m[0].length });
  }
  mentions.sort((a, b) => a.start - b.start);
  /** What each mention says: a value, a stated direction, or nothing. */
  const said: (Statement | 'value' | undefined)[] = [];
  for (let k = 0; k < mentions.length; k++) {
    const { analyte, start, end } = mentions[k] as (typeof mentions)[number];
    if (OTHER_SPECIMEN_RE.test(text.slice(Math.max(0, start - 40), start))) continue;
    const nextAnalyte = mentions[k + 1]?.start ?? text.length;
    const stop = Math.min(windowAfter(text, end), nextAnalyte);
    const window = text.slice(end, stop);
    const finding = readValue(analyte, window, analyte.belowFor && patientAt(text, start));
    if (finding) {
      said[k] = 'value';
      out.push({ id: finding.id, start, end: end + finding.end });
    } else {
      const statement = readDirection(text, start, end);
      said[k] = statement;
      // For analytes whose HPO term names that direction.
      const id = statement && (statement.high ? analyte.high : analyte.low);
      if (statement && id) out.push({ id, start: statement.start, end: statement.end });
    }
  }
  return distributeOverLists(text, mentions, said, out);
}

const AGE_RE =
  /\b(?:(\d{1,2}(?:\.\d)?)[-\s](years?|yrs?|months?)[-\s]old|aged\s+(\d{1,2})\s+(years?|months?))(?:,?\s+(?:[A-Za-z]+\s+){0,2}?(boy|girl|man|woman|male|female|lady|gentleman|infant|child|patient|adolescent|teenager|proband|(mother|father|sister|brother|sibling|parent|son|daughter|aunt|uncle|cousin|grandmother|grandfather)))?\b/gi;
const FEMALE_RE = /^(?:girl|woman|female|lady)$/i;
const MALE_RE = /^(?:boy|man|male|gentleman)$/i;

/**
 * The age and sex of the patient a value at `at` belongs to: the last age statement before it
 * ("a 45-year-old man", "aged 7 years"), else the first in the text. The statement must name
 * the patient (a patient noun after the age, or "aged"); after a relative's ("his 40-year-old
 * mother") the age is not known. Pregnancy anywhere in the text lowers the adult women's limit.
 */
export function patientAt(text: string, at: number): Patient | undefined {
  let chosen: RegExpExecArray | undefined;
  AGE_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = AGE_RE.exec(text)) !== null) {
    if (m[1] !== undefined && m[5] === undefined && m[6] === undefined) continue;
    if (m.index >= at && chosen) break;
    chosen = m;
    if (m.index >= at) break;
  }
  // A relative's age: the values after it are not read by the patient's age.
  if (!chosen || chosen[6] !== undefined) return undefined;
  const value = Number(chosen[1] ?? chosen[3]);
  const months = /^m/i.test(chosen[2] ?? chosen[4] ?? '');
  const noun = chosen[5] ?? '';
  const sex = FEMALE_RE.test(noun) ? 'female' : MALE_RE.test(noun) ? 'male' : undefined;
  return {
    years: months ? value / 12 : value,
    ...(sex ? { sex } : {}),
    pregnant: /\bpregnan(?:t|cy)\b/i.test(text),
  };
}

/** Only list punctuation between two analytes: "AST, ALT, LDH, total and direct bilirubin". */
const LIST_GAP_RE = /^\s*\)?\s*(?:,\s*|\/\s*|\(\s*)?(?:(?:and|or|&)\s+)?$/i;

/**
 * A direction stated once for a list of analytes applies to each: "increased AST, ALT and LDH"
 * (the word before the first), "testosterone, FSH and LH were low" (the predicate after the
 * last). Each analyte still needs an HPO term in that direction.
 */
function distributeOverLists(
  text: string,
  mentions: readonly { analyte: Analyte; start: number; end: number }[],
  said: readonly (Statement | 'value' | undefined)[],
  out: LabFinding[],
): LabFinding[] {
  const added: LabFinding[] = [];
  let k = 0;
  while (k < mentions.length) {
    let j = k;
    while (j + 1 < mentions.length) {
      const gap = text.slice(
        (mentions[j] as (typeof mentions)[number]).end,
        (mentions[j + 1] as (typeof mentions)[number]).start,
      );
      if (!LIST_GAP_RE.test(gap)) break;
      j++;
    }
    const first = said[k];
    const last = said[j];
    const statement =
      first !== 'value' && first?.how === 'before'
        ? first
        : last !== 'value' && last?.how === 'after'
          ? last
          : undefined;
    if (j > k && statement)
      for (let i = k; i <= j; i++) {
        if (said[i] !== undefined) continue;
        const m = mentions[i] as (typeof mentions)[number];
        const id = statement.high ? m.analyte.high : m.analyte.low;
        if (id) added.push({ id, start: m.start, end: m.end });
      }
    k = j + 1;
  }
  return added.length === 0 ? out : [...out, ...added].sort((a, b) => a.start - b.start);
}

/** Only linking words between an analyte and a bare value ("Hb 8.1", "Na: 128", "K was 2.9"). */
const BARE_LEAD_RE =
  /^(?:\s*(?:[:=]|(?:serum|plasma|levels?|counts?|concentrations?|values?|was|were|is|of|at)\b))*\s*$/i;
/** What may follow a bare value: the clause's end, a printed range, or the next item. */
const BARE_END_RE = /^(?:\s*(?:$|[,;)\]\n(]|\.(?!\d)|(?:and|or|with|on|in)\b))/i;
/**
 * A laboratory's flag after a value: "(L)", "L", "H", "HH", "*L", "↓", "↑", or a word alone in
 * brackets or ending the item ("(low)", "210 elevated,"), not the start of the next item
 * ("WBC 2.1, low platelets").
 */
const FLAG_RE =
  /^\s*(?:\(\s*\*?\s*(LL|HH|L|H|↓|↑|low|high|elevated|raised|increased|decreased|reduced)\s*\)|\*?(LL|HH|L|H)(?![\w/])|([↓↑])|(low|high|elevated|raised|increased|decreased|reduced)(?=\s*(?:[,;)\n]|\.(?!\d)|$)))/i;
const FLAG_HIGH_RE = /^(?:hh?|↑|high|elevated|raised|increased)$/i;

function readFlag(after: string): 'high' | 'low' | undefined {
  const m = FLAG_RE.exec(after);
  if (!m) return undefined;
  const word = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
  // The letters are capitals only: "l" or "h" in lower case is a unit or a word.
  if (m[2] !== undefined && m[2] !== m[2].toUpperCase()) return undefined;
  if (m[1] !== undefined && /^[lh]{1,2}$/.test(m[1])) return undefined;
  return FLAG_HIGH_RE.test(word) ? 'high' : 'low';
}
/** How much of an unbracketed flag the finding's span takes ("ALT 210 H"); a bracketed one,
 * like a printed range, stays outside it ("K 2.9 (L)" spans "K 2.9"). */
function flagLength(after: string): number {
  const m = FLAG_RE.exec(after);
  return m && m[1] === undefined ? m[0].length : 0;
}

/** The analyte's first value in `window` (text just after its name) and what it says. */
function readValue(
  analyte: Analyte,
  window: string,
  patient?: Patient,
): { id: string; end: number } | undefined {
  // Reference ranges written beside the value, and where they are (not values themselves).
  const taken: [number, number][] = [];
  let refLow: number | undefined;
  let refHigh: number | undefined;
  RANGE_RE.lastIndex = 0;
  let r: RegExpExecArray | null;
  while ((r = RANGE_RE.exec(window)) !== null) {
    if (refHigh === undefined) {
      refLow = toNumber(r[1] ?? '');
      refHigh = toNumber(r[2] ?? '');
    }
    taken.push([r.index, r.index + r[0].length]);
  }
  UPPER_REF_RE.lastIndex = 0;
  while ((r = UPPER_REF_RE.exec(window)) !== null) {
    if (refHigh === undefined) refHigh = toNumber(r[1] ?? '');
    taken.push([r.index, r.index + r[0].length]);
  }
  VALUE_RE.lastIndex = 0;
  let v: RegExpExecArray | null;
  while ((v = VALUE_RE.exec(window)) !== null) {
    const at = v.index;
    if (taken.some(([a, b]) => at >= a && at < b)) continue;
    const after = window.slice(at + v[0].length);
    // An age, a duration, a percentage or a ratio is not the analyte's value.
    if (
      !/^\s*\*?HH?(?![\w/])/.test(after) &&
      /^\s*(?:%|years?|yrs?|months?|mo\b|weeks?|wk|days?|d\b|hours?|h\b|min|times|fold|[x×](?!\s*10))/i.test(
        after,
      )
    )
      return undefined;
    const value = toNumber(v[2] ?? '');
    const comparator = (v[1] ?? '').trim();
    let unit: string | undefined;
    let valueEnd = at + v[0].length;
    let scaled = value;
    if (analyte.count) {
      const c = countFactor(after) ?? countFactor(window.slice(0, at).replace(/^[\s,:(]+/, ''));
      if (c) {
        unit = COUNT;
        scaled = value * c.factor;
        if (countFactor(after)) valueEnd += c.length;
      }
    } else {
      const u = UNIT_RE.exec(after);
      if (u) {
        unit = canonicalUnit(u[1] ?? '');
        valueEnd += u[0].length;
      } else {
        // Table header style: "Hemoglobin, g/dl<TAB>15.4".
        const before = /^[\s,:(]+([a-zµμ]{1,5}\s*\/\s*[a-zµμ]{1,6})/i.exec(window.slice(0, at));
        if (before) unit = canonicalUnit(before[1] ?? '');
      }
    }
    const canBeLow = comparator === '' || comparator === '<' || comparator === '≤';
    const canBeHigh = comparator === '' || comparator === '>' || comparator === '≥';
    // A value written bare, right after its name: "Hb 8.1", "CBC: WBC 2.1, plt 45".
    const bare = unit === undefined && BARE_LEAD_RE.test(window.slice(0, at));
    // The laboratory's own flag after the value ("K 2.9 (L)", "ALT 210 H", "Na 128 ↓").
    const flag = (unit !== undefined || bare) && readFlag(window.slice(valueEnd));
    if (flag) {
      const id = flag === 'high' ? canBeHigh && analyte.high : canBeLow && analyte.low;
      return id ? { id, end: valueEnd + flagLength(window.slice(valueEnd)) } : undefined;
    }
    if (bare && BARE_END_RE.test(after)) {
      const inferred = analyte.bare?.find((b) => value >= b.min && value <= b.max);
      if (inferred) {
        unit = inferred.unit;
        scaled = value * (inferred.factor ?? 1);
      }
    }
    // The laboratory's own range first (same unit as the value), then the fixed thresholds.
    // A printed range must be plausible for the analyte: one lying wholly beyond a fixed
    // threshold ("sodium 139 mEq/L, normal range: 6–20") is a typo or another specimen's.
    const fixedBelow: number | undefined =
      unit === undefined ? undefined : analyte.limits.below?.[unit];
    const patientBelow =
      unit === undefined || !patient ? undefined : analyte.belowFor?.(patient)?.[unit];
    const above = unit === undefined ? undefined : analyte.limits.above?.[unit];
    // A count's range must be on the value's scale: "plt 45,000 (150-400)" mixes /µL and 10^9/L.
    const sameScale = (high: number): boolean =>
      analyte.count !== true || (high >= value / 10 && (refLow ?? high) <= value * 10);
    const plausible = (high: number): boolean =>
      (fixedBelow === undefined || high > fixedBelow) &&
      (above === undefined || (refLow ?? 0) < above) &&
      sameScale(high);
    if (
      refHigh !== undefined &&
      plausible(refHigh) &&
      (unit !== undefined || analyte.count !== true)
    ) {
      if (analyte.high && canBeHigh && value > refHigh) return { id: analyte.high, end: valueEnd };
      if (analyte.low && canBeLow && refLow !== undefined && value < refLow)
        return { id: analyte.low, end: valueEnd };
      return undefined;
    }
    if (unit === undefined) return undefined;
    const below = patientBelow ?? fixedBelow;
    if (analyte.low && canBeLow && below !== undefined && scaled < below)
      return { id: analyte.low, end: valueEnd };
    if (analyte.high && canBeHigh && above !== undefined && scaled > above)
      return { id: analyte.high, end: valueEnd };
    return undefined;
  }
  return undefined;
}
