import { Ontology } from '@rarelens/engine';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { createPhenomeService } from './phenome.service.ts';

function buildOntology(): Ontology {
  const term = (id: string, label: string, parents: string[]) => ({
    id,
    label,
    parents,
    synonyms: [],
    obsolete: false,
    altIds: [],
  });
  return new Ontology({
    version: '2026-01-08',
    terms: [
      term('HP:0000001', 'All', []),
      term('HP:0000118', 'Phenotypic abnormality', ['HP:0000001']),
      term('HP:0001250', 'Seizure', ['HP:0000118']),
    ],
  });
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
