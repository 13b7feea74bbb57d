import { describe, expect, it } from 'vitest';
import type { DiseaseAnnotation, HpoDisease, HpoGene, HpoKb } from '../../packages/engine/src/kb/hpo-kb.ts';
import { makeTerm, testOntology } from '../../packages/engine/src/testing.ts';
import { rankPhenotype } from '../../packages/engine/src/phenotype/rank-phenotype.ts';
import { PhenotypeModel } from '../../packages/engine/src/phenotype/model.ts';
import { diagnosisMembers, lopoKb, parseHpoaRows, rankPhenotypeLopo, rebuildDisease } from './lopo.ts';

const A = 'HP:1000001';
const A1 = 'HP:1000002';
const B = 'HP:1000004';
const B1 = 'HP:1000005';
const C = 'HP:1000006';
const ontology = testOntology([makeTerm(A, 'A', ['HP:0000118']), makeTerm(A1, 'A1', [A]), makeTerm(B, 'B', ['HP:0000118']), makeTerm(B1, 'B1', [B]), makeTerm(C, 'C', ['HP:0000118'])]);

/** An hpoa phenotype row: id, qualifier, term, reference, frequency (aspect P). */
const row = (id: string, qualifier: string, term: string, ref: string, freq: string): string => [id, 'name', qualifier, term, ref, 'PCS', '', freq, '', '', 'P', 'HPO:x'].join('\t');
const HPOA = [
  '#description: test',
  'database_id\tdisease_name\tqualifier\thpo_id\treference\tevidence\tonset\tfrequency\tsex\tmodifier\taspect\tbiocuration',
  row('OMIM:1', '', A1, 'PMID:1', '3/5'),
  row('OMIM:1', '', A1, 'PMID:2;PMID:3', '2/4'), // cites PMID:2 among others: left out with PMID:2
  row('OMIM:1', '', B1, 'OMIM:1', 'HP:0040281'),
  row('OMIM:1', '', B1, 'PMID:2', '4/4'),
  row('OMIM:1', 'NOT', C, 'PMID:2', ''),
  row('OMIM:1', 'NOT', A, 'PMID:22', ''), // PMID:22 is not PMID:2
  row('OMIM:1', '', C, 'PMID:22', '0/3'), // frequency 0: a NOT term
  row('ORPHA:1', '', B1, 'PMID:2', '1/2'), // the Mondo twin, only from PMID:2
  row('OMIM:2', '', B1, 'PMID:2', '1/1'), // another disease citing PMID:2: never touched
  [...row('OMIM:1', '', 'HP:0000006', 'PMID:2', '').split('\t').slice(0, 10), 'I', 'HPO:x'].join('\t'), // inheritance aspect: not a phenotype row
].join('\n');
const rowsOf = parseHpoaRows(HPOA, (id) => ontology.resolve(id));

describe('leave own publication out: rows', () => {
  it('parses only phenotype rows, frequency 0 as NOT', () => {
    expect(rowsOf.get('OMIM:1')?.length).toBe(7);
    expect(rowsOf.get('OMIM:1')?.filter((r) => r.not).map((r) => r.term)).toEqual([C, A, C]);
  });

  it('removes exactly the rows citing the case publications, pooling the rest as the KB build does', () => {
    const all = rebuildDisease(rowsOf.get('OMIM:1'), new Set());
    expect(all.dropped).toBe(0);
    const byTerm = (a: DiseaseAnnotation[]): Record<string, [number | null, [number, number] | null]> => Object.fromEntries(a.map((x) => [x.term, [x.frequency, x.counts]]));
    // every row: A1 3/5 + 2/4 = 5/9; B1 max(4/4, very frequent 0.9) with counts 4/4
    expect(byTerm(all.annotations)).toEqual({ [A1]: [5 / 9, [5, 9]], [B1]: [1, [4, 4]] });
    expect(all.excluded.sort()).toEqual([A, C].sort());

    const lo = rebuildDisease(rowsOf.get('OMIM:1'), new Set(['PMID:2']));
    // the three rows citing PMID:2 (one of them with PMID:3 too), nothing else
    expect(lo.dropped).toBe(3);
    expect(byTerm(lo.annotations)).toEqual({ [A1]: [3 / 5, [3, 5]], [B1]: [expect.closeTo(0.9, 6), null] });
    // the NOT C of PMID:2 goes; C stays excluded by PMID:22's 0/3, A by PMID:22's NOT
    expect(lo.excluded.sort()).toEqual([A, C].sort());
    expect(rebuildDisease(rowsOf.get('OMIM:1'), new Set(['PMID:22'])).excluded).toEqual([C]);
    expect(rebuildDisease(rowsOf.get('OMIM:1'), new Set(['PMID:9'])).dropped).toBe(0);
  });
});

