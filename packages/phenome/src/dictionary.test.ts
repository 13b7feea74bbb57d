import { describe, expect, it } from 'vitest';
import {
  adjectiveForms,
  organAbnormalityPhrases,
  PhraseDictionary,
  phraseWords,
} from './dictionary.ts';
import { createPhenome } from './phenome.ts';
import { buildOntology } from './testing/build-ontology.ts';

const ontology = buildOntology([
  ['HP:0000001', 'All', []],
  ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
  ['HP:0000598', 'Abnormality of the ear', ['HP:0000118'], ['Ear anomaly']],
  ['HP:0000356', 'Abnormality of the outer ear', ['HP:0000598'], ['Ear anomalies']],
  [
    'HP:0000400',
    'Macrotia',
    ['HP:0000356'],
    [
      { text: 'Large ears', scope: 'related' },
      { text: 'Large ear', scope: 'exact' },
    ],
  ],
  [
    'HP:5200049',
    'Atypical sorting',
    ['HP:0000118'],
    [
      { text: 'Ordering', scope: 'exact' },
      { text: 'Order', scope: 'related' },
    ],
  ],
]);

describe('PhraseDictionary', () => {
  it('keeps the best scope when a phrase is both listed and generated for a term', () => {
    const dict = new PhraseDictionary(ontology);
    const words = phraseWords('ear anomaly');
    const hash = words.reduce((a, w) => a + (dict.lookup(w)?.hash ?? 0), 0);
    const entries = dict.entriesFor(hash, words);
    expect(entries.find((e) => e.termId === 'HP:0000598')).toMatchObject({
      source: 'exact',
      weight: 0.95,
    });
  });

  it('prefers the more general term when one phrase names a term and its descendant', () => {
    expect(
      createPhenome(ontology)
        .extract('ear anomalies')
        .map((t) => t.id),
    ).toEqual(['HP:0000598']);
  });

  it('matches one-word synonyms on their surface form only and skips non-exact ones', () => {
    const phenome = createPhenome(ontology);
    expect(phenome.extract('in alphabetical order')).toEqual([]);
    expect(phenome.extract('compulsive ordering').map((t) => t.id)).toEqual(['HP:5200049']);
  });

  it('generates everyday names for organ grouping terms', () => {
    expect(organAbnormalityPhrases('Abnormality of the kidney')).toEqual(
      expect.arrayContaining([
        'abnormal kidney',
        'renal anomaly',
        'kidney malformation',
        'anomaly of the kidney',
      ]),
    );
    expect(organAbnormalityPhrases('Seizure')).toEqual([]);
  });
});

describe('adjectiveForms', () => {
  it('derives the predicative adjective of one-word -ia, -ism and -ity findings', () => {
    expect(adjectiveForms('Dysarthria')).toEqual(['dysarthric']);
    expect(adjectiveForms('Obesity')).toEqual(['obese']);
    expect(adjectiveForms('Hirsutism')).toEqual(['hirsutic']);
    expect(adjectiveForms('Short stature')).toEqual([]);
    expect(adjectiveForms('Ptosis')).toEqual([]);
  });
});
