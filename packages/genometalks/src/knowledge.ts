/**
 * The knowledge GenomeTalks answers from besides the case: the HPO part of the knowledge base
 * (ontology, disease annotations, gene-disease links), the HGNC gene index (symbols, aliases,
 * previous symbols) and PhenomeAI for symptoms written in free text.
 */
import { stem, type Phenome } from '@rarelens/phenome';
import type { GeneIndex, HpoDisease, HpoKb } from '@rarelens/engine';

export interface ChatKnowledge {
  hpo: HpoKb;
  /** HGNC genes of the genome KB; without it genes are recognised by the HPO gene list only. */
  genes?: GeneIndex | null;
  /** PhenomeAI for symptoms in free text; without it only HPO ids and term labels are recognised. */
  phenome?: Phenome | null;
}

/** Words that name no particular disease (they occur in thousands of names). */
const GENERIC_WORDS = new Set(
  [
    'syndrome', 'disease', 'disorder', 'type', 'form', 'autosomal', 'dominant', 'recessive', 'x', 'linked',
    'with', 'without', 'and', 'or', 'of', 'the', 'a', 'an', 'in', 'to', 'due', 'related', 'associated',
    'susceptibility', 'familial', 'isolated', 'variant', 'group', 'complementation', 'like', 'spectrum',
  ].map((w) => stem(w)),
);

/** Lower-case word stems of a text (numbers and single letters kept: they name subtypes). */
export function wordStems(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map((w) => stem(w));
}

/**
 * Words that name a subtype ("2", "2a", "iv", "b"), not the disease: numbers with an optional
 * letter, Roman numerals and single letters. Words mixing letters and digits otherwise are gene
 * symbols or loci ("DYRK1A-related", "1p36") and are distinctive.
 */
export function isSubtypeWord(w: string): boolean {
  return w.length === 1 || /^\d+[a-z]?$/.test(w) || /^(?:i{1,3}|iv|v|vi{1,3}|ix|x)[a-z]?$/.test(w);
}

export interface DiseaseName {
  disease: HpoDisease;
  /** Distinctive word stems (not generic, not a number or single letter). */
  content: string[];
  /** Numbers and single letters of the name ("type 2A" -> 2a). */
  subtype: string[];
  /** All word stems in order, for a contiguous match. */
  all: string[];
}

export function describeDiseaseName(disease: HpoDisease): DiseaseName {
  const all = wordStems(disease.name);
  const content: string[] = [];
  const subtype: string[] = [];
  for (const w of all) {
    if (GENERIC_WORDS.has(w)) continue;
    if (isSubtypeWord(w)) subtype.push(w);
    else content.push(w);
  }
  return { disease, content, subtype, all };
}

/** Index of disease names by distinctive word, built once per knowledge base. */
export class DiseaseNameIndex {
  readonly names: DiseaseName[];
  private readonly byWord = new Map<string, number[]>();

  constructor(hpo: HpoKb) {
    this.names = hpo.diseases.map(describeDiseaseName);
    this.names.forEach((n, i) => {
      for (const w of new Set(n.content)) {
        const list = this.byWord.get(w);
        if (list) list.push(i);
        else this.byWord.set(w, [i]);
      }
    });
  }

  /** Names with at least one distinctive word among `words`. */
  candidates(words: ReadonlySet<string>): DiseaseName[] {
    const seen = new Set<number>();
    const out: DiseaseName[] = [];
    for (const w of words) {
      for (const i of this.byWord.get(w) ?? []) {
        if (seen.has(i)) continue;
        seen.add(i);
        const n = this.names[i];
        if (n) out.push(n);
      }
    }
    return out;
  }
}

const nameIndexes = new WeakMap<HpoKb, DiseaseNameIndex>();

export function diseaseNameIndex(hpo: HpoKb): DiseaseNameIndex {
  let index = nameIndexes.get(hpo);
  if (!index) {
    index = new DiseaseNameIndex(hpo);
    nameIndexes.set(hpo, index);
  }
  return index;
}
