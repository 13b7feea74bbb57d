/**
 * The HPO for reading and searching text (PhenomeAI, the HPO autocomplete): the knowledge
 * base's ontology keeps ids, labels and parents only, so the synonyms (exact, related,
 * layperson…) are taken from the HPO release of the same version in the reference data
 * (RARELENS_SOURCES/hpo/hp.v<version>.json[.gz]) when it is there. Ids, labels and parents stay
 * the knowledge base's, so terms found in text are the terms the ranking knows.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Ontology } from '@rarelens/engine';
import { defaultHpoPath, loadOntologyFile } from '@rarelens/phenome';
import { loadOnce } from './load-once.ts';

/** The reference HPO file of `version` under `sourcesDir`, or null when none is there. */
export function sourceHpoFile(sourcesDir: string, version: string): string | null {
  for (const name of [`hp.v${version}.json.gz`, `hp.v${version}.json`, `hp.v${version}.obo.gz`, `hp.v${version}.obo`]) {
    const path = join(sourcesDir, 'hpo', name);
    if (existsSync(path)) return path;
  }
  return null;
}

/**
 * A copy of `ontology` whose terms carry the synonyms of `source` (same ids); `ontology` itself
 * is left as it is (the ranking shares it). Returns `ontology` when it has synonyms already.
 */
export function withSynonyms(ontology: Ontology, source: Ontology): Ontology {
  const terms = [...ontology.terms.values()];
  if (terms.some((t) => t.synonyms.length > 0)) return ontology;
  return new Ontology({
    version: ontology.version,
    terms: terms.map((t) => ({ ...t, synonyms: source.terms.get(t.id)?.synonyms ?? [] })),
  });
}

/**
 * Loads the text ontology once: the knowledge base's ontology with the synonyms of the
 * reference release of its version, or the knowledge base's ontology alone (logged) when that
 * release is not in `sourcesDir`. Before a knowledge base is built: the reference HPO release
 * PhenomeAI is benchmarked with (RARELENS_HPO or RARELENS_SOURCES), when there.
 */
export function textOntologyLoader(
  kbOntology: () => Promise<Ontology | null>,
  sourcesDir: string,
  warn: (message: string) => void,
): () => Promise<Ontology | null> {
  return loadOnce(async () => {
    const ontology = await kbOntology();
    if (!ontology) {
      const fallback = defaultHpoPath();
      return existsSync(fallback) ? loadOntologyFile(fallback) : null;
    }
    if ([...ontology.terms.values()].some((t) => t.synonyms.length > 0)) return ontology;
    const file = sourceHpoFile(sourcesDir, ontology.version);
    if (!file) {
      warn(
        `No HPO release ${ontology.version} under ${join(sourcesDir, 'hpo')}: PhenomeAI and the HPO search read labels only (no synonyms)`,
      );
      return ontology;
    }
    return withSynonyms(ontology, loadOntologyFile(file));
  });
}
