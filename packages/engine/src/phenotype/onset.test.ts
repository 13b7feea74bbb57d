import { describe, expect, it } from 'vitest';
import type { DiseaseAnnotation, HpoDisease, HpoKb } from '../kb/hpo-kb.ts';
import { makeTerm, testOntology } from '../testing.ts';
import { PhenotypeModel } from './model.ts';
import { getOnsetTable, isoDurationDays, onsetClassesOf, onsetDistribution, onsetShares, onsetTermOfAge, patientOnset, onsetTermOfDays, onsetTermOfGestationalAge } from './onset.ts';
import { describeDiseaseMatch, rankPhenotype } from './rank-phenotype.ts';
import { DEFAULT_SCORING_OPTIONS, explainDisease, resolveQuery, scoreDiseases, type PhenotypeScoringOptions } from './score.ts';

// The HPO onset subtree (2025-05-06) and two findings.
const ontology = testOntology([
  makeTerm('HP:0031797', 'Clinical course', ['HP:0000001']),
  makeTerm('HP:0003674', 'Onset', ['HP:0031797']),
  makeTerm('HP:0030674', 'Antenatal onset', ['HP:0003674']),
  makeTerm('HP:0011461', 'Fetal onset', ['HP:0030674']),
  makeTerm('HP:0003577', 'Congenital onset', ['HP:0003674']),
  makeTerm('HP:0003623', 'Neonatal onset', ['HP:0003674']),
  makeTerm('HP:0410280', 'Pediatric onset', ['HP:0003674']),
  makeTerm('HP:0003593', 'Infantile onset', ['HP:0410280']),
  makeTerm('HP:0011463', 'Childhood onset', ['HP:0410280']),
  makeTerm('HP:0003621', 'Juvenile onset', ['HP:0410280']),
  makeTerm('HP:0003581', 'Adult onset', ['HP:0003674']),
  makeTerm('HP:0011462', 'Young adult onset', ['HP:0003581']),
  makeTerm('HP:0025708', 'Early young adult onset', ['HP:0011462']),
  makeTerm('HP:0025709', 'Intermediate young adult onset', ['HP:0011462']),
  makeTerm('HP:0025710', 'Late young adult onset', ['HP:0011462']),
  makeTerm('HP:0003596', 'Middle age onset', ['HP:0003581']),
  makeTerm('HP:0003584', 'Late onset', ['HP:0003581']),
  makeTerm('HP:1000001', 'A', ['HP:0000118']),
  makeTerm('HP:1000002', 'B', ['HP:0000118']),
]);
const A = 'HP:1000001';
const INFANTILE = 'HP:0003593';
const NEONATAL = 'HP:0003623';
const CONGENITAL = 'HP:0003577';
const ADULT = 'HP:0003581';
const PEDIATRIC = 'HP:0410280';

const ann = (term: string): DiseaseAnnotation => ({ term, frequency: 1, frequencyText: null, onset: null, counts: null });
const disease = (id: string, onset: string[]): HpoDisease => ({ id, name: `Disease ${id}`, mondo: null, annotations: [ann(A)], excluded: [], inheritance: [], onset, genes: [] });
const diseases = [disease('OMIM:1', [INFANTILE]), disease('OMIM:2', [ADULT]), disease('OMIM:3', [])];
const kb: HpoKb = { versions: { hpo: 't', annotations: 't', mondo: 't' }, ontology, diseases, diseaseById: new Map(diseases.map((d) => [d.id, d])), namedDiseases: new Map(), genes: new Map() };
const model = new PhenotypeModel(kb);
const opts: PhenotypeScoringOptions = { ...DEFAULT_SCORING_OPTIONS, onsetNeighbour: 0.5, onsetSmoothing: 0.09, onsetWeight: 1 };
const d = (id: string): number => model.diseaseIndex.get(id) ?? -1;

