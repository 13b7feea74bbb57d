import { describe, expect, it } from 'vitest';
import type { DiseaseAnnotation, HpoDisease, HpoGene, HpoKb, NamedDisease } from '../kb/hpo-kb.ts';
import { makeTerm, testOntology } from '../testing.ts';
import { PhenotypeModel } from './model.ts';
import { rankPhenotype } from './rank-phenotype.ts';
import { DEFAULT_SCORING_OPTIONS, resolveQuery } from './score.ts';
import { rankCase } from '../rank/rank-case.ts';
import { buildVariant } from '../rank/test-builders.ts';
import { buildBorrowedProfiles, DEFAULT_BORROWED_OPTIONS, describeBorrowed, getBorrowedProfiles, profileProbability, scoreBorrowed, SERIES_PRIOR_LN, seriesStem, titleFeatures } from './series.ts';

const A = 'HP:1000001';
const A1 = 'HP:1000002';
const B = 'HP:1000004';
const B1 = 'HP:1000005';
const C1 = 'HP:1000007';
const ontology = testOntology([
  makeTerm(A, 'Abnormal ear', ['HP:0000118']),
  makeTerm(A1, 'Low-set ears', [A]),
  makeTerm(B, 'Abnormal heart', ['HP:0000118']),
  makeTerm(B1, 'Pulmonic stenosis', [B]),
  makeTerm('HP:1000006', 'Abnormal eye', ['HP:0000118']),
  makeTerm(C1, 'Ptosis', ['HP:1000006']),
]);

const ann = (term: string, frequency: number): DiseaseAnnotation => ({ term, frequency, frequencyText: null, onset: null, counts: null });
const disease = (id: string, name: string, annotations: DiseaseAnnotation[], mondo: string | null = null): HpoDisease => ({ id, name, mondo, annotations, excluded: [], inheritance: [], onset: [], genes: [] });
const named = (id: string, name: string, nameTerms: string[] = [], genes: string[] = []): NamedDisease => ({ id, name, mondo: null, nameTerms, inheritance: [], genes });

function buildKb(diseases: HpoDisease[], namedDiseases: NamedDisease[]): HpoKb {
  const genes = new Map<string, HpoGene>();
  for (const d of namedDiseases) for (const g of d.genes) genes.set(g, { symbol: g, ncbiGeneId: '0', diseases: [{ id: d.id, association: 'MENDELIAN' }] });
  return {
    versions: { hpo: 'test', annotations: 'test', mondo: 'test' },
    ontology,
    diseases,
    diseaseById: new Map(diseases.map((d) => [d.id, d])),
    namedDiseases: new Map(namedDiseases.map((d) => [d.id, d])),
    genes,
  };
}

describe('seriesStem', () => {
  it('drops series numbers, types and inheritance qualifiers', () => {
    expect(seriesStem('Noonan syndrome 12')).toBe('noonan syndrome');
    expect(seriesStem('Ciliary dyskinesia, primary, 52')).toBe('ciliary dyskinesia primary');
    expect(seriesStem('Intellectual developmental disorder, autosomal dominant 75')).toBe('intellectual developmental disorder');
    expect(seriesStem('intellectual developmental disorder, X-linked 112')).toBe('intellectual developmental disorder');
    expect(seriesStem('Charcot-Marie-Tooth disease, axonal, type 2KK')).toBe('charcot marie tooth disease axonal');
    expect(seriesStem('Fanconi anemia, complementation group A')).toBe('fanconi anemia');
    expect(seriesStem('Mitochondrial complex I deficiency, nuclear type 5')).toBe('mitochondrial complex i deficiency nuclear');
    expect(seriesStem('Tayoun-Maawali syndrome')).toBe('tayoun maawali syndrome');
    expect(seriesStem('A 1')).toBeNull();
  });
});