const ann = (term: string, frequency: number, counts: [number, number] | null = null): DiseaseAnnotation => ({ term, frequency, frequencyText: null, onset: null, counts });
const disease = (id: string, annotations: DiseaseAnnotation[], excluded: string[], mondo: string | null, genes: string[]): HpoDisease => ({ id, name: `Disease ${id}`, mondo, annotations, excluded, inheritance: [], onset: [], genes });
/** The KB as built from HPOA (rebuildDisease of every row) plus an unrelated disease. */
function testKb(): HpoKb {
  const built = (id: string, mondo: string | null, genes: string[]): HpoDisease => {
    const rb = rebuildDisease(rowsOf.get(id), new Set());
    return disease(id, rb.annotations, rb.excluded, mondo, genes);
  };
  const diseases = [built('OMIM:1', 'MONDO:1', ['G1']), built('ORPHA:1', 'MONDO:1', []), built('OMIM:2', null, ['G2']), disease('OMIM:3', [ann(A1, 0.5), ann(B, 0.5)], [], null, ['G3'])];
  const genes = new Map<string, HpoGene>(diseases.flatMap((d) => d.genes.map((g): [string, HpoGene] => [g, { symbol: g, ncbiGeneId: '0', diseases: [{ id: d.id, association: 'MENDELIAN' }] }])));
  return { versions: { hpo: 't', annotations: 't', mondo: 't' }, ontology, diseases, diseaseById: new Map(diseases.map((d) => [d.id, d])), namedDiseases: new Map(), genes };
}

describe('leave own publication out: ranking', () => {
  const kb = testKb();
  const query = { present: [A1, B1], excluded: [] };

  it('ranks as rankPhenotype when no row cites the case publications', () => {
    const shipped = rankPhenotype(kb, query, { explainTop: 0 });
    const lo = rankPhenotypeLopo(kb, rowsOf, query, { disease_ids: ['OMIM:1'], pmids: ['PMID:9'] });
    expect(lo.dropped).toBe(0);
    expect(lo.result.diseases.map((d) => [d.id, d.score])).toEqual(shipped.diseases.map((d) => [d.id, d.score]));
    expect(lo.result.genes.map((g) => [g.symbol, g.score])).toEqual(shipped.genes.map((g) => [g.symbol, g.score]));
  });

  it('rescores only the diagnosis group, without the rows of its publication', () => {
    const shipped = rankPhenotype(kb, query, { explainTop: 0 });
    const lo = rankPhenotypeLopo(kb, rowsOf, query, { disease_ids: ['OMIM:1'], pmids: ['PMID:2'] });
    expect(lo.dropped).toBe(4); // 3 rows of OMIM:1, 1 of its twin ORPHA:1
    const score = (r: typeof shipped, id: string): number | undefined => r.diseases.find((d) => d.id === id)?.score;
    expect(score(lo.result, 'OMIM:1')).toBeLessThan(score(shipped, 'OMIM:1') ?? -Infinity);
    // OMIM:2 cites PMID:2 too, but is not the case's diagnosis: as shipped
    expect(score(lo.result, 'OMIM:2')).toBe(score(shipped, 'OMIM:2'));
    expect(score(lo.result, 'OMIM:3')).toBe(score(shipped, 'OMIM:3'));
  });

  it('the diagnosis group: its Mondo twin, and the annotated twin of a diagnosis known only by name', () => {
    const named: HpoKb = { ...kb, namedDiseases: new Map([['OMIM:9', { id: 'OMIM:9', name: 'Disease 9', mondo: 'MONDO:1', nameTerms: [], inheritance: [], genes: [] }]]) };
    const model = new PhenotypeModel(named);
    const ids = (xs: number[]): string[] => xs.map((d) => model.diseases[d]?.id ?? '').sort();
    expect(ids(diagnosisMembers(model, ['OMIM:1']))).toEqual(['OMIM:1', 'ORPHA:1']);
    expect(ids(diagnosisMembers(model, ['OMIM:9']))).toEqual(['OMIM:1', 'ORPHA:1']);
    expect(ids(diagnosisMembers(model, ['OMIM:2']))).toEqual(['OMIM:2']);
    expect(diagnosisMembers(model, ['OMIM:404'])).toEqual([]);
  });

  it('lopoKb replaces the diagnosis group only; a member left with no row is known by its title', () => {
    expect(lopoKb(kb, rowsOf, { disease_ids: ['OMIM:1'], pmids: ['PMID:9'] })).toBeNull();
    const k = lopoKb(kb, rowsOf, { disease_ids: ['OMIM:1'], pmids: ['PMID:2'] });
    expect(k).not.toBeNull();
    expect(k?.diseaseById.get('OMIM:1')?.annotations).toEqual(rebuildDisease(rowsOf.get('OMIM:1'), new Set(['PMID:2'])).annotations);
    expect(k?.diseaseById.has('ORPHA:1')).toBe(false);
    expect(k?.namedDiseases.get('ORPHA:1')?.mondo).toBe('MONDO:1');
    expect(k?.diseaseById.get('OMIM:2')).toBe(kb.diseaseById.get('OMIM:2'));
    expect(k?.diseaseById.get('OMIM:3')).toBe(kb.diseaseById.get('OMIM:3'));
    expect(kb.diseaseById.get('OMIM:1')?.annotations.length).toBe(2); // the shipped KB untouched
  });
});