describe('age of onset: HPO class of an age', () => {
  it('maps ages to the HPO onset classes by their definitions', () => {
    const cases: [string, string][] = [
      ['P0D', CONGENITAL],
      ['P1D', NEONATAL],
      ['P3W6D', NEONATAL],
      ['P4W', INFANTILE],
      ['P27D', NEONATAL],
      ['P28D', INFANTILE],
      ['P29D', INFANTILE],
      ['P1M', INFANTILE],
      ['P11M', INFANTILE],
      ['P1Y', 'HP:0011463'],
      ['P4Y11M', 'HP:0011463'],
      ['P5Y', 'HP:0003621'],
      ['P15Y11M', 'HP:0003621'],
      ['P15Y', 'HP:0003621'],
      ['P16Y', 'HP:0025708'],
      ['P18Y11M', 'HP:0025708'],
      ['P19Y', 'HP:0025709'],
      ['P24Y11M', 'HP:0025709'],
      ['P25Y', 'HP:0025710'],
      ['P39Y', 'HP:0025710'],
      ['P40Y', 'HP:0003596'],
      ['P60Y', 'HP:0003596'],
      ['P60Y1D', 'HP:0003584'],
      ['P95Y', 'HP:0003584'],
      ['P1Y6M', 'HP:0011463'],
    ];
    expect(cases.map(([iso]) => [iso, onsetTermOfAge(iso)])).toEqual(cases);
    expect(isoDurationDays('P2W3D')).toBe(17);
    // Every term named is an onset term of the KB's ontology, in the age class the bench scores it as.
    for (const [, term] of cases) expect(onsetClassesOf(ontology, term)).toHaveLength(1);
    expect(onsetClassesOf(ontology, onsetTermOfDays(20 * 365.25))).toEqual([6]);
    expect(onsetTermOfDays(27.9)).toBe(NEONATAL);
    expect(onsetTermOfDays(28)).toBe(INFANTILE);
    expect(onsetTermOfDays(60 * 365.25)).toBe('HP:0003596');
    expect(onsetTermOfDays(60 * 365.25 + 1)).toBe('HP:0003584');
    expect(() => onsetTermOfDays(-1)).toThrow('age -1 days is not a finite age after birth');
    expect(() => onsetTermOfDays(NaN)).toThrow('age NaN days');
    expect(onsetTermOfGestationalAge(34)).toBe('HP:0030674');
  });

  it('refuses what is not an ISO 8601 duration or a gestational age, naming the value', () => {
    for (const bad of ['3 years', 'P', 'P3X', '', 'Y3'])
      expect(() => onsetTermOfAge(bad)).toThrow(`'${bad}' is not an ISO 8601 duration`);
    expect(() => onsetTermOfGestationalAge(NaN)).toThrow('gestational age NaN weeks');
  });
});

