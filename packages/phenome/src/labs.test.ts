import { describe, expect, it } from 'vitest';
import { canonicalUnit, findLabValues } from './labs.ts';
import { createPhenome } from './phenome.ts';
import { buildOntology } from './testing/build-ontology.ts';

const read = (text: string): [string, string][] =>
  findLabValues(text).map((f) => [f.id, text.slice(f.start, f.end)]);

describe('findLabValues', () => {
  it('reads a value beyond the conservative threshold in its unit', () => {
    expect(read('Hb 7.1 g/dL')).toEqual([['HP:0001903', 'Hb 7.1 g/dL']]);
    expect(read('haemoglobin 93.0 g/l')).toEqual([['HP:0001903', 'haemoglobin 93.0 g/l']]);
    expect(read('CK 5,400 U/L')).toEqual([['HP:0003236', 'CK 5,400 U/L']]);
    expect(read('sodium 125 mmol/L and potassium 2.5 mEq/L')).toEqual([
      ['HP:0002902', 'sodium 125 mmol/L'],
      ['HP:0002900', 'potassium 2.5 mEq/L'],
    ]);
    expect(read('vitamin B12 89 pg/mL')).toEqual([['HP:0100502', 'vitamin B12 89 pg/mL']]);
  });

  it('reads haemoglobin by the WHO anaemia threshold of the age and sex the text states', () => {
    const hb = (text: string): string[] => read(text).map(([id]) => id);
    // 11.5 g/dL is anaemia in a man (< 13) and a non-pregnant woman (< 12), not in a pregnant
    // woman (< 11) nor where age and sex are unknown (the fixed limit, 10).
    expect(hb('A 45-year-old man presented with fatigue. Hb 11.5 g/dL.')).toEqual(['HP:0001903']);
    expect(hb('A 45-year-old woman. Hb 115 g/L.')).toEqual(['HP:0001903']);
    expect(hb('A 30-year-old pregnant woman had Hb 11.5 g/dL.')).toEqual([]);
    expect(hb('Hb 11.5 g/dL.')).toEqual([]);
    // Children: 6-59 months < 11, 5-11 years < 11.5; infants under 6 months < 9 (the nadir).
    expect(hb('A 3-year-old girl. Her haemoglobin was 10.8 g/dL.')).toEqual(['HP:0001903']);
    expect(hb('A 3-year-old girl. Her haemoglobin was 11.2 g/dL.')).toEqual([]);
    expect(hb('The patient, aged 7 years, had Hb 11.3 g/dL.')).toEqual(['HP:0001903']);
    expect(hb('A 2-month-old infant had Hb 9.5 g/dL.')).toEqual([]);
    // The printed range still wins; a relative's age is not the patient's.
    expect(hb('A 7-year-old boy. Hb 11.3 g/dL (normal 10.5-13.5).')).toEqual([]);
    expect(hb('A 16-year-old boy; his 40-year-old mother had Hb 12.5 g/dL.')).toEqual([]);
    expect(hb('A 16-year-old boy had Hb 12.5 g/dL.')).toEqual(['HP:0001903']);
  });

  it('applies a direction stated once to every analyte of a list', () => {
    expect(read('He had an increased level of AST, ALT and LDH.')).toEqual([
      ['HP:0031956', 'increased level of AST'],
      ['HP:0031964', 'ALT'],
      ['HP:0025435', 'LDH'],
    ]);
    expect(read('Testosterone, FSH and LH were low.')).toEqual([
      ['HP:0040171', 'Testosterone'],
      ['HP:0030341', 'FSH'],
      ['HP:0030344', 'LH were low'],
    ]);
    // "below / above normal" as the direction; whose levels they are may stand before the verb.
    expect(
      read(
        'Her growth hormone (GH), follicle stimulating hormone (FSH) and testosterone levels in our patient were below the normal range.',
      ).map(([id]) => id),
    ).toEqual(['HP:0030341', 'HP:0030341', 'HP:0040171']);
    expect(
      read('The serum ferritin level of the boy was above the upper limit of normal.'),
    ).toEqual([['HP:0003281', 'ferritin level of the boy was above the upper limit of normal']]);
    // A value under the upper limit is no low value.
    expect(read('Ferritin was below the upper limit of normal.')).toEqual([]);
    // Not across other words, and not to an analyte without a term in that direction.
    expect(read('elevated ALT after the infusion, AST 30 U/L')).toEqual([
      ['HP:0031964', 'elevated ALT'],
    ]);
    expect(read('low ferritin and albumin')).toEqual([['HP:0003073', 'albumin']]);
    // Fractions before the analyte, and abbreviations in parentheses inside the list.
    expect(
      read(
        'They presented with increased values of total and LDL serum cholesterol, creatine kinase (CK), and alkaline phosphatase (ALP).',
      ).map(([id]) => id),
    ).toEqual(['HP:0003124', 'HP:0003236', 'HP:0003236', 'HP:0003155', 'HP:0003155']);
    // A parenthesis that is not an analyte ends the list.
    expect(read('Serum ALT (normal) and AST were elevated.')).toEqual([
      ['HP:0031956', 'AST were elevated'],
    ]);
  });

  it('reads ferritin, LDH and CRP beyond a threshold abnormal at any age, others only by range or statement', () => {
    expect(read('ferritin 2400 ng/mL')).toEqual([['HP:0003281', 'ferritin 2400 ng/mL']]);
    expect(read('ferritin 240 ng/mL')).toEqual([]);
    expect(read('LDH 1500 U/L')).toEqual([['HP:0025435', 'LDH 1500 U/L']]);
    expect(read('CRP 40 (0-5) mg/L')).toEqual([['HP:0011227', 'CRP 40']]);
    // C-reactive protein above 20 mg/L (2 mg/dL) is raised at any age after the first days of
    // life (upper limits 5-10 mg/L; the physiological rise after birth stays below it).
    expect(read('CRP 40 mg/L')).toEqual([['HP:0011227', 'CRP 40 mg/L']]);
    expect(read('C-reactive protein 4.5 mg/dL')).toEqual([
      ['HP:0011227', 'C-reactive protein 4.5 mg/dL'],
    ]);
    expect(read('CRP 12 mg/L, CRP 1.5 mg/dl')).toEqual([]);
    // Not the erythrocyte sedimentation rate: its upper limit rises with age and in pregnancy.
    expect(read('ESR 45 mm/h')).toEqual([]);
  });

  it('leaves values inside the thresholds alone', () => {
    expect(read('Hb 11.2 g/dL, CK 400 U/L, sodium 138 mmol/L')).toEqual([]);
  });

  it('converts cell counts to 10^9/L whatever the unit is written as', () => {
    expect(read('platelets 45,000/µL')).toEqual([['HP:0001873', 'platelets 45,000/µL']]);
    expect(read('platelet count of 45 × 10^9/L')).toEqual([
      ['HP:0001873', 'platelet count of 45 × 10^9/L'],
    ]);
    expect(read('WBC 2.1 x 10^9/L')).toEqual([['HP:0001882', 'WBC 2.1 x 10^9/L']]);
    // The superscript lost in extraction: "×109/L" is 10^9/L.
    expect(read('Platelets, × 109/L\t354')).toEqual([]);
    expect(read('Platelets, × 109/L\t854')).toEqual([['HP:0001894', 'Platelets, × 109/L\t854']]);
  });

  it('compares with the reference range written beside the value first', () => {
    expect(read('alkaline phosphatase was 276 (45–125) U/L')).toEqual([
      ['HP:0003155', 'alkaline phosphatase was 276'],
    ]);
    expect(read('alkaline phosphatase (650 unit/liter, normal range: 180–1200 U/L)')).toEqual([]);
    expect(read('CK (nv 0-170 U/L)\t799\t561')).toEqual([['HP:0003236', 'CK (nv 0-170 U/L)\t799']]);
  });

  it('reads a unit given before the value in a table row', () => {
    expect(read('Hemoglobin, g/dl\t8.4')).toEqual([['HP:0001903', 'Hemoglobin, g/dl\t8.4']]);
    expect(read('Hemoglobin, g/dl\t15.4')).toEqual([]);
  });

  it('gives nothing for another specimen, an age, a missing unit or a decimal comma', () => {
    expect(read('urinary calcium 4.1 mmol/L')).toEqual([]);
    expect(read('the CK level at the age of 11 years was 134 U/l')).toEqual([]);
    // Without a unit only where one unit fits (below); glucose's mmol/L and mg/dL overlap.
    expect(read('glucose 35')).toEqual([]);
    expect(read('Hb 7,1 g/dL')).toEqual([]);
    expect(read('glucose 120 min after the load')).toEqual([]);
    expect(read('creatinine clearance 20 ml/min')).toEqual([]);
  });

  it('infers the unit of a bare value only where the value allows one unit', () => {
    expect(read('Hb 7.1')).toEqual([['HP:0001903', 'Hb 7.1']]);
    expect(read('Hgb 71, Na 128.')).toEqual([
      ['HP:0001903', 'Hgb 71'],
      ['HP:0002902', 'Na 128'],
    ]);
    expect(read('K 2.9; CK 4,500; ALT 210; creatinine 3.4')).toEqual([
      ['HP:0002900', 'K 2.9'],
      ['HP:0003236', 'CK 4,500'],
      ['HP:0031964', 'ALT 210'],
      ['HP:0003259', 'creatinine 3.4'],
    ]);
    // A list of a blood count: per nanolitre, or per microlitre when the value says so.
    expect(read('CBC: WBC 2.1, Hb 8.1, plt 45.')).toEqual([
      ['HP:0001882', 'WBC 2.1'],
      ['HP:0001903', 'Hb 8.1'],
      ['HP:0001873', 'plt 45'],
    ]);
    expect(read('platelets 45,000 and ANC 400')).toEqual([
      ['HP:0001873', 'platelets 45,000'],
      ['HP:0001875', 'ANC 400'],
    ]);
    // Normal bare values, and values that fit two units or none (Hb 26-29, platelets
    // 1,500-5,000, a CK below 1,000 whose unit could be µkat/L) read nothing.
    expect(read('Hb 12.5, Na 138, K 4.1, plt 250, WBC 7.2, CK 150, ALT 35')).toEqual([]);
    expect(read('Hb 28')).toEqual([]);
    expect(read('plt 2,500')).toEqual([]);
    expect(read('Ca 1.6 and calcium 7.0')).toEqual([
      ['HP:0002901', 'Ca 1.6'],
      ['HP:0002901', 'calcium 7.0'],
    ]);
    // A bare number must follow the name closely and end its item: not a count of something
    // else, a fraction or a number with an unknown unit.
    expect(read('Hb dropped in 3 days')).toEqual([]);
    expect(read('Hb 7.1 mg')).toEqual([]);
    expect(read('WBC 2 types')).toEqual([]);
    expect(read('vitamin K 2.0')).toEqual([]);
    // A printed range is compared only on the value's scale.
    expect(read('plt 45,000 (150-400)')).toEqual([['HP:0001873', 'plt 45,000']]);
    expect(read('plt 45 (150-400)')).toEqual([['HP:0001873', 'plt 45']]);
  });

  it("reads the laboratory's flag after a value, with or without a unit or range", () => {
    expect(read('K 2.9 (L)')).toEqual([['HP:0002900', 'K 2.9']]);
    // The flag reads a value inside the fixed thresholds by the laboratory's own range.
    expect(read('Na 133 L, K 3.3 L.')).toEqual([
      ['HP:0002902', 'Na 133 L'],
      ['HP:0002900', 'K 3.3 L'],
    ]);
    expect(read('ALT 150 H')).toEqual([['HP:0031964', 'ALT 150 H']]);
    expect(read('CK 450 U/L ↑')).toEqual([['HP:0003236', 'CK 450 U/L ↑']]);
    expect(read('Hb 11.2 g/dL (low)')).toEqual([['HP:0001903', 'Hb 11.2 g/dL']]);
    expect(read('sodium 131 mmol/L, low.')).toEqual([]);
    expect(read('Hb 10.9 low, plt 140 low')).toEqual([
      ['HP:0001903', 'Hb 10.9 low'],
      ['HP:0001873', 'plt 140 low'],
    ]);
    // The flag's direction must have a term ("Hb 17.5 H" names none) and agree with a
    // comparator; a word starting the next item is not a flag.
    expect(read('Hb 17.5 H')).toEqual([]);
    expect(read('CK > 150 L')).toEqual([]);
    expect(read('WBC 5.1, low platelets')).toEqual([['HP:0001873', 'low platelets']]);
    // Lower-case letters are no flags.
    expect(read('K 3.3 l')).toEqual([]);
  });

  it("ignores a printed range that cannot be the analyte's and falls back to the thresholds", () => {
    expect(read('sodium (139 mEq/L, normal range: 6–20 mEq/L)')).toEqual([]);
    expect(read('sodium (125 mEq/L, normal range: 6–20 mEq/L)')).toEqual([
      ['HP:0002902', 'sodium (125 mEq/L'],
    ]);
  });

  it("reads qualitative statements in the direction the analyte's term names", () => {
    expect(read('elevated serum CK')).toEqual([['HP:0003236', 'elevated serum CK']]);
    expect(read('CK levels were markedly raised')).toEqual([
      ['HP:0003236', 'CK levels were markedly raised'],
    ]);
    expect(read('low platelets')).toEqual([['HP:0001873', 'low platelets']]);
    expect(read('high ALP and low vitamin B12')).toEqual([
      ['HP:0003155', 'high ALP'],
      ['HP:0100502', 'low vitamin B12'],
    ]);
    // No term names a low creatine kinase; "normal" is no direction.
    expect(read('low CK')).toEqual([]);
    expect(read('CK was normal')).toEqual([]);
  });

  it('canonicalises unit spellings', () => {
    expect(canonicalUnit('IU/L')).toBe('u/l');
    expect(canonicalUnit('unit/liter')).toBe('u/l');
    expect(canonicalUnit('µIU/mL')).toBe('uu/ml');
    expect(canonicalUnit('mg/100 ml')).toBe('mg/dl');
    expect(canonicalUnit('mEq/L')).toBe('meq/l');
  });
});

