import { describe, expect, it } from 'vitest';
import { makeTerm, testOntology } from '../testing.ts';
import type { DiseaseAnnotation, HpoDisease, HpoKb } from '../kb/hpo-kb.ts';
import { PhenotypeModel } from './model.ts';
import { preferredDiseaseId, rankPhenotype } from './rank-phenotype.ts';
import { DEFAULT_SCORING_OPTIONS, explainDisease, resolveQuery, scoreDiseases } from './score.ts';
import { bestMatchAverage, lin, mostInformativeCommonAncestor, resnik } from './similarity.ts';

// Hand-made ontology:
//   root HP:0000001 > PA HP:0000118 > A HP:1000001 > {A1 HP:1000002, A2 HP:1000003}
//                                  > B HP:1000004 > B1 HP:1000005
// HP:1000009 is an alternative id of A1.
const ontology = testOntology([
  makeTerm('HP:1000001', 'A', ['HP:0000118']),
  makeTerm('HP:1000002', 'A1', ['HP:1000001'], { altIds: ['HP:1000009'] }),
  makeTerm('HP:1000003', 'A2', ['HP:1000001']),
  makeTerm('HP:1000004', 'B', ['HP:0000118']),
  makeTerm('HP:1000005', 'B1', ['HP:1000004']),
  // Outside Phenotypic abnormality (as are Mode of inheritance and its terms): PhenomeAI reads these from a description too.
  makeTerm('HP:0031797', 'Clinical course', ['HP:0000001']),
  makeTerm('HP:0011463', 'Childhood onset', ['HP:0031797']),
]);

function ann(
  t: string,
  frequency: number | null,
  counts: [number, number] | null = null,
): DiseaseAnnotation {
  return { term: t, frequency, frequencyText: null, onset: null, counts };
}
function disease(
  id: string,
  annotations: DiseaseAnnotation[],
  extra: Partial<HpoDisease> = {},
): HpoDisease {
  return {
    id,
    name: `Disease ${id}`,
    mondo: null,
    annotations,
    excluded: [],
    inheritance: [],
    onset: [],
    genes: [],
    ...extra,
  };
}
function buildKb(diseases: HpoDisease[]): HpoKb {
  const genes = new Map<
    string,
    { symbol: string; ncbiGeneId: string; diseases: { id: string; association: 'MENDELIAN' }[] }
  >();
  for (const d of diseases)
    for (const g of d.genes) {
      const e = genes.get(g) ?? { symbol: g, ncbiGeneId: '0', diseases: [] };
      e.diseases.push({ id: d.id, association: 'MENDELIAN' });
      genes.set(g, e);
    }
  return {
    versions: { hpo: 'test', annotations: 'test', mondo: 'test' },
    ontology,
    diseases,
    diseaseById: new Map(diseases.map((d) => [d.id, d])),
    namedDiseases: new Map(),
    genes,
  };
}

const A = 'HP:1000001';
const A1 = 'HP:1000002';
const A2 = 'HP:1000003';
const B1 = 'HP:1000005';

const kb = buildKb([
  disease('OMIM:1', [ann(A1, 1), ann(B1, 0.5)], { genes: ['G1'], mondo: 'MONDO:1' }),
  disease('OMIM:2', [ann(A2, 1)], { genes: ['G2'] }),
  disease('OMIM:3', [ann(B1, 1)], { excluded: [A1], genes: ['G3'] }),
  disease('ORPHA:1', [ann(B1, 1)], { mondo: 'MONDO:1' }),
]);
const model = new PhenotypeModel(kb, { defaultFrequency: 0.6, priorCount: 5, propagation: 'max' });
const ix = (id: string): number => model.indexOf(id);