describe('age of onset: classes and likelihood ratio', () => {
  it('places onset terms on the ordinal scale; a grouping term names all its classes', () => {
    expect(onsetClassesOf(ontology, 'HP:0011461')).toEqual([0]);
    expect(onsetClassesOf(ontology, CONGENITAL)).toEqual([1]);
    expect(onsetClassesOf(ontology, PEDIATRIC)).toEqual([3, 4, 5]);
    expect(onsetClassesOf(ontology, ADULT)).toEqual([6, 7, 8]);
    expect(onsetClassesOf(ontology, 'HP:0025708')).toEqual([6]);
    expect(onsetClassesOf(ontology, A)).toEqual([]);
  });

  it("spreads a disease's onset to its ordinal neighbours by the kernel, with the uniform floor", () => {
    const p = onsetDistribution(ontology, [INFANTILE], { onsetNeighbour: 0.5, onsetSmoothing: 0.09, onsetFrequencyPower: 0 });
    // kernel 0.5^|b - 3| over the 9 classes, normalised; then 0.91 of it + 0.01
    const k = [0.125, 0.25, 0.5, 1, 0.5, 0.25, 0.125, 0.0625, 0.03125];
    const z = k.reduce((s, x) => s + x, 0);
    expect(Array.from(p ?? [])).toEqual(k.map((x) => expect.closeTo((0.91 * x) / z + 0.01, 12) as unknown as number));
    const sharp = onsetDistribution(ontology, [INFANTILE], { onsetNeighbour: 0, onsetSmoothing: 0.09, onsetFrequencyPower: 0 });
    expect(sharp?.[3]).toBeCloseTo(0.92, 12);
    expect(sharp?.[2]).toBeCloseTo(0.01, 12);
    expect(onsetDistribution(ontology, [], opts)).toBeNull();
  });

  it("weighs a disease's onset terms by their frequencies: known ones split their equal shares by frequency^power, unknown ones keep 1/T", () => {
    const CHILDHOOD = 'HP:0011463';
    const freq = { [INFANTILE]: 12 / 15, [ADULT]: 1 / 15 };
    expect(onsetShares([INFANTILE, ADULT], freq, 0)).toEqual([0.5, 0.5]);
    expect(onsetShares([INFANTILE, ADULT], freq, 1).map((x) => x.toFixed(12))).toEqual([12 / 13, 1 / 13].map((x) => x.toFixed(12)));
    expect(onsetShares([INFANTILE, ADULT], freq, 0.5).map((x) => x.toFixed(12))).toEqual([Math.sqrt(12) / (Math.sqrt(12) + 1), 1 / (Math.sqrt(12) + 1)].map((x) => x.toFixed(12)));
    // Childhood onset has no frequency: it keeps 1/3; the other two split 2/3 by frequency.
    expect(onsetShares([INFANTILE, ADULT, CHILDHOOD], freq, 1).map((x) => x.toFixed(12))).toEqual([(2 / 3) * (12 / 13), (2 / 3) * (1 / 13), 1 / 3].map((x) => x.toFixed(12)));
    expect(onsetShares([INFANTILE, ADULT], undefined, 1)).toEqual([0.5, 0.5]);
    expect(onsetShares([INFANTILE, ADULT], { [INFANTILE]: 0, [ADULT]: 0 }, 1)).toEqual([0.5, 0.5]);

    const sharp = { onsetNeighbour: 0, onsetSmoothing: 0.09, onsetFrequencyPower: 1 };
    const p = onsetDistribution(ontology, [INFANTILE, ADULT], sharp, freq);
    // Adult onset names three classes (young adult, middle age, late): its share split among them.
    expect(p?.[3]).toBeCloseTo(0.91 * (12 / 13) + 0.01, 12);
    expect(p?.[7]).toBeCloseTo((0.91 * (1 / 13)) / 3 + 0.01, 12);
    const equal = onsetDistribution(ontology, [INFANTILE, ADULT], { ...sharp, onsetFrequencyPower: 0 }, freq);
    expect(equal?.[3]).toBeCloseTo(0.91 * 0.5 + 0.01, 12);
    expect(Array.from(equal ?? [])).toEqual(Array.from(onsetDistribution(ontology, [INFANTILE, ADULT], sharp) ?? []));

    // Through the model: the disease annotated Infantile 12/15, Adult 1/15 favours an infantile patient under power 1.
    const weighted: HpoDisease = { ...disease('OMIM:4', [INFANTILE, ADULT]), onsetFrequency: freq };
    const kb4: HpoKb = { ...kb, diseases: [...diseases, weighted], diseaseById: new Map([...diseases, weighted].map((x) => [x.id, x])) };
    const m4 = new PhenotypeModel(kb4);
    const o1 = { ...opts, onsetFrequencyPower: 1 };
    const q = resolveQuery(m4, { present: [A, INFANTILE] }, o1);
    const i4 = m4.diseaseIndex.get('OMIM:4') ?? -1;
    const s0 = scoreDiseases(m4, q, { ...o1, onsetFrequencyPower: 0 });
    const s1 = scoreDiseases(m4, q, o1);
    expect((s1[i4] ?? 0) - (s0[i4] ?? 0)).toBeGreaterThan(0.3);
    // the explanation's onset line carries the same LR as the score
    const line = explainDisease(m4, q, i4, o1).matched.find((x) => x.kind === 'onset');
    const base = scoreDiseases(m4, resolveQuery(m4, { present: [A] }, o1), o1);
    expect(Math.log(line?.lr ?? 0)).toBeCloseTo((s1[i4] ?? 0) - (base[i4] ?? 0), 12);
    expect(() => getOnsetTable(m4, { ...o1, onsetFrequencyPower: -1 })).toThrow('onsetFrequencyPower must be finite and >= 0, got -1');
  });

  it('scores LR = P(onset | disease) / P(onset | background), 1 for a disease without onset annotations', () => {
    const q = resolveQuery(model, { present: [A, INFANTILE] }, opts);
    const base = scoreDiseases(model, resolveQuery(model, { present: [A] }, opts), opts);
    const withOnset = scoreDiseases(model, q, opts);
    const { dist, background } = getOnsetTable(model, opts);
    // background: the mean over the two diseases with onset annotations
    expect(background[3]).toBeCloseTo(((dist[d('OMIM:1')]?.[3] ?? 0) + (dist[d('OMIM:2')]?.[3] ?? 0)) / 2, 12);
    expect((withOnset[d('OMIM:1')] ?? 0) - (base[d('OMIM:1')] ?? 0)).toBeCloseTo(Math.log((dist[d('OMIM:1')]?.[3] ?? 0) / (background[3] ?? 1)), 12);
    expect((withOnset[d('OMIM:1')] ?? 0) - (base[d('OMIM:1')] ?? 0)).toBeGreaterThan(0);
    expect((withOnset[d('OMIM:2')] ?? 0) - (base[d('OMIM:2')] ?? 0)).toBeLessThan(0);
    expect(withOnset[d('OMIM:3')]).toBe(base[d('OMIM:3')]);
    // the weight is the LR's exponent; weight 0 leaves the scores as without onset
    const half = scoreDiseases(model, q, { ...opts, onsetWeight: 0.5 });
    expect((half[d('OMIM:1')] ?? 0) - (base[d('OMIM:1')] ?? 0)).toBeCloseTo(((withOnset[d('OMIM:1')] ?? 0) - (base[d('OMIM:1')] ?? 0)) / 2, 12);
    expect(Array.from(scoreDiseases(model, q, { ...opts, onsetWeight: 0 }))).toEqual(Array.from(base));
    // a cap of 1: a matching onset no longer counts for the disease, a distant one still against it
    const capped = scoreDiseases(model, q, { ...opts, onsetMaxLr: 1 });
    expect(capped[d('OMIM:1')]).toBe(base[d('OMIM:1')]);
    expect(capped[d('OMIM:2')]).toBe(withOnset[d('OMIM:2')]);
  });

  it('gives an ordinal neighbour of the disease onset more than a distant onset, and only the floor without a kernel', () => {
    const gain = (onset: string, o: PhenotypeScoringOptions): number => (scoreDiseases(model, resolveQuery(model, { present: [A, onset] }, o), o)[d('OMIM:1')] ?? 0) - (scoreDiseases(model, resolveQuery(model, { present: [A] }, o), o)[d('OMIM:1')] ?? 0);
    expect(gain(NEONATAL, opts)).toBeGreaterThan(gain('HP:0003621', opts));
    expect(gain('HP:0003621', opts)).toBeGreaterThan(gain('HP:0003584', opts));
    const sharp = { ...opts, onsetNeighbour: 0 };
    const sharpTable = getOnsetTable(model, sharp);
    expect(gain(NEONATAL, sharp)).toBeCloseTo(Math.log(0.01 / (sharpTable.background[2] ?? 1)), 12);
    expect(gain(NEONATAL, sharp)).toBeLessThan(gain(NEONATAL, opts));
    // Pediatric onset: the sum over infantile, childhood and juvenile
    const { dist, background } = getOnsetTable(model, opts);
    const p = dist[d('OMIM:1')];
    const s = (x: ArrayLike<number> | undefined | null): number => (x?.[3] ?? 0) + (x?.[4] ?? 0) + (x?.[5] ?? 0);
    expect(gain(PEDIATRIC, opts)).toBeCloseTo(Math.log(s(p) / s(background)), 12);
  });
});