describe('createPhenome: laboratory values', () => {
  const ontology = buildOntology([
    ['HP:0000001', 'All', []],
    ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
    ['HP:0001903', 'Anemia', ['HP:0000118'], ['Anaemia']],
    ['HP:0001250', 'Seizure', ['HP:0000118'], ['Seizures']],
    ['HP:0002902', 'Hyponatremia', ['HP:0000118']],
    ['HP:0001873', 'Thrombocytopenia', ['HP:0000118']],
  ]);

  it("reads a note's bare values and flags in the patient's, the family's and negated contexts", () => {
    const text = 'Labs: Na 128, Hb 9.1 (L). Brother: plt 45. No hyponatremia at discharge.';
    expect(
      createPhenome(ontology)
        .extract(text)
        .map((t) => [t.id, t.text, t.subject, t.negated]),
    ).toEqual([
      ['HP:0002902', 'Na 128', 'patient', false],
      ['HP:0001903', 'Hb 9.1', 'patient', false],
      ['HP:0001873', 'plt 45', 'family', false],
      ['HP:0002902', 'hyponatremia', 'patient', true],
    ]);
  });

  it('reports an abnormal value as its finding, flagged lab, with its context', () => {
    const phenome = createPhenome(ontology);
    const text = 'Seizures. Hb 7.1 g/dL. Her mother had Hb 8 g/dL.';
    const terms = phenome.extract(text);
    expect(terms.map((t) => [t.id, t.text, t.lab ?? false, t.subject])).toEqual([
      ['HP:0001250', 'Seizures', false, 'patient'],
      ['HP:0001903', 'Hb 7.1 g/dL', true, 'patient'],
      ['HP:0001903', 'Hb 8 g/dL', true, 'family'],
    ]);
  });

  it('does not repeat a finding already named at the same place, and can be turned off', () => {
    expect(
      createPhenome(ontology)
        .extract('anaemia (Hb 7.1 g/dL)')
        .map((t) => t.id),
    ).toEqual(['HP:0001903', 'HP:0001903']);
    expect(
      createPhenome(ontology, { labValues: false })
        .extract('Hb 7.1 g/dL')
        .map((t) => t.id),
    ).toEqual([]);
  });
});
