/**
 * In-memory HPO autocomplete: an HP id, or words matched as prefixes against labels and
 * synonyms of current terms under Phenotypic abnormality (inheritance and onset terms are left
 * out: the form describes the patient's phenotype). Label matches rank above synonym matches, whole-word
 * and shorter matches above longer ones.
 */
import { PHENOTYPIC_ABNORMALITY, type Ontology } from '@rarelens/engine';

interface Entry {
  id: string;
  label: string;
  /** Lower-cased texts: index 0 is the label, then synonyms. */
  texts: string[];
  textWords: string[][];
  synonyms: string[];
}

export interface HpoSearchHit {
  id: string;
  label: string;
  matchedSynonym: string | null;
}

export interface HpoSearch {
  version: string;
  search(q: string, limit: number): HpoSearchHit[];
}

const words = (s: string): string[] => s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0);

export function createHpoSearch(ontology: Ontology): HpoSearch {
  const entries: Entry[] = [];
  for (const id of ontology.currentIds()) {
    if (!ontology.isA(id, PHENOTYPIC_ABNORMALITY) || id === PHENOTYPIC_ABNORMALITY) continue;
    const t = ontology.terms.get(id);
    if (!t) continue;
    const synonyms = t.synonyms.map((s) => s.text);
    const texts = [t.label.toLowerCase(), ...synonyms.map((s) => s.toLowerCase())];
    entries.push({ id, label: t.label, texts, textWords: texts.map(words), synonyms });
  }
  return {
    version: ontology.version,
    search(q, limit) {
      const query = q.trim();
      const idMatch = /^(?:HP[:_])?(\d{1,7})$/i.exec(query);
      if (idMatch) {
        const id = `HP:${idMatch[1]!.padStart(7, '0')}`;
        const resolved = ontology.resolve(id);
        const t = resolved ? ontology.terms.get(resolved) : undefined;
        return t ? [{ id: t.id, label: t.label, matchedSynonym: null }] : [];
      }
      const qWords = words(query);
      if (qWords.length === 0) return [];
      const scored: { e: Entry; score: number; syn: string | null }[] = [];
      for (const e of entries) {
        let best = -1;
        let bestSyn: string | null = null;
        for (let i = 0; i < e.texts.length; i++) {
          const text = e.texts[i]!;
          const tw = e.textWords[i]!;
          if (!qWords.every((w) => tw.some((x) => x.startsWith(w)))) continue;
          // Higher is better: label over synonym, exact and prefix matches, then shorter texts.
          let s = (i === 0 ? 1000 : 500) - Math.min(text.length, 200);
          if (text === query.toLowerCase()) s += 2000;
          else if (text.startsWith(query.toLowerCase())) s += 300;
          if (s > best) {
            best = s;
            bestSyn = i === 0 ? null : (e.synonyms[i - 1] ?? null);
          }
        }
        if (best >= 0) scored.push({ e, score: best, syn: bestSyn });
      }
      scored.sort((a, b) => b.score - a.score || a.e.id.localeCompare(b.e.id));
      return scored.slice(0, limit).map((s) => ({ id: s.e.id, label: s.e.label, matchedSynonym: s.syn }));
    },
  };
}
