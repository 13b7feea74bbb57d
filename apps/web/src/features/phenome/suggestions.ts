/**
 * PhenomeAI mentions grouped into suggestions: one per HPO term and kind (a term present in
 * the patient, absent = negated, or in a relative), with every mention's span, and the text cut
 * into highlight segments. Pure functions, shared by the upload form and the Diagnose module.
 */
import type { PhenomeTermDto } from '@rarelens/contract';

/** present: to add to the patient's terms; excluded: stated absent; family: about a relative. */
export type SuggestionKind = 'present' | 'excluded' | 'family';

export type Mention = { start: number; end: number; text: string };

export type Suggestion = {
  /** `${kind}:${id}`, stable across extractions of an edited text. */
  key: string;
  id: string;
  label: string;
  kind: SuggestionKind;
  /** Highest confidence among the mentions, in [0, 1]. */
  confidence: number;
  /** True when every mention is hedged ("possible", "suspected"). */
  isUncertain: boolean;
  mentions: Mention[];
  /** An age-of-onset term (category 'onset'): accepted as the patient's onset. */
  onset?: true;
};

/** The kind of one mention: a relative's finding stays a family finding even when negated. */
export function kindOf(term: Pick<PhenomeTermDto, 'negated' | 'subject'>): SuggestionKind {
  if (term.subject === 'family') return 'family';
  return term.negated ? 'excluded' : 'present';
}

export function suggestionKey(kind: SuggestionKind, id: string): string {
  return `${kind}:${id}`;
}

/** Groups mentions by term and kind, in order of the first mention in the text. */
export function groupSuggestions(terms: readonly PhenomeTermDto[]): Suggestion[] {
  const byKey = new Map<string, Suggestion>();
  for (const t of terms) {
    const kind = kindOf(t);
    const key = suggestionKey(kind, t.id);
    const mention = { start: t.start, end: t.end, text: t.text };
    const found = byKey.get(key);
    if (found) {
      found.confidence = Math.max(found.confidence, t.confidence);
      found.isUncertain = found.isUncertain && t.uncertain === true;
      found.mentions.push(mention);
    } else {
      byKey.set(key, {
        key,
        id: t.id,
        label: t.label,
        kind,
        confidence: t.confidence,
        isUncertain: t.uncertain === true,
        mentions: [mention],
        ...(t.category === 'onset' ? { onset: true as const } : {}),
      });
    }
  }
  const list = [...byKey.values()];
  for (const s of list) s.mentions.sort((a, b) => a.start - b.start || b.end - a.end);
  return list.sort(
    (a, b) =>
      (a.mentions[0]?.start ?? 0) - (b.mentions[0]?.start ?? 0) || a.label.localeCompare(b.label),
  );
}

/** A confidence in [0, 1] as a word: high (>= 0.85), medium (>= 0.6) or low. */
export function confidenceLevel(confidence: number): 'high' | 'medium' | 'low' {
  if (confidence >= 0.85) return 'high';
  if (confidence >= 0.6) return 'medium';
  return 'low';
}

/** A run of the text and the mentions covering all of it (none for plain text). */
export type Segment = { start: number; end: number; text: string; terms: PhenomeTermDto[] };

/**
 * Cuts `text` at every mention boundary, so overlapping mentions ("short stature" inside
 * "disproportionate short stature") each keep their span. Mentions outside the text or empty
 * are ignored (a result computed on another text must not be drawn on this one).
 */
export function buildSegments(text: string, terms: readonly PhenomeTermDto[]): Segment[] {
  const valid = terms.filter(
    (t) =>
      t.start >= 0 &&
      t.end > t.start &&
      t.end <= text.length &&
      text.slice(t.start, t.end) === t.text,
  );
  const cuts = new Set<number>([0, text.length]);
  for (const t of valid) {
    cuts.add(t.start);
    cuts.add(t.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i] ?? 0;
    const end = points[i + 1] ?? start;
    if (end <= start) continue;
    const covering = valid.filter((t) => t.start <= start && t.end >= end);
    const previous = segments.at(-1);
    // Plain runs are merged so the DOM stays small for long texts.
    if (covering.length === 0 && previous && previous.terms.length === 0) {
      previous.end = end;
      previous.text = text.slice(previous.start, end);
    } else {
      segments.push({ start, end, text: text.slice(start, end), terms: covering });
    }
  }
  return segments;
}