describe('age of onset in the query and the explanation', () => {
  it('patientOnset: the earliest onset term of the present terms, whatever their order; the others named as not used', () => {
    const CHILDHOOD = 'HP:0011463';
    expect(patientOnset(ontology, [A, CHILDHOOD, INFANTILE])).toEqual({
      onset: { term: INFANTILE, classes: [3] },
      ignored: [{ id: CHILDHOOD, reason: 'a later onset than Infantile onset: the onset is when the disease first shows' }],
    });
    expect(patientOnset(ontology, [INFANTILE, CHILDHOOD]).onset?.term).toBe(INFANTILE);
    // Pediatric onset (infantile to juvenile) is implied by Infantile onset; on a tie of the earliest class the narrower wins.
    expect(patientOnset(ontology, [PEDIATRIC, INFANTILE])).toEqual({ onset: { term: INFANTILE, classes: [3] }, ignored: [{ id: PEDIATRIC, reason: 'implied by a more specific onset term' }] });
    expect(patientOnset(ontology, ['HP:0003674', A])).toEqual({ onset: null, ignored: [{ id: 'HP:0003674', reason: 'too general an onset term (no age class)' }] });
    expect(patientOnset(ontology, [A])).toEqual({ onset: null, ignored: [] });
  });

  it('keeps an onset term of the term list as the onset, not as an ignored term', () => {
    const q = resolveQuery(model, { present: [A, INFANTILE] }, opts);
    expect(q.onset?.term).toBe(model.termIndex.get(INFANTILE));
    expect(q.present).toEqual([model.termIndex.get(A)]);
    expect(q.ignored).toEqual([]);
  });

  it('uses the earliest of several onset terms; a more general one it implies is dropped; an excluded onset term is not used', () => {
    const q = resolveQuery(model, { present: [A, ADULT, PEDIATRIC, NEONATAL, INFANTILE], excluded: [CONGENITAL] }, opts);
    expect(q.onset?.term).toBe(model.termIndex.get(NEONATAL));
    expect(q.ignored).toEqual([
      { id: CONGENITAL, reason: 'an excluded onset term is not used (give the onset the patient had)' },
      { id: ADULT, reason: 'a later onset than Neonatal onset: the onset is when the disease first shows' },
      { id: PEDIATRIC, reason: 'a later onset than Neonatal onset: the onset is when the disease first shows' },
      { id: INFANTILE, reason: 'a later onset than Neonatal onset: the onset is when the disease first shows' },
    ]);
    const nested = resolveQuery(model, { present: [PEDIATRIC, INFANTILE] }, opts);
    expect(nested.onset?.term).toBe(model.termIndex.get(INFANTILE));
    expect(nested.ignored).toEqual([{ id: PEDIATRIC, reason: 'implied by a more specific onset term' }]);
    expect(resolveQuery(model, { present: ['HP:0003674'] }, opts).ignored).toEqual([{ id: 'HP:0003674', reason: 'too general an onset term (no age class)' }]);
  });

  it('explains the onset as its own line; the lines multiply to the score', () => {
    const q = resolveQuery(model, { present: [A, NEONATAL] }, opts);
    const ln = scoreDiseases(model, q, opts);
    for (const id of ['OMIM:1', 'OMIM:2', 'OMIM:3']) {
      const ex = explainDisease(model, q, d(id), opts);
      const onset = ex.matched.find((m) => m.kind === 'onset');
      expect(onset?.term).toBe(NEONATAL);
      const product = [...ex.matched, ...ex.excluded].reduce((s, m) => s + Math.log(m.lr), 0);
      expect(product).toBeCloseTo(ln[d(id)] ?? 0, 9);
    }
    const one = explainDisease(model, q, d('OMIM:1'), opts).matched.find((m) => m.kind === 'onset');
    expect(one?.diseaseTerm).toBe(INFANTILE);
    expect(describeDiseaseMatch(one ? [one] : [], [])).toEqual([
      `Onset Neonatal onset (${NEONATAL}) against the disease's onset Infantile onset (${INFANTILE}; ${Math.round((one?.frequency ?? 0) * 100)}% of its patients expected at this onset): LR ${one?.lr.toPrecision(3) ?? ''}`,
    ]);
    const none = explainDisease(model, q, d('OMIM:3'), opts).matched.find((m) => m.kind === 'onset');
    expect(none).toMatchObject({ diseaseTerm: null, frequency: null, lr: 1 });
    expect(describeDiseaseMatch(none ? [none] : [], [])).toEqual([`Onset Neonatal onset (${NEONATAL}): the disease has no onset annotation: LR 1.00`]);
  });

  it('ranks a disease of matching onset first and reports the onset used', () => {
    const r = rankPhenotype(kb, { present: [A, 'HP:0025708'] }, { model, scoring: opts });
    expect(r.diseases.map((x) => x.id)).toEqual(['OMIM:2', 'OMIM:3', 'OMIM:1']);
    expect(r.used.onset).toEqual({ id: 'HP:0025708', label: 'Early young adult onset' });
    expect(r.diseases[0]?.explanation?.some((l) => l.startsWith('Onset Early young adult onset'))).toBe(true);
  });
});
