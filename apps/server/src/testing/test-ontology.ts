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
    // An age-of-onset term: kept among a case's terms and shown as its onset.
    { id: 'HP:0031797', label: 'Clinical course', parents: ['HP:0000001'] },
    { id: 'HP:0003674', label: 'Onset', parents: ['HP:0031797'] },
    { id: 'HP:0003593', label: 'Infantile onset', parents: ['HP:0003674'] },
  ].map((t) => ({ ...t, synonyms: [], obsolete: false, altIds: [] })),
});

/** The `cases.ontology` seam of buildApp answering TEST_ONTOLOGY. */
export const testOntology = () => Promise.resolve(TEST_ONTOLOGY);