describe('HPO semantics on a hand-made ontology', () => {
  it('computes annotation-based information content with ancestor propagation', () => {
    // A1 is shown by 1 of 4 diseases, A (via A1, A2) by 2; smoothing adds half an annotation.
    expect(model.ic[ix(A1)]).toBeCloseTo(-Math.log(1.5 / 4.5), 10);
    expect(model.ic[ix(A)]).toBeCloseTo(-Math.log(2.5 / 4.5), 10);
    expect(model.ic[ix('HP:0000001')]).toBe(0);
  });

  it('propagates frequencies to ancestors (max of the descendants)', () => {
    expect(model.probability(model.diseaseIndex.get('OMIM:1') ?? -1, ix(A))).toBeCloseTo(1, 6);
    expect(model.probability(model.diseaseIndex.get('OMIM:1') ?? -1, ix('HP:1000004'))).toBeCloseTo(
      0.5,
      6,
    );
    expect(model.probability(model.diseaseIndex.get('OMIM:2') ?? -1, ix(A1))).toBe(0);
  });

  it('computes Resnik and Lin similarity through the most informative common ancestor', () => {
    expect(model.termId(mostInformativeCommonAncestor(model, ix(A1), ix(A2)))).toBe(A);
    expect(resnik(model, ix(A1), ix(A2))).toBeCloseTo(model.ic[ix(A)] ?? NaN, 10);
    expect(lin(model, ix(A1), ix(A2))).toBeCloseTo(
      (2 * (model.ic[ix(A)] ?? 0)) / ((model.ic[ix(A1)] ?? 0) + (model.ic[ix(A2)] ?? 0)),
      10,
    );
    expect(lin(model, ix(A1), ix(A1))).toBeCloseTo(1, 10);
    expect(bestMatchAverage(model, [ix(A1)], [ix(A1)])).toBeCloseTo(model.ic[ix(A1)] ?? NaN, 10);
  });

  it('shrinks n/m frequencies seen in few patients towards the prior', () => {
    const kb2 = buildKb([disease('OMIM:9', [ann(A1, 1, [1, 1])])]);
    const m2 = new PhenotypeModel(kb2, {
      defaultFrequency: 0.6,
      priorCount: 5,
      propagation: 'max',
    });
    expect(m2.probability(0, m2.indexOf(A1))).toBeCloseTo((1 + 5 * 0.6) / (1 + 5), 6);
  });

  it('combines annotated descendants by max, or by noisy-or when asked', () => {
    const kb3 = buildKb([disease('OMIM:7', [ann(A1, 0.5), ann(A2, 0.5)])]);
    expect(
      new PhenotypeModel(kb3, {
        defaultFrequency: 0.6,
        priorCount: 5,
        propagation: 'max',
      }).probability(0, ix(A)),
    ).toBeCloseTo(0.5, 6);
    const m3 = new PhenotypeModel(kb3, {
      defaultFrequency: 0.6,
      priorCount: 5,
      propagation: 'noisy-or',
    });
    expect(m3.probability(0, m3.indexOf(A))).toBeCloseTo(0.75, 6);
  });

  it('resolves alternative ids of patient terms', () => {
    const q = resolveQuery(model, { present: ['HP:1000009'] });
    expect(q.present.map((t) => model.termId(t))).toEqual([A1]);
  });
});

