/**
 * Builders for the tests of the engine and of its callers: `@rarelens/engine/testing`, not part of
 * the main entry.
 */
import { Ontology, type Term } from './hpo/ontology.ts';
import type { Transcript } from './transcripts/model.ts';

export { kbBuiltThisRun } from './kb/test-run-kb.ts';

/** A term of a hand-written ontology: no synonyms, alternative ids or obsolescence unless given. */
export function makeTerm(
  id: string,
  label: string,
  parents: string[],
  more: Partial<Omit<Term, 'id' | 'label' | 'parents'>> = {},
): Term {
  return { id, label, parents, synonyms: [], obsolete: false, altIds: [], ...more };
}

/** The top of HPO a small test ontology needs: the root, Phenotypic abnormality, Mode of inheritance and autosomal dominant inheritance. */
const TOP: readonly Term[] = [
  makeTerm('HP:0000001', 'All', []),
  makeTerm('HP:0000118', 'Phenotypic abnormality', ['HP:0000001']),
  makeTerm('HP:0000005', 'Mode of inheritance', ['HP:0000001']),
  makeTerm('HP:0000006', 'Autosomal dominant inheritance', ['HP:0000005']),
];

/** A small ontology: the top of HPO (a term given with the same id replaces it) and `terms`. */
export function testOntology(terms: Term[], version = 'test'): Ontology {
  const given = new Set(terms.map((t) => t.id));
  return new Ontology({ version, terms: [...TOP.filter((t) => !given.has(t.id)), ...terms] });
}

/**
 * A hand-built transcript (0-based half-open coordinates): `exons` as [start, end) pairs in
 * genomic order, `cds` as [cdsStart, cdsEnd); it spans its exons. '+' strand, chromosome 1,
 * MANE Select, id NM_TEST of gene TEST unless `over` says otherwise.
 */
export function testTranscript(exons: readonly (readonly [number, number])[], cds: readonly [number, number], over: Partial<Transcript> = {}): Transcript {
  const first = exons[0];
  const last = exons[exons.length - 1];
  if (first === undefined || last === undefined) throw new RangeError('testTranscript: at least one exon');
  return {
    id: 'NM_TEST',
    gene: 'TEST',
    hgncId: null,
    chrom: '1',
    strand: 1,
    start: first[0],
    end: last[1],
    cdsStart: cds[0],
    cdsEnd: cds[1],
    exonStarts: Int32Array.from(exons.map((e) => e[0])),
    exonEnds: Int32Array.from(exons.map((e) => e[1])),
    mane: 'select',
    ...over,
  };
}
