/**
 * A small HPO ontology for integration tests that run without a knowledge base: the terms the
 * tests send (real ids and labels), so the upload's HPO check runs as in production.
 */
import { Ontology } from '@rarelens/engine';

const TERMS: [id: string, label: string][] = [
  ['HP:0000244', 'Brachyturricephaly'],
  ['HP:0000327', 'Hypoplasia of the maxilla'],
  ['HP:0000486', 'Strabismus'],
  ['HP:0000518', 'Cataract'],
  ['HP:0001250', 'Seizure'],
  ['HP:0001770', 'Toe syndactyly'],
  ['HP:0003002', 'Breast carcinoma'],
  ['HP:0011304', 'Broad thumb'],
];

export const TEST_ONTOLOGY = new Ontology({
  version: 'test',
  terms: [
    { id: 'HP:0000001', label: 'All', parents: [] },
    { id: 'HP:0000118', label: 'Phenotypic abnormality', parents: ['HP:0000001'] },
    ...TERMS.map(([id, label]) => ({ id, label, parents: ['HP:0000118'] })),
  ].map((t) => ({ ...t, synonyms: [], obsolete: false, altIds: [] })),
});

/** The `cases.ontology` seam of buildApp answering TEST_ONTOLOGY. */
export const testOntology = () => Promise.resolve(TEST_ONTOLOGY);