describe('likelihood-ratio scoring', () => {
  const q = resolveQuery(model, { present: [A1] });
  const lr = scoreDiseases(model, q);
  const d = (id: string): number => model.diseaseIndex.get(id) ?? -1;

  it('gives an exact match LR = P(term|disease) / background', () => {
    const bg = (1 + 0.5) / (4 + 0.5);
    expect(Math.exp(lr[d('OMIM:1')] ?? NaN)).toBeCloseTo(1 / bg, 6);
  });

  it('gives a partial match through the shared ancestor a penalised LR, never below an unexplained term', () => {
    const bgA = (2 + 0.5) / 4.5;
    const strong = { ...DEFAULT_SCORING_OPTIONS, partialPenalty: 0.1, noMatchLr: 0.05 };
    expect(Math.exp(scoreDiseases(model, q, strong)[d('OMIM:2')] ?? NaN)).toBeCloseTo((0.1 * 1) / bgA, 6);
    // With the shipped options the penalised LR of this broad ancestor may fall under noMatchLr: the term counts as unexplained.
    expect(Math.exp(lr[d('OMIM:2')] ?? NaN)).toBeCloseTo(Math.max(DEFAULT_SCORING_OPTIONS.noMatchLr, DEFAULT_SCORING_OPTIONS.partialPenalty / bgA), 6);
    const weak = { ...DEFAULT_SCORING_OPTIONS, partialPenalty: 0.02, noMatchLr: 0.05 };
    expect(Math.exp(scoreDiseases(model, q, weak)[d('OMIM:2')] ?? NaN)).toBeCloseTo(0.05, 6);
    expect(explainDisease(model, q, d('OMIM:2'), weak).matched[0]).toMatchObject({ kind: 'unmatched', lr: 0.05 });
  });

  it('gives a term the disease is annotated NOT to show the contradiction LR', () => {
    expect(Math.exp(lr[d('OMIM:3')] ?? NaN)).toBeCloseTo(
      DEFAULT_SCORING_OPTIONS.contradictionLr,
      6,
    );
    expect(explainDisease(model, q, d('OMIM:3')).matched[0]?.kind).toBe('contradicted');
  });

  it('lowers diseases that usually show an excluded term', () => {
    const withEx = scoreDiseases(model, resolveQuery(model, { present: [A1], excluded: [B1] }));
    // OMIM:3 shows B1 always, OMIM:1 in half: the exclusion costs OMIM:3 more.
    const cost = (id: string): number => (lr[d(id)] ?? 0) - (withEx[d(id)] ?? 0);
    expect(cost('OMIM:3')).toBeGreaterThan(cost('OMIM:1'));
    expect(cost('OMIM:2')).toBeLessThan(0); // a disease without B1 gains a little
  });

  it('names a disease by the id the disease list ranks it under (OMIM over a Mondo-equivalent ORPHA entry)', () => {
    expect(preferredDiseaseId(kb, 'ORPHA:1')).toBe('OMIM:1');
    expect(preferredDiseaseId(kb, 'OMIM:1')).toBe('OMIM:1');
    expect(preferredDiseaseId(kb, 'OMIM:2')).toBe('OMIM:2');
    expect(preferredDiseaseId(kb, 'OMIM:999')).toBe('OMIM:999');
  });

  it('ranks the matching disease first, merges Mondo-equivalent entries and ranks genes through diseases', () => {
    const r = rankPhenotype(kb, { present: [A1, B1] }, { model });
    expect(r.diseases[0]?.id).toBe('OMIM:1');
    expect(r.diseases[0]?.mergedIds).toEqual(['ORPHA:1']);
    expect(r.diseases.some((x) => x.id === 'ORPHA:1')).toBe(false);
    expect(r.diseases.map((x) => x.rank)).toEqual(r.diseases.map((_, i) => i + 1));
    expect(r.genes[0]?.symbol).toBe('G1');
    expect(
      r.diseases[0]?.explanation?.some((l) =>
        l.includes('A1 (HP:1000002) is a feature of the disease'),
      ),
    ).toBe(true);
    // Calibrated: the listed diseases share what "none of these" leaves.
    const cal = { temperature: 0.5, nullLn: 1, rankExponent: 0 };
    const c = rankPhenotype(kb, { present: [A1, B1] }, { model, calibration: cal });
    const scores = c.diseases.map((x) => x.score * Math.LN10);
    const z =
      Math.exp(cal.temperature * cal.nullLn) +
      scores.reduce((s, x) => s + Math.exp(cal.temperature * x), 0);
    expect(c.diseases[0]?.postTestProbability).toBeCloseTo(
      Math.exp(cal.temperature * (scores[0] ?? 0)) / z,
      9,
    );
    const sum = c.diseases.reduce((s, x) => s + x.postTestProbability, 0);
    expect(sum).toBeCloseTo(1 - Math.exp(cal.temperature * cal.nullLn) / z, 9);
  });

  it('ranks on the findings alone when the query also lists inheritance and onset terms', () => {
    const findings = rankPhenotype(kb, { present: [A1, B1] }, { model });
    const withMeta = rankPhenotype(
      kb,
      { present: [A1, 'HP:0000006', B1, 'HP:0011463'], excluded: ['HP:0000006'] },
      { model },
    );
    expect(withMeta.diseases.map((d) => [d.id, d.score])).toEqual(
      findings.diseases.map((d) => [d.id, d.score]),
    );
    expect(withMeta.genes.map((g) => g.symbol)).toEqual(findings.genes.map((g) => g.symbol));
    expect(withMeta.ignored.map((x) => x.id).sort()).toEqual([
      'HP:0000006',
      'HP:0000006',
      'HP:0011463',
    ]);
    expect(withMeta.ignored.every((x) => x.reason.startsWith('not a phenotypic abnormality'))).toBe(
      true,
    );
  });

  it('breaks ties deterministically by disease id', () => {
    const tie = buildKb([disease('OMIM:20', [ann(A1, 1)]), disease('OMIM:10', [ann(A1, 1)])]);
    const r = rankPhenotype(
      tie,
      { present: [A1] },
      {
        model: new PhenotypeModel(tie, {
          defaultFrequency: 0.6,
          priorCount: 5,
          propagation: 'max',
        }),
      },
    );
    expect(r.diseases.map((x) => x.id)).toEqual(['OMIM:10', 'OMIM:20']);
  });
});
