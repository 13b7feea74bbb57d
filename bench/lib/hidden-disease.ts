/**
 * "Hidden disease" evaluation (issue 17 item 2): rank a case as if its disease were missing from
 * the HPO phenotype annotations, as for a disease newer than the annotation release.
 *
 * `hideDiseases` returns a copy of the HPO KB without the case's diseases and every disease of the
 * same Mondo concept (an Orphanet twin would otherwise carry the same annotations). Two variants:
 *  - 'unknown': the disease is gone entirely (no annotations, no gene–disease link): its gene keeps
 *    only its other diseases, or none;
 *  - 'named': the gene–disease link stays and the disease is known by its title only, as the KB
 *    build keeps gene-linked diseases without annotations (features named in the title, inheritance
 *    stated in it; kb/disease-name-terms.ts).
 * The phenotype model is rebuilt from the reduced annotations (background frequencies included),
 * so nothing of the hidden disease's annotations reaches the ranking.
 */
import { nameTermMatcher, type NameTermMatcher } from '../../packages/engine/src/kb/disease-name-terms.ts';
import type { HpoDisease, HpoGene, HpoKb, NamedDisease } from '../../packages/engine/src/index.ts';

export type HiddenMode = 'unknown' | 'named';

const matchers = new WeakMap<HpoKb, NameTermMatcher>();

/** The ids removed for a case's diseases: themselves and every annotated disease of the same Mondo concept. */
export function hiddenIds(kb: HpoKb, diseaseIds: readonly string[]): Set<string> {
  const out = new Set(diseaseIds);
  const mondo = new Set(diseaseIds.map((id) => kb.diseaseById.get(id)?.mondo ?? kb.namedDiseases.get(id)?.mondo).filter((m): m is string => !!m));
  for (const d of kb.diseases) if (d.mondo && mondo.has(d.mondo)) out.add(d.id);
  return out;
}

/** Does hiding change anything (the case's disease is annotated)? */
export function isAnnotated(kb: HpoKb, diseaseIds: readonly string[]): boolean {
  return diseaseIds.some((id) => kb.diseaseById.has(id));
}

/** An annotated disease as the KB build keeps a gene-linked disease without annotations: known by its title (features and inheritance named in it). */
export function namedEntry(kb: HpoKb, d: HpoDisease): NamedDisease {
  let matcher = matchers.get(kb);
  if (!matcher) {
    matcher = nameTermMatcher(kb.ontology);
    matchers.set(kb, matcher);
  }
  return { id: d.id, name: d.name, mondo: d.mondo, nameTerms: matcher.phenotypeTerms(d.name), inheritance: matcher.inheritanceTerms(d.name), genes: d.genes };
}

export function hideDiseases(kb: HpoKb, diseaseIds: readonly string[], mode: HiddenMode): HpoKb {
  const hide = hiddenIds(kb, diseaseIds);
  const diseases: HpoDisease[] = kb.diseases.filter((d) => !hide.has(d.id));
  const namedDiseases = new Map<string, NamedDisease>(kb.namedDiseases);
  const genes = new Map<string, HpoGene>(kb.genes);
  if (mode === 'named') {
    for (const id of hide) {
      const d = kb.diseaseById.get(id);
      if (d) namedDiseases.set(id, namedEntry(kb, d));
    }
  } else {
    for (const [symbol, g] of kb.genes) {
      if (!g.diseases.some((l) => hide.has(l.id))) continue;
      genes.set(symbol, { ...g, diseases: g.diseases.filter((l) => !hide.has(l.id)) });
    }
    for (const id of hide) namedDiseases.delete(id);
  }
  return { ...kb, diseases, diseaseById: new Map(diseases.map((d) => [d.id, d])), namedDiseases, genes };
}
