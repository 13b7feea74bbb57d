import { describe, expect, it } from 'vitest';
import { findOnsetStatements, onsetOfGestation, onsetOfStatedAge } from './onset.ts';

const found = (text: string): [string, string][] =>
  findOnsetStatements(text).map((f) => [f.id, text.slice(f.start, f.end)]);

describe('onsetOfStatedAge', () => {
  it('maps an age to the HPO onset term by the engine (HPO definitions) at each boundary', () => {
    const day = 1;
    const year = 365.25;
    expect(onsetOfStatedAge(0)).toBe('HP:0003577'); // at birth: Congenital onset
    expect(onsetOfStatedAge(27 * day)).toBe('HP:0003623'); // within the first 28 days: Neonatal
    expect(onsetOfStatedAge(28 * day)).toBe('HP:0003593'); // 28 days to 1 year: Infantile
    expect(onsetOfStatedAge(year - 1)).toBe('HP:0003593');
    expect(onsetOfStatedAge(year)).toBe('HP:0011463'); // 1 to 5 years: Childhood
    expect(onsetOfStatedAge(5 * year)).toBe('HP:0003621'); // 5 to 15 years: Juvenile
    expect(onsetOfStatedAge(15.9 * year)).toBe('HP:0003621');
    expect(onsetOfStatedAge(16 * year)).toBe('HP:0025708'); // 16 to < 19: Early young adult
    expect(onsetOfStatedAge(19 * year)).toBe('HP:0025709'); // 19 to < 25: Intermediate young adult
    expect(onsetOfStatedAge(25 * year)).toBe('HP:0025710'); // 25 to < 40: Late young adult
    expect(onsetOfStatedAge(40 * year)).toBe('HP:0003596'); // 40 to 60: Middle age
    expect(onsetOfStatedAge(60 * year)).toBe('HP:0003596');
    expect(onsetOfStatedAge(60 * year + 1)).toBe('HP:0003584'); // after 60: Late onset
    expect(onsetOfStatedAge(-1)).toBeUndefined();
    expect(onsetOfStatedAge(130 * year)).toBeUndefined();
  });

  it('reads "at 28 days" as infantile and "at 60 years" as middle age onset', () => {
    expect(found('Seizures began at 28 days of life.')).toEqual([['HP:0003593', 'began at 28 days of life']]);
    expect(found('Seizures began at 27 days of life.')).toEqual([['HP:0003623', 'began at 27 days of life']]);
    expect(found('Onset at 60 years.')).toEqual([['HP:0003596', 'Onset at 60 years']]);
  });

  it('maps a gestational age to the antenatal onset terms', () => {
    expect(onsetOfGestation(9)).toBe('HP:0011460'); // Embryonal
    expect(onsetOfGestation(12)).toBe('HP:0034199'); // Late first trimester
    expect(onsetOfGestation(20)).toBe('HP:0034198'); // Second trimester
    expect(onsetOfGestation(32)).toBe('HP:0034197'); // Third trimester
    expect(onsetOfGestation(60)).toBeUndefined();
  });
});

