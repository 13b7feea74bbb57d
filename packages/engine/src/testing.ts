/**
 * Builders for the tests of the engine and of its callers: `@rarelens/engine/testing`, not part of
 * the main entry.
 */
import { Ontology, type Term } from './hpo/ontology.ts';

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