describe('borrowed profiles of diseases known only by name', () => {
  const kb = buildKb(
    [
      disease('OMIM:1', 'Noonan syndrome 1', [ann(A1, 0.9), ann(B1, 0.6)], 'MONDO:1'),
      disease('ORPHA:1', 'Noonan syndrome', [ann(A1, 0.9), ann(B1, 0.6)], 'MONDO:1'),
      disease('OMIM:2', 'Noonan syndrome 2', [ann(A1, 0.5)]),
      disease('OMIM:3', 'Ptosis syndrome', [ann(C1, 1)]),
    ],
    [named('OMIM:12', 'Noonan syndrome 12', [], ['PTPN11X']), named('OMIM:20', 'ptosis and pulmonic stenosis', [C1, B1]), named('OMIM:30', 'Tayoun-Maawali syndrome')],
  );
  const model = new PhenotypeModel(kb);
  const { profiles, byId } = getBorrowedProfiles(model);
  const series = profiles[byId.get('OMIM:12') ?? -1];

  it('borrows the mean of the series members, one per Mondo class', () => {
    expect(series?.stem).toBe('noonan syndrome');
    expect(series?.siblings).toEqual(['OMIM:1', 'OMIM:2']);
    const t = (id: string): number => model.termIndex.get(id) ?? -1;
    expect(profileProbability(series!, t(A1))).toBeCloseTo((0.9 + 0.5) / 2, 6);
    expect(profileProbability(series!, t(B1))).toBeCloseTo(0.6 / 2, 6);
    expect(profileProbability(series!, t(C1))).toBe(0);
    // No series: a 'similar-titles' profile when an annotated title is alike ('ptosis'), none for an
    // eponym no annotated title shares a word with beyond 'syndrome'.
    expect(series?.kind).toBe('series');
    expect(profiles[byId.get('OMIM:20') ?? -1]?.kind).toBe('similar-titles');
    expect(profiles[byId.get('OMIM:20') ?? -1]?.siblings).toEqual(['OMIM:3']);
    expect(byId.has('OMIM:30')).toBe(false);
    expect(profiles).toHaveLength(2);
  });

  it('ranks them beside the annotated diseases with the per-term LR arithmetic, labelled, every term explained, never above the member they borrow from', () => {
    const q = resolveQuery(model, { present: [A1, B1] });
    const raw = scoreBorrowed(model, q, DEFAULT_SCORING_OPTIONS);
    const t = (id: string): number => model.termIndex.get(id) ?? -1;
    const expected = Math.log(0.7 / (model.background[t(A1)] ?? 1)) + Math.log(0.3 / (model.background[t(B1)] ?? 1));
    expect(raw[byId.get('OMIM:12') ?? -1]).toBeCloseTo(expected, 6);
    const r = rankPhenotype(kb, { present: [A1, B1] });
    const d = r.diseases.find((x) => x.id === 'OMIM:12');
    expect(d?.phenotypeSource).toBe('series');
    expect(expected + SERIES_PRIOR_LN).toBeGreaterThan(Math.log(0.9 / (model.background[t(A1)] ?? 1)) + Math.log(0.6 / (model.background[t(B1)] ?? 1)));
    expect(d?.explanation?.[0]).toContain("phenotype borrowed from 2 diseases of the series 'noonan syndrome' (OMIM:1, OMIM:2)");
    expect(d?.matched?.map((m) => [m.term, m.kind, m.frequency])).toEqual([
      [A1, 'exact', expect.closeTo(0.7, 6)],
      [B1, 'exact', expect.closeTo(0.3, 6)],
    ]);
    expect(d?.matched?.reduce((s, m) => s + Math.log(m.lr), 0)).toBeCloseTo(expected, 6);
    const annotated = r.diseases.find((x) => x.id === 'OMIM:1');
    expect(annotated?.phenotypeSource).toBe('annotations');
    expect(annotated?.mergedIds).toEqual(['ORPHA:1']);
    expect(r.diseases.some((x) => x.id === 'OMIM:20')).toBe(false);
    // Capped just below its best-fitting series member (OMIM:1: 0.9 and 0.6 against the mean 0.7 and
    // 0.3), whatever the prior, and the explanation says so.
    expect(d?.rank).toBe((annotated?.rank ?? 0) + 1);
    expect(d?.score).toBeCloseTo(annotated?.score ?? 0, 5);
    expect(d?.score).toBeLessThan(annotated?.score ?? 0);
    expect(d?.explanation?.[1]).toBe(
      `Score 10^${((expected + SERIES_PRIOR_LN) / Math.LN10).toFixed(2)} capped just below its best-fitting series member Noonan syndrome 1 (OMIM:1, 10^${(annotated?.score ?? 0).toFixed(2)}): a borrowed phenotype does not outrank the diseases it is borrowed from`,
    );
    // Phenotype-only gene ranking reaches a gene through its disease known by name.
    expect(r.genes.find((g) => g.symbol === 'PTPN11X')?.bestDisease).toBe('OMIM:12');
  });
});

