/**
 * Phenotype features named in a disease title, for diseases that a gene is linked to
 * (genes_to_disease) but that phenotype.hpoa does not annotate yet — typically diseases newer
 * than the annotation release, e.g. "neurodevelopmental disorder with thin corpus callosum,
 * hypotonia, and absent language". The title is matched against HPO labels and exact synonyms
 * (whole words, longest match first); eponyms ("Tayoun-Maawali syndrome") yield nothing.
 * Also reads the mode of inheritance a title states ("..., autosomal recessive 83").
 */
import { PHENOTYPIC_ABNORMALITY, type Ontology } from '../hpo/ontology.ts';

/** Mode of inheritance (HP:0000005), the root of the inheritance terms. */
const MODE_OF_INHERITANCE_ROOT = 'HP:0000005';
/** The longest phrase (in words) looked up. */
const MAX_PHRASE_WORDS = 8;

/**
 * OMIM title stems that are not HPO labels or synonyms but name one HPO feature. OMIM renamed
 * "mental retardation" to "intellectual developmental disorder" (2020); its titles use
 * "impaired intellectual development" in the same sense.
 */
const TITLE_STEMS: Readonly<Record<string, string>> = {
  'intellectual developmental disorder': 'HP:0001249',
  'impaired intellectual development': 'HP:0001249',
  'developmental and epileptic encephalopathy': 'HP:0200134',
  'epileptic encephalopathy': 'HP:0200134',
  'absent language': 'HP:0001344',
  'neurodevelopmental disorder': 'HP:0012759',
};

const INHERITANCE_WORDS: readonly [RegExp, string][] = [
  [/\bautosomal dominant\b/, 'HP:0000006'],
  [/\bautosomal recessive\b/, 'HP:0000007'],
  [/\bx-linked recessive\b/, 'HP:0001419'],
  [/\bx-linked dominant\b/, 'HP:0001423'],
  [/\bx-linked\b(?! (?:recessive|dominant))/, 'HP:0001417'],
];

/** Lower case, punctuation to spaces, plural "-ies"/"-s" of the last word dropped. */
function normalise(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

const key = (words: string[]): string => words.map(singular).join(' ');

export interface NameTermMatcher {
  /** HPO phenotype terms named in `title` (current ids, most specific kept, in title order). */
  phenotypeTerms(title: string): string[];
  /** Mode-of-inheritance terms the title states. */
  inheritanceTerms(title: string): string[];
}

/** Builds the phrase index over the phenotypic-abnormality labels and exact synonyms of `ontology`. */
export function nameTermMatcher(ontology: Ontology): NameTermMatcher {
  const phrases = new Map<string, string>();
  const add = (text: string, id: string): void => {
    const words = normalise(text);
    if (!words.length || words.length > MAX_PHRASE_WORDS) return;
    const k = key(words);
    // An ambiguous phrase (two terms share it) names neither.
    const prev = phrases.get(k);
    phrases.set(k, prev === undefined || prev === id ? id : '');
  };
  for (const t of ontology.terms.values()) {
    if (t.obsolete || t.id === PHENOTYPIC_ABNORMALITY || !ontology.isA(t.id, PHENOTYPIC_ABNORMALITY)) continue;
    add(t.label, t.id);
    for (const s of t.synonyms) if (s.scope === 'exact' && s.type !== 'abbreviation') add(s.text, t.id);
  }
  for (const [stem, id] of Object.entries(TITLE_STEMS)) if (ontology.get(id)) phrases.set(key(normalise(stem)), id);

  return {
    phenotypeTerms(title: string): string[] {
      const words = normalise(title);
      const found: string[] = [];
      for (let i = 0; i < words.length; ) {
        let hit: { id: string; len: number } | null = null;
        for (let len = Math.min(MAX_PHRASE_WORDS, words.length - i); len >= 1 && !hit; len--) {
          const id = phrases.get(key(words.slice(i, i + len)));
          if (id) hit = { id, len };
        }
        if (hit) {
          if (!found.includes(hit.id)) found.push(hit.id);
          i += hit.len;
        } else i++;
      }
      // A named feature implied by a more specific named feature adds nothing.
      return found.filter((t) => !found.some((o) => o !== t && ontology.isA(o, t)));
    },
    inheritanceTerms(title: string): string[] {
      const s = title.toLowerCase();
      return INHERITANCE_WORDS.filter(([re, id]) => re.test(s) && ontology.isA(id, MODE_OF_INHERITANCE_ROOT)).map(([, id]) => id);
    },
  };
}
