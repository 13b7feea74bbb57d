import { Ontology } from '@rarelens/engine';
import { describe, expect, it } from 'vitest';
import { createHpoSearch } from './hpo.service.ts';

const term = (id: string, label: string, parents: string[], synonyms: string[] = [], obsolete = false) => ({
  id,
  label,
  synonyms: synonyms.map((text) => ({ text, scope: 'exact' as const })),
  parents,
  obsolete,
  altIds: [],
});

const ontology = new Ontology({
  version: 'test',
  terms: [
    term('HP:0000001', 'All', []),
    term('HP:0000118', 'Phenotypic abnormality', ['HP:0000001']),
    term('HP:0000005', 'Mode of inheritance', ['HP:0000001']),
    term('HP:0000006', 'Autosomal dominant inheritance', ['HP:0000005']),
    term('HP:0011304', 'Broad thumb', ['HP:0000118'], ['Wide thumbs']),
    term('HP:0001770', 'Toe syndactyly', ['HP:0000118'], ['Fused toes']),
    term('HP:0000244', 'Brachyturricephaly', ['HP:0000118'], ['High, broad skull']),
    term('HP:9999999', 'Broad obsolete thing', ['HP:0000118'], [], true),
  ],
});

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
  });
});
