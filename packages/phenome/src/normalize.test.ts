import { describe, expect, it } from 'vitest';
import { normalizeWord, stem, tokenize } from './normalize.ts';

const same = (a: string, b: string): void => {
  expect(normalizeWord(a), `${a} vs ${b}`).toBe(normalizeWord(b));
};

describe('normalizeWord', () => {
  it('folds plurals, including Latin and Greek forms', () => {
    same('seizures', 'seizure');
    same('anomalies', 'anomaly');
    same('vertebrae', 'vertebra');
    same('phalanges', 'phalanx');
    same('stenoses', 'stenosis');
    same('meningiomas', 'meningioma');
    same('abscesses', 'abscess');
    same('feet', 'foot');
  });

  it('folds inflections and adjective/noun pairs', () => {
    same('dilated', 'dilate');
    same('bruising', 'bruise');
    same('enlargement', 'enlarged');
    same('hypoplastic', 'hypoplasia');
    same('scoliotic', 'scoliosis');
    same('microcephalic', 'microcephaly');
    same('abnormalities', 'abnormal');
    same('weakness', 'weak');
    same('elevation', 'elevated');
  });

  it('reads the Latin adjectives of fixed names as their English forms', () => {
    same('fetalis', 'fetal');
    same('palmaris', 'palmar');
    same('congenita', 'congenital');
    expect(normalizeWord('axis')).not.toBe(normalizeWord('ax'));
  });

  it('maps British to American spelling and folds diacritics', () => {
    same('haemorrhage', 'hemorrhage');
    same('oedema', 'edema');
    same('tumours', 'tumor');
    same('anaemia', 'anemia');
    same('paediatric', 'pediatric');
    same('leucocytosis', 'leukocytosis');
    same('leucopenia', 'leukopenia');
    same('leucaemia', 'leukemia');
    // An amino acid, not a white cell.
    expect(normalizeWord('leucine')).toMatch(/^leuc/);
    same('café', 'cafe');
  });

  it('keeps distinct words apart', () => {
    expect(normalizeWord('spine')).not.toBe(normalizeWord('spinning'));
    expect(normalizeWord('fits')).not.toBe(normalizeWord('fit'));
    expect(normalizeWord('ASD')).not.toBe(normalizeWord('asd'));
    same('VSDs', 'VSD');
  });

  it("reads an organ's adjective as its noun and a comparative as its adjective", () => {
    expect(stem('mandibular')).toBe(stem('mandible'));
    expect(stem('cerebellar')).toBe(stem('cerebellum'));
    expect(stem('diaphyseal')).toBe(stem('diaphyses'));
    expect(stem('cortical')).toBe(stem('cortices'));
    expect(stem('Coarser'.toLowerCase())).toBe(stem('coarse'));
    expect(stem('narrower')).toBe(stem('narrow'));
    expect(stem('obstruction')).toBe(stem('obstructed'));
    expect(stem('infarction')).toBe(stem('infarcts'));
    // Adjectives with other senses keep their own form.
    expect(stem('temporal')).not.toBe(stem('temple'));
    expect(stem('radial')).not.toBe(stem('radius'));
    expect(stem('lower')).not.toBe(stem('low'));
  });

  it('leaves short words and numbers alone', () => {
    expect(stem('ear')).toBe('ear');
    expect(stem('2nd')).toBe('2nd');
  });
});

describe('tokenize', () => {
  it('gives exact offsets and marks hyphens and punctuation breaks', () => {
    const text = 'Oto-renal, (mild) deafness';
    const tokens = tokenize(text);
    expect(tokens.map((t) => text.slice(t.start, t.end))).toEqual([
      'Oto',
      'renal',
      'mild',
      'deafness',
    ]);
    expect(tokens[0]?.hyphenNext).toBe(true);
    expect(tokens[0]?.breakAfter).toBe(false);
    expect(tokens[1]?.breakAfter).toBe(true);
    expect(tokens[2]?.breakAfter).toBe(true);
  });

  it('keeps possessive apostrophes inside a token', () => {
    expect(tokenize("Down's syndrome").map((t) => t.raw)).toEqual(["Down's", 'syndrome']);
  });

  it('does not break a mention at a plural possessive apostrophe', () => {
    const tokens = tokenize('Gowers’ sign, then');
    expect(tokens.map((t) => t.raw)).toEqual(['Gowers', 'sign', 'then']);
    expect(tokens[0]?.breakAfter).toBe(false);
    expect(tokens[1]?.breakAfter).toBe(true);
  });
});
