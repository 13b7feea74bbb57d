import { Ontology } from '@rarelens/engine';
import { makeTerm, testOntology } from '@rarelens/engine/testing';
import { describe, expect, it } from 'vitest';
import { createHpoSearch } from './hpo.service.ts';

const term = (id: string, label: string, parents: string[], synonyms: string[] = [], obsolete = false) =>
  makeTerm(id, label, parents, { synonyms: synonyms.map((text) => ({ text, scope: 'exact' as const })), obsolete });

const ontology = testOntology([
  term('HP:0011304', 'Broad thumb', ['HP:0000118'], ['Wide thumbs']),
  term('HP:0001770', 'Toe syndactyly', ['HP:0000118'], ['Fused toes']),
  term('HP:0000244', 'Brachyturricephaly', ['HP:0000118'], ['High, broad skull']),
  term('HP:9999999', 'Broad obsolete thing', ['HP:0000118'], [], true),
  term('HP:0031797', 'Clinical course', ['HP:0000001']),
  term('HP:0003674', 'Onset', ['HP:0031797']),
  term('HP:0003593', 'Infantile onset', ['HP:0003674'], ['Onset in infancy']),
  term('HP:0003676', 'Progressive', ['HP:0031797']),
]);

describe('HPO autocomplete', () => {
  const search = createHpoSearch(ontology);
  it('matches word prefixes in labels before synonyms', () => {
    expect(search.search('broad', 10).map((h) => h.id)).toEqual(['HP:0011304', 'HP:0000244']);
    expect(search.search('fused to', 10)).toEqual([{ id: 'HP:0001770', label: 'Toe syndactyly', matchedSynonym: 'Fused toes' }]);
  });
  it('finds a term by id, with or without the prefix', () => {
    expect(search.search('HP:0000244', 5).map((h) => h.id)).toEqual(['HP:0000244']);
    expect(search.search('1770', 5).map((h) => h.id)).toEqual(['HP:0001770']);
  });
  it('leaves out obsolete terms and terms outside Phenotypic abnormality', () => {
    expect(search.search('obsolete', 5)).toEqual([]);
    expect(search.search('autosomal', 5)).toEqual([]);
    expect(search.search('progressive', 5)).toEqual([]);
  });
  it("offers the age-of-onset terms, marked as onset (the patient's onset is scored), but not Onset itself", () => {
    expect(search.search('infancy', 5)).toEqual([{ id: 'HP:0003593', label: 'Infantile onset', matchedSynonym: 'Onset in infancy', onset: true }]);
    expect(search.search('HP:0003593', 5)).toEqual([{ id: 'HP:0003593', label: 'Infantile onset', matchedSynonym: null, onset: true }]);
    expect(search.search('onset', 5).map((h) => h.id)).toEqual(['HP:0003593']);
  });
});

describe('HPO autocomplete ranking of synonyms and lay wording', () => {
  const hearing = new Ontology({
    version: 'test',
    terms: [
      term('HP:0000001', 'All', []),
      term('HP:0000118', 'Phenotypic abnormality', ['HP:0000001']),
      term('HP:0000365', 'Hearing impairment', ['HP:0000118'], ['Deafness', 'Hearing loss', 'Hearing defect']),
      term('HP:0008542', 'Low-frequency hearing loss', ['HP:0000365']),
      term('HP:0012781', 'Mid-frequency hearing loss', ['HP:0000365']),
      term('HP:0009900', 'Unilateral deafness', ['HP:0000365']),
      term('HP:0000407', 'Sensorineural hearing impairment', ['HP:0000365'], ['Sensorineural hearing loss']),
    ],
  });
  const search = createHpoSearch(hearing, [{ text: 'hard of hearing', id: 'HP:0000365' }]);

  it('offers the term whose synonym equals the query before labels that merely contain it', () => {
    const hits = search.search('hearing loss', 10);
    expect(hits[0]).toEqual({ id: 'HP:0000365', label: 'Hearing impairment', matchedSynonym: 'Hearing loss' });
    expect(hits.map((h) => h.id)).toContain('HP:0008542');
    expect(search.search('deafness', 10).map((h) => h.id)).toEqual(['HP:0000365', 'HP:0009900']);
  });

  it('puts a text starting with the query before one that only contains its words', () => {
    expect(search.search('sensorineural hear', 10)[0]?.id).toBe('HP:0000407');
    expect(search.search('hearing', 10)[0]?.id).toBe('HP:0000365');
  });

  it('finds lay wording, naming the phrase matched', () => {
    expect(search.search('hard of hearing', 5)[0]).toEqual({
      id: 'HP:0000365',
      label: 'Hearing impairment',
      matchedSynonym: 'hard of hearing',
    });
  });
});
