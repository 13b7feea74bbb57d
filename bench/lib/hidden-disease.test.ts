import { describe, expect, it } from 'vitest';
import type { DiseaseAnnotation, HpoDisease, HpoGene, HpoKb } from '../../packages/engine/src/kb/hpo-kb.ts';
import { makeTerm, testOntology } from '../../packages/engine/src/testing.ts';
import { PhenotypeModel } from '../../packages/engine/src/phenotype/model.ts';
import { getBorrowedProfiles, profileProbability } from '../../packages/engine/src/phenotype/series.ts';
import { hideDiseases } from './hidden-disease.ts';

const A1 = 'HP:1000002';
const B1 = 'HP:1000005';
const ontology = testOntology([
  makeTerm('HP:1000001', 'A', ['HP:0000118']),
  makeTerm(A1, 'A1', ['HP:1000001']),
  makeTerm('HP:1000004', 'B', ['HP:0000118']),
  makeTerm(B1, 'B1', ['HP:1000004']),
]);
const ann = (term: string, frequency: number): DiseaseAnnotation => ({ term, frequency, frequencyText: null, onset: null, counts: null });
const disease = (id: string, name: string, annotations: DiseaseAnnotation[], mondo: string | null, genes: string[]): HpoDisease => ({ id, name, mondo, annotations, excluded: [], inheritance: [], onset: [], genes });

/** A KB of these annotated diseases, each gene linked to the diseases that list it. */
function kbOf(diseases: HpoDisease[]): HpoKb {
  const genes = new Map<string, HpoGene>(diseases.flatMap((d) => d.genes.map((g): [string, HpoGene] => [g, { symbol: g, ncbiGeneId: '0', diseases: [{ id: d.id, association: 'MENDELIAN' }] }])));
  return { versions: { hpo: 't', annotations: 't', mondo: 't' }, ontology, diseases, diseaseById: new Map(diseases.map((d) => [d.id, d])), namedDiseases: new Map(), genes };
}

describe('hidden disease: its borrowed profile', () => {
  it('is built from the other members of its series, without the hidden disease or its Mondo twin (no leak)', () => {
    // OMIM:1 alone shows B1; its Orphanet twin (same Mondo class) carries the same annotations.
    const diseases = [
      disease('OMIM:1', 'Spinocerebellar ataxia 1', [ann(A1, 1), ann(B1, 1)], 'MONDO:1', ['G1']),
      disease('ORPHA:1', 'Spinocerebellar ataxia type 1', [ann(A1, 1), ann(B1, 1)], 'MONDO:1', []),
      disease('OMIM:2', 'Spinocerebellar ataxia 2', [ann(A1, 0.8)], null, ['G2']),
      disease('OMIM:3', 'Spinocerebellar ataxia 3', [ann(A1, 0.4)], null, ['G3']),
    ];
    const kb = kbOf(diseases);
    // Before hiding, OMIM:1 is annotated: no borrowed profile.
    expect(getBorrowedProfiles(new PhenotypeModel(kb)).byId.has('OMIM:1')).toBe(false);
    const hidden = hideDiseases(kb, ['OMIM:1'], 'named');
    const model = new PhenotypeModel(hidden);
    const { profiles, byId } = getBorrowedProfiles(model);
    const p = profiles[byId.get('OMIM:1') ?? -1];
    expect(p?.stem).toBe('spinocerebellar ataxia');
    expect(p?.siblings).toEqual(['OMIM:2', 'OMIM:3']);
    expect(profileProbability(p!, model.termIndex.get(A1) ?? -1)).toBeCloseTo((0.8 + 0.4) / 2, 6);
    // B1 is shown only by the hidden disease and its twin: nothing of it reaches the profile.
    expect(profileProbability(p!, model.termIndex.get(B1) ?? -1)).toBe(0);
  });

  it('in no series, is inferred from the other similar titles, without the hidden disease or its Mondo twin (no leak)', () => {
    const diseases = [
      disease(
        'OMIM:1',
        'Epileptic encephalopathy with ataxia',
        [ann(A1, 1), ann(B1, 1)],
        'MONDO:1',
        ['G1'],
      ),
      disease(
        'ORPHA:1',
        'Epileptic encephalopathy-ataxia syndrome',
        [ann(A1, 1), ann(B1, 1)],
        'MONDO:1',
        [],
      ),
      disease('OMIM:2', 'Epileptic encephalopathy, early infantile', [ann(A1, 0.5)], null, ['G2']),
    ];
    const kb = kbOf(diseases);
    const model = new PhenotypeModel(hideDiseases(kb, ['OMIM:1'], 'named'));
    const { profiles, byId } = getBorrowedProfiles(model);
    const p = profiles[byId.get('OMIM:1') ?? -1];
    expect(p?.kind).toBe('similar-titles');
    expect(p?.siblings).toEqual(['OMIM:2']);
    expect(profileProbability(p!, model.termIndex.get(A1) ?? -1)).toBeCloseTo(0.5, 6);
    expect(profileProbability(p!, model.termIndex.get(B1) ?? -1)).toBe(0);
  });
});
