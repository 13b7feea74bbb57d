import type { Ontology } from '@rarelens/engine';
import { makeTerm, testOntology } from '@rarelens/engine/testing';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { caseTermsFromText, createPhenomeService } from './phenome.service.ts';

function buildOntology(): Ontology {
  return testOntology(
    [
      makeTerm('HP:0001250', 'Seizure', ['HP:0000118']),
      makeTerm('HP:0000518', 'Cataract', ['HP:0000118']),
      makeTerm('HP:0001252', 'Hypotonia', ['HP:0000118']),
      makeTerm('HP:0000365', 'Hearing impairment', ['HP:0000118']),
      makeTerm('HP:0000006', 'Autosomal dominant inheritance', ['HP:0000005'], { synonyms: [{ text: 'Autosomal dominant', scope: 'exact' }] }),
      makeTerm('HP:0031797', 'Clinical course', ['HP:0000001']),
      makeTerm('HP:0003674', 'Onset', ['HP:0031797']),
      makeTerm('HP:0011463', 'Childhood onset', ['HP:0003674']),
    ],
    '2026-01-08',
  );
}

describe('createPhenomeService', () => {
  it('answers 503 while no HPO is available and recovers once it is', async () => {
    let available: Ontology | null = null;
    let loads = 0;
    const service = createPhenomeService({
      ontology: () => {
        loads++;
        return Promise.resolve(available);
      },
    });
    const failure = await service.extract('Seizures.').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).statusCode).toBe(503);

    available = buildOntology();
    const res = await service.extract('Seizures.');
    expect(res).toMatchObject({ hpoVersion: '2026-01-08', llmUsed: false });
    expect(res.terms.map((t) => t.id)).toEqual(['HP:0001250']);
    await service.extract('No seizures.');
    expect(loads).toBe(2);
  });
});

describe('caseTermsFromText', () => {
  it("keeps the patient's asserted findings as present and negated ones as excluded", async () => {
    const service = createPhenomeService({ ontology: () => Promise.resolve(buildOntology()) });
    const terms = await caseTermsFromText(
      service,
      'Seizures since birth; no cataract. Possible hypotonia. His mother has hearing impairment.',
    );
    expect(terms).toEqual({ hpoTerms: ['HP:0001250'], excludedTerms: ['HP:0000518'] });
  });

  it('returns inheritance and onset as modifiers, the onset marked as such; the onset joins the case terms, the inheritance does not', async () => {
    const service = createPhenomeService({ ontology: () => Promise.resolve(buildOntology()) });
    const text = 'Seizures with childhood onset, inherited in an autosomal dominant manner.';
    const result = await service.extract(text);
    expect(result.terms.map((t) => [t.id, t.category])).toEqual([['HP:0001250', 'phenotype']]);
    expect(result.modifiers.map((t) => [t.id, t.category])).toEqual([
      ['HP:0011463', 'onset'],
      ['HP:0000006', 'inheritance'],
    ]);
    expect(await caseTermsFromText(service, text)).toEqual({
      hpoTerms: ['HP:0001250', 'HP:0011463'],
      excludedTerms: [],
    });
    expect(await caseTermsFromText(service, 'Seizures; no childhood onset.')).toEqual({
      hpoTerms: ['HP:0001250'],
      excludedTerms: [],
    });
  });

  it('gives no terms, rather than failing the upload, while no HPO is available', async () => {
    const service = createPhenomeService({ ontology: () => Promise.resolve(null) });
    expect(await caseTermsFromText(service, 'Seizures.')).toEqual({
      hpoTerms: [],
      excludedTerms: [],
    });
  });
});