describe('leave own publication out: onset rows', () => {
  const onsetOntology = testOntology([makeTerm(A, 'A', ['HP:0000118']), makeTerm('HP:0031797', 'Clinical course', ['HP:0000001']), makeTerm('HP:0003674', 'Onset', ['HP:0031797']), makeTerm('HP:0003593', 'Infantile onset', ['HP:0003674']), makeTerm('HP:0011463', 'Childhood onset', ['HP:0003674']), makeTerm('HP:0003676', 'Progressive', ['HP:0031797'])]);
  const c = (term: string, ref: string, qualifier = '', freq = ''): string => ['OMIM:9', 'name', qualifier, term, ref, 'PCS', '', freq, '', '', 'C', 'HPO:x'].join('\t');
  const text = [
    'database_id\tdisease_name\tqualifier\thpo_id\treference\tevidence\tonset\tfrequency\tsex\tmodifier\taspect\tbiocuration',
    row('OMIM:9', '', A, 'PMID:1', '2/3'),
    c('HP:0003593', 'PMID:2', '', '5/8'), // the case's own publication
    c('HP:0011463', 'PMID:1', '', '0/2'), // frequency 0: kept, as the KB build keeps it
    c('HP:0003674', 'PMID:1', 'NOT'), // NOT: not an onset of the disease
    c('HP:0003676', 'PMID:1'), // a course term, not an onset
  ].join('\n');
  const isOnset = (t: string): boolean => onsetOntology.isA(t, 'HP:0003674');

  it('reads the onset rows (aspect C under Onset) only when asked, and leaves out those citing the case publications', () => {
    expect(parseHpoaRows(text, (id) => onsetOntology.resolve(id)).get('OMIM:9')?.map((r) => r.term)).toEqual([A]);
    const rows = parseHpoaRows(text, (id) => onsetOntology.resolve(id), isOnset).get('OMIM:9');
    expect(rows?.map((r) => [r.term, r.onset ?? false, r.not])).toEqual([
      [A, false, false],
      ['HP:0003593', true, false],
      ['HP:0011463', true, false],
      ['HP:0003674', true, true],
    ]);
    expect(rebuildDisease(rows, new Set()).onset).toEqual(['HP:0003593', 'HP:0011463']);
    const lo = rebuildDisease(rows, new Set(['PMID:2']));
    expect(lo.onset).toEqual(['HP:0011463']);
    expect(lo.dropped).toBe(1);
  });
});
