import { describe, expect, it } from 'vitest';
import type { Synonym } from '../hpo/ontology.ts';
import { makeTerm, testOntology } from '../testing.ts';
import { nameTermMatcher } from './disease-name-terms.ts';

const term = (id: string, label: string, parents: string[], synonyms: Synonym[] = []) =>
  makeTerm(id, label, parents, { synonyms });
const exact = (text: string): Synonym => ({ text, scope: 'exact' });
const ontology = testOntology([
  term('HP:0000007', 'Autosomal recessive inheritance', ['HP:0000005']),
  term('HP:0012759', 'Neurodevelopmental abnormality', ['HP:0000118']),
  term('HP:0001249', 'Intellectual disability', ['HP:0012759'], [exact('Mental retardation')]),
  term(
    'HP:0001252',
    'Hypotonia',
    ['HP:0000118'],
    [exact('Low muscle tone'), { text: 'HT', scope: 'exact', type: 'abbreviation' }],
  ),
  term('HP:0000478', 'Abnormality of the eye', ['HP:0000118'], [exact('Eye abnormality')]),
  term(
    'HP:0002079',
    'Hypoplasia of the corpus callosum',
    ['HP:0000118'],
    [exact('Thin corpus callosum')],
  ),
  term('HP:0001875', 'Neutropenia', ['HP:0000118']),
  term('HP:0003198', 'Myopathy', ['HP:0000118'], [{ text: 'Muscle disease', scope: 'related' }]),
  term('HP:0003560', 'Muscular dystrophy', ['HP:0003198']),
]);
const m = nameTermMatcher(ontology);

describe('phenotype features named in a disease title', () => {
  it('matches labels and exact synonyms as whole words, plurals included, longest first', () => {
    expect(
      m.phenotypeTerms(
        'Neurodevelopmental disorder with thin corpus callosum, hypotonia, and eye abnormalities',
      ),
    ).toEqual(['HP:0012759', 'HP:0002079', 'HP:0001252', 'HP:0000478']);
    expect(m.phenotypeTerms('myelofibrosis, congenital, with NEUTROPENIA')).toEqual(['HP:0001875']);
  });

  it("reads OMIM's 'intellectual developmental disorder' as intellectual disability and keeps the most specific feature", () => {
    // Neurodevelopmental abnormality (from 'neurodevelopmental disorder') is implied by intellectual disability.
    expect(
      m.phenotypeTerms(
        'neurodevelopmental disorder and intellectual developmental disorder, autosomal recessive 83',
      ),
    ).toEqual(['HP:0001249']);
    expect(m.phenotypeTerms('Myopathy and muscular dystrophy')).toEqual(['HP:0003560']);
  });

  it('ignores related synonyms, abbreviations and eponyms', () => {
    expect(m.phenotypeTerms('Tayoun-Maawali syndrome')).toEqual([]);
    expect(m.phenotypeTerms('muscle disease, HT type')).toEqual([]);
  });

  it('reads the stated mode of inheritance', () => {
    expect(
      m.inheritanceTerms('intellectual developmental disorder, autosomal recessive 83'),
    ).toEqual(['HP:0000007']);
    expect(m.inheritanceTerms('tubulointerstitial kidney disease, autosomal dominant 6')).toEqual([
      'HP:0000006',
    ]);
    expect(m.inheritanceTerms('Tayoun-Maawali syndrome')).toEqual([]);
  });
});
