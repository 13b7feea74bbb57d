/**
 * In-memory HPO autocomplete: an HP id, or words matched as prefixes against labels, synonyms
 * and lay wording of current terms under Phenotypic abnormality and of the age-of-onset terms
 * under Onset (the ranking scores the patient's onset against the diseases'; hits say `onset`).
 * Inheritance, course and modifier terms are left out: they describe a disease, not the patient.
 *
 * Ranking: a text equal to the query first (the label, then an exact or layperson synonym or a
 * lay phrase, then other synonyms), then texts starting with the query, then texts containing
 * its words; within a class the label before synonyms and the shorter text first. So "hearing
 * loss" offers Hearing impairment (exact synonym "Hearing loss") before Low-frequency hearing
 * loss, and "deafness" offers it before Unilateral deafness.
 */
import { isOnsetTerm, PHENOTYPIC_ABNORMALITY, type Ontology, type Synonym } from '@rarelens/engine';

/** How a text names its term, best first. */
type TextKind = 'label' | 'exact' | 'other';

interface Text {
  lower: string;
  words: string[];
  kind: TextKind;
  /** As written (null for the label). */
  synonym: string | null;
}

interface Entry {
  id: string;
  label: string;
  texts: Text[];
  onset: boolean;
}

export interface HpoSearchHit {
  id: string;
  label: string;
  matchedSynonym: string | null;
  /** An age-of-onset term (under Onset, HP:0003674): the patient's onset, not a finding. */
  onset?: true;
}

export interface HpoSearch {
  version: string;
  search(q: string, limit: number): HpoSearchHit[];
}

/** Lay wording for a term ("hard of hearing" → HP:0000365), beside the HPO's own synonyms. */
export interface LayPhrase {
  text: string;
  id: string;
}

const words = (s: string): string[] => s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0);
const normal = (s: string): string => words(s).join(' ');

function synonymKind(s: Synonym): TextKind {
  return s.scope === 'exact' || s.type === 'layperson' ? 'exact' : 'other';
}

const kindBonus: Record<TextKind, number> = { label: 200, exact: 150, other: 0 };

export function createHpoSearch(ontology: Ontology, lay: readonly LayPhrase[] = []): HpoSearch {
  const entries: Entry[] = [];
  const byId = new Map<string, Entry>();
  const text = (value: string, kind: TextKind): Text => ({
    lower: normal(value),
    words: words(value),
    kind,
    synonym: kind === 'label' ? null : value,
  });
  for (const id of ontology.currentIds()) {
    const onset = isOnsetTerm(ontology, id);
    if (!onset && (!ontology.isA(id, PHENOTYPIC_ABNORMALITY) || id === PHENOTYPIC_ABNORMALITY)) continue;
    const t = ontology.terms.get(id);
    if (!t) continue;
    const entry: Entry = {
      id,
      label: t.label,
      texts: [text(t.label, 'label'), ...t.synonyms.map((s) => text(s.text, synonymKind(s)))],
      onset,
    };
    entries.push(entry);
    byId.set(id, entry);
  }
  for (const phrase of lay) {
    const id = ontology.resolve(phrase.id);
    const entry = id ? byId.get(id) : undefined;
    if (entry && !entry.texts.some((t) => t.lower === normal(phrase.text))) entry.texts.push(text(phrase.text, 'exact'));
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
        return t ? [{ id: t.id, label: t.label, matchedSynonym: null, ...(isOnsetTerm(ontology, t.id) ? { onset: true as const } : {}) }] : [];
      }
      const qWords = words(query);
      if (qWords.length === 0) return [];
      const qText = qWords.join(' ');
      const scored: { e: Entry; score: number; syn: string | null }[] = [];
      for (const e of entries) {
        let best = -1;
        let bestSyn: string | null = null;
        for (const t of e.texts) {
          if (!qWords.every((w) => t.words.some((x) => x.startsWith(w)))) continue;
          // Higher is better: equal to the query, then starting with it, then containing its
          // words; the label before exact/lay synonyms before others; shorter texts first.
          const match = t.lower === qText ? 3000 : t.lower.startsWith(qText) ? 2000 : 1000;
          const s = match + kindBonus[t.kind] - Math.min(t.lower.length, 150);
          if (s > best) {
            best = s;
            bestSyn = t.synonym;
          }
        }
        if (best >= 0) scored.push({ e, score: best, syn: bestSyn });
      }
      scored.sort((a, b) => b.score - a.score || a.e.id.localeCompare(b.e.id));
      return scored.slice(0, limit).map((s) => ({ id: s.e.id, label: s.e.label, matchedSynonym: s.syn, ...(s.e.onset ? { onset: true as const } : {}) }));
    },
  };
}