describe('findOnsetStatements', () => {
  it('reads "began when he was 2 months old" and "When she was 3 years old, X started" as onset', () => {
    expect(found('Seizures started when he was 2 months old.')).toEqual([['HP:0003593', 'started when he was 2 months old']]);
    expect(found('Her symptoms began when she was 3 years old.')).toEqual([['HP:0011463', 'began when she was 3 years old']]);
    expect(found('Problems began when he was 6 months of age.')).toEqual([['HP:0003593', 'began when he was 6 months of age']]);
    expect(found('The ataxia was first noticed when she was 4.')).toEqual([['HP:0011463', 'was first noticed when she was 4']]);
    expect(found('The tremor started when he was 65.')).toEqual([['HP:0003584', 'started when he was 65']]);
    expect(found('When he was 2 months old, seizures started.')).toEqual([['HP:0003593', 'When he was 2 months old, seizures started']]);
    expect(found('Symptoms began at age 3.')).toEqual([['HP:0011463', 'began at age 3']]);
  });

  it('does not read a milestone, a treatment, a measure or a relative as the onset in a "when he was" clause', () => {
    for (const text of [
      'When he was 2 years old, he started walking.',
      'When she was 3, she started school.',
      'When he was 5 years old he started treatment with valproate.',
      'When she was 12 years old, her mother developed seizures.',
      'He started to walk when he was 2 years old.',
      'Treatment started when she was 4 years old.',
      'Seizures started when he was 2 kg.',
      'He was diagnosed when he was 5 years old.',
      'She developed normally until she was 2 years old.',
    ])
      expect(found(text), text).toEqual([]);
  });

  it('reads an age at onset after an onset noun or a verb of beginning', () => {
    expect(found('Age at onset 7 years.')).toEqual([['HP:0003621', 'Age at onset 7 years']]);
    expect(found('Onset of weakness at 14 years.')).toEqual([
      ['HP:0003621', 'Onset of weakness at 14 years'],
    ]);
    expect(found('The disease onset was at 2 years of age.')).toEqual([
      ['HP:0011463', 'onset was at 2 years of age'],
    ]);
    expect(found('He presented at 3 months with seizures.')).toEqual([
      ['HP:0003593', 'presented at 3 months'],
    ]);
    expect(found('She first developed seizures at the age of 8 months.')).toEqual([
      ['HP:0003593', 'first developed seizures at the age of 8 months'],
    ]);
    expect(found('Muscle weakness was first noticed at 2 years of age.')).toEqual([
      ['HP:0011463', 'was first noticed at 2 years of age'],
    ]);
    expect(found('At 6 months of age, she developed infantile spasms.')).toEqual([
      ['HP:0003593', 'At 6 months of age, she developed'],
    ]);
    expect(found('He has had seizures since the age of 3 years.')).toEqual([
      ['HP:0011463', 'since the age of 3 years'],
    ]);
    expect(found('Ataxia began at 45 years.')).toEqual([['HP:0003596', 'began at 45 years']]);
  });

  it('reads periods of life named in words and a congenital predicate', () => {
    expect(found('She had hypotonia from birth.')).toEqual([['HP:0003577', 'from birth']]);
    expect(found('Symptoms started at birth.')).toEqual([['HP:0003577', 'started at birth']]);
    expect(found('Symptoms began in early childhood.')).toEqual([
      ['HP:0011463', 'began in early childhood'],
    ]);
    // The HPO's own synonym of Childhood onset: "Symptoms begin in childhood".
    expect(found('Cataracts appeared in childhood.')).toEqual([
      ['HP:0011463', 'appeared in childhood'],
    ]);
    // The period first, the verb of beginning after it.
    expect(found('During childhood, recurrent episodes of abdominal pain appeared.')).toEqual([
      ['HP:0011463', 'During childhood, recurrent episodes of abdominal pain appeared'],
    ]);
    expect(found('In infancy she developed seizures.')).toEqual([
      ['HP:0003593', 'In infancy she developed'],
    ]);
    expect(found('In childhood he walked well.')).toEqual([]);
    expect(found('Since infancy she had recurrent infections.')).toEqual([
      ['HP:0003593', 'Since infancy'],
    ]);
    expect(found('The cataracts were congenital and bilateral.')).toEqual([
      ['HP:0003577', 'were congenital'],
    ]);
    expect(found('At birth, pterygia were present at both knees.')).toEqual([
      ['HP:0003577', 'At birth, pterygia were present'],
    ]);
    expect(found('At birth, the weight was normal.')).toEqual([]);
    // "congenital" before a noun is part of a name, not a predicate.
    expect(found('The defect was congenital heart disease.')).toEqual([]);
  });

  it('reads an age without its unit after "age" as years, decades and hours after birth', () => {
    expect(found('Her symptoms first appeared at the age of 12.')).toEqual([
      ['HP:0003621', 'first appeared at the age of 12'],
    ]);
    expect(found('He had been symptomatic since age 40.')).toEqual([
      ['HP:0003596', 'since age 40'],
    ]);
    expect(found('Muscle weakness started in the legs at age 55.')).toEqual([
      ['HP:0003596', 'started in the legs at age 55'],
    ]);
    expect(found('From the age of 10, she had recurrent fractures.')).toEqual([
      ['HP:0003621', 'From the age of 10'],
    ]);
    expect(found('Onset: 3 years.')).toEqual([['HP:0011463', 'Onset: 3 years']]);
    expect(found('Ataxia became apparent in her thirties.')).toEqual([
      ['HP:0025710', 'became apparent in her thirties'],
    ]);
    expect(found('Weakness of the legs, with onset during the third decade.')).toEqual([
      ['HP:0011462', 'onset during the third decade'],
    ]);
    expect(found('Seizures started 2 days after birth.')).toEqual([
      ['HP:0003623', 'started 2 days after birth'],
    ]);
    expect(found('Hypoglycemia began within the first 24 hours of life.')).toEqual([
      ['HP:0003623', 'began within the first 24 hours of life'],
    ]);
    expect(found('Hypotonia was noted in the neonatal period.')).toEqual([
      ['HP:0003623', 'noted in the neonatal period'],
    ]);
    // A number without a unit elsewhere, a time after another event, a range: not read.
    expect(found('Onset was 12.')).toEqual([]);
    expect(found('Symptom onset was 6 weeks after vaccination.')).toEqual([]);
    expect(found('Fractures began at the age of 2 and 5 months.')).toEqual([]);
    expect(found('Patients were aged from 11 months to over 12 years.')).toEqual([]);
    expect(found('The age of onset ranged from 2 to 10 years.')).toEqual([]);
  });

  it('reads an age in weeks of a pregnancy as a gestational age', () => {
    expect(found('Polyhydramnios was detected at 30 weeks of gestation.')).toEqual([
      ['HP:0034197', 'was detected at 30 weeks of gestation'],
    ]);
    expect(found('Short femora were noticed at 20 weeks by prenatal ultrasound.')).toEqual([
      ['HP:0034198', 'were noticed at 20 weeks'],
    ]);
  });

  it('does not read an age of examination, milestone, treatment, diagnosis or a range', () => {
    expect(found('A 5-year-old boy was seen.')).toEqual([]);
    expect(found('At the age of 5 years he walked with support.')).toEqual([]);
    expect(found('He started walking at 18 months and started school at 6 years.')).toEqual([]);
    expect(found('He developed normally until the age of 2 years.')).toEqual([]);
    expect(found('He was diagnosed at 12 years.')).toEqual([]);
    expect(found('On examination at 56 years, she presented with normal stature.')).toEqual([]);
    expect(found('He has received physical therapy since the age of one year.')).toEqual([]);
    expect(found('Birth weight was 3.2 kg at birth.')).toEqual([]);
    expect(found('From birth to 4 months, the child developed normally.')).toEqual([]);
    expect(found('Age at diagnosis ranged from birth to 15 years.')).toEqual([]);
    expect(found('She was referred to our clinic at 3 years.')).toEqual([]);
  });
});