describe('titleFeatures', () => {
  it('keeps the words and adjacent pairs of a title, without designators, inheritance or connecting words', () => {
    expect(
      titleFeatures('Neurodevelopmental disorder with seizures, autosomal recessive 2'),
    ).toEqual([
      'disorder',
      'disorder seizure',
      'neurodevelopmental',
      'neurodevelopmental disorder',
      'seizure',
    ]);
    expect(titleFeatures('Spondyloepiphyseal dysplasia, type IV')).toEqual([
      'dysplasia',
      'spondyloepiphyseal',
      'spondyloepiphyseal dysplasia',
    ]);
  });
});

describe('similar-titles profiles of named diseases in no series', () => {
  const D = 'HP:1000006';
  const kb = buildKb(
    [
      disease(
        'OMIM:101',
        'Epileptic encephalopathy with ptosis',
        [ann(A1, 0.8), ann(C1, 0.6)],
        'MONDO:101',
      ),
      disease('ORPHA:101', 'Ptosis-epileptic encephalopathy', [ann(A1, 0.8)], 'MONDO:101'),
      disease('OMIM:102', 'Epileptic encephalopathy, early infantile', [ann(B1, 0.5)]),
      disease('OMIM:103', 'Retinal dystrophy', [ann(C1, 0.9)]),
      disease('OMIM:104', 'Cardiomyopathy, dilated', [ann(B1, 1)]),
    ],
    [
      named(
        'OMIM:200',
        'Neurodevelopmental disorder with epileptic encephalopathy',
        [],
        ['GENE200'],
      ),
      named('OMIM:300', 'Tayoun-Maawali syndrome', [], ['GENE300']),
      named('OMIM:400', 'Epileptic encephalopathy and ptosis', [D], ['GENE400']),
    ],
  );
  const model = new PhenotypeModel(kb);
  const t = (id: string): number => model.termIndex.get(id) ?? -1;
  const b = getBorrowedProfiles(model);
  const p = b.profiles[b.byId.get('OMIM:200') ?? -1];

  it('borrows the similarity-weighted mean of the most alike annotated titles, one per Mondo class', () => {
    expect(p?.kind).toBe('similar-titles');
    // The two epileptic-encephalopathy titles; OMIM:101's Orphanet twin (less alike) does not count twice.
    expect(p?.siblings).toEqual(['OMIM:101', 'OMIM:102']);
    const [s101, s102] = p?.similarity ?? [];
    expect(s101).toBeGreaterThan(s102 ?? 1);
    expect(s102).toBeGreaterThanOrEqual(DEFAULT_BORROWED_OPTIONS.minTitleSimilarity);
    const w = (s101 ?? 0) + (s102 ?? 0);
    expect(profileProbability(p!, t(A1))).toBeCloseTo(((s101 ?? 0) * 0.8) / w, 6);
    expect(profileProbability(p!, t(C1))).toBeCloseTo(((s101 ?? 0) * 0.6) / w, 6);
    expect(profileProbability(p!, t(B1))).toBeCloseTo(((s102 ?? 0) * 0.5) / w, 6);
    // No shared word: nothing borrowed from the retinal or cardiac diseases, no profile for the eponym.
    expect(b.byId.has('OMIM:300')).toBe(false);
    // A feature its title names still counts at 0.8 at least.
    const q = b.profiles[b.byId.get('OMIM:400') ?? -1];
    expect(q?.kind).toBe('similar-titles');
    expect(profileProbability(q!, t(D))).toBeCloseTo(0.8, 6);
  });

  it('follows k and the least similarity, and is deterministic', () => {
    const one = buildBorrowedProfiles(model, { titleNeighbours: 1, minTitleSimilarity: 0.1 });
    expect(one.profiles[one.byId.get('OMIM:200') ?? -1]?.siblings).toEqual(['OMIM:101']);
    // Only OMIM:400's title has the very words of an annotated one (OMIM:101).
    const strict = buildBorrowedProfiles(model, { titleNeighbours: 5, minTitleSimilarity: 0.999 });
    expect(
      strict.profiles
        .filter((x) => x.kind === 'similar-titles')
        .map((x) => [x.disease.id, x.siblings]),
    ).toEqual([['OMIM:400', ['OMIM:101']]]);
    const off = buildBorrowedProfiles(model, { titleNeighbours: 0, minTitleSimilarity: 0.1 });
    expect(off.profiles.some((x) => x.kind === 'similar-titles')).toBe(false);
    const again = buildBorrowedProfiles(new PhenotypeModel(kb), DEFAULT_BORROWED_OPTIONS);
    expect(
      again.profiles.map((x) => [
        x.disease.id,
        x.siblings,
        x.similarity,
        [...x.terms],
        [...x.probs],
      ]),
    ).toEqual(
      b.profiles.map((x) => [x.disease.id, x.siblings, x.similarity, [...x.terms], [...x.probs]]),
    );
    expect(() =>
      buildBorrowedProfiles(model, { titleNeighbours: -1, minTitleSimilarity: 0.1 }),
    ).toThrow(RangeError);
  });

  it('says where the phenotype comes from', () => {
    const [s101, s102] = p?.similarity ?? [];
    expect(describeBorrowed(p!)).toBe(
      `no HPO annotations yet; phenotype inferred from 2 diseases with similar names (OMIM:101 ${(s101 ?? 0).toFixed(2)}, OMIM:102 ${(s102 ?? 0).toFixed(2)}; title similarity)`,
    );
  });

  it('ranks a gene on it, explained term by term, but is not listed in the phenotype-only disease ranking', () => {
    const hpoPresent = [A1, C1];
    expect(
      rankPhenotype(kb, { present: hpoPresent }).diseases.some((x) => x.id === 'OMIM:200'),
    ).toBe(false);
    const variant = buildVariant({
      gene: 'GENE200',
      zygosity: 'homozygous',
      consequences: ['frameshift_variant'],
      score: 0.9,
    });
    // A prior that lets the profile beat the title-feature candidate in this five-disease KB.
    const g = rankCase({ hpoPresent, variants: [variant] }, kb, {
      constants: { similarTitlesDiseaseLn: 0 },
    }).genes.find((x) => x.symbol === 'GENE200');
    expect(g?.scoreParts.source).toBe('similar-titles');
    const q = resolveQuery(model, { present: hpoPresent });
    const ln =
      scoreBorrowed(model, q, DEFAULT_SCORING_OPTIONS)[b.byId.get('OMIM:200') ?? -1] ?? NaN;
    expect(g?.scoreParts.phenotypeLn).toBeCloseTo(ln, 9);
    expect(g?.evidence.phenotype).toMatchObject({
      diseaseId: 'OMIM:200',
      source: 'similar-titles',
    });
    expect(g?.evidence.phenotype?.matched.reduce((s, m) => s + Math.log(m.lr), 0)).toBeCloseTo(
      ln,
      6,
    );
    expect(
      g?.evidence.phenotype?.matched.every(
        (m) =>
          m.kind === 'unmatched' ||
          m.frequencyText === 'similarity-weighted mean over 2 diseases with similar names',
      ),
    ).toBe(true);
    expect(g?.explanation[0]).toContain(
      `No annotated disease for this gene (GENE200): its disease Neurodevelopmental disorder with epileptic encephalopathy (OMIM:200) has ${describeBorrowed(p!)}; likelihood ratio 10^${(ln / Math.LN10).toFixed(1)}`,
    );
  });
});
