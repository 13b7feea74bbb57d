import type { PhenomeTermDto } from '@rarelens/contract';
import { describe, expect, it } from 'vitest';
import {
  buildSegments,
  confidenceLevel,
  groupSuggestions,
  kindOf,
} from './suggestions.ts';

/** A mention of `text` found at its first occurrence in `source`. */
function mention(
  source: string,
  text: string,
  over: Partial<PhenomeTermDto> & Pick<PhenomeTermDto, 'id' | 'label'>,
): PhenomeTermDto {
  const start = source.indexOf(text);
  if (start < 0) throw new Error(`"${text}" is not in the source`);
  return {
    start,
    end: start + text.length,
    text,
    negated: false,
    subject: 'patient',
    confidence: 1,
    ...over,
  };
}

describe('kindOf', () => {
  it('keeps a relative’s finding as family history even when negated', () => {
    expect(kindOf({ negated: true, subject: 'family' })).toBe('family');
    expect(kindOf({ negated: true, subject: 'patient' })).toBe('excluded');
    expect(kindOf({ negated: false, subject: 'patient' })).toBe('present');
  });
});

describe('groupSuggestions', () => {
  const text =
    'Seizures since infancy; fits recur weekly. No seizures at night? Mother has seizures.';
  const seizure = { id: 'HP:0001250', label: 'Seizure' };

  it('merges mentions of one term and kind, keeping every span and the best confidence', () => {
    const groups = groupSuggestions([
      mention(text, 'fits', { ...seizure, confidence: 0.85 }),
      mention(text, 'Seizures', { ...seizure, confidence: 0.9 }),
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      key: 'present:HP:0001250',
      kind: 'present',
      confidence: 0.9,
      isUncertain: false,
    });
    expect(groups[0]?.mentions.map((m) => m.text)).toEqual(['Seizures', 'fits']);
  });

  it('keeps the same term apart when it is present, negated and in a relative', () => {
    const negatedAt = text.indexOf('seizures at');
    const familyAt = text.lastIndexOf('seizures');
    const groups = groupSuggestions([
      {
        ...seizure,
        start: familyAt,
        end: familyAt + 8,
        text: 'seizures',
        negated: false,
        subject: 'family',
        confidence: 1,
      },
      {
        ...seizure,
        start: negatedAt,
        end: negatedAt + 8,
        text: 'seizures',
        negated: true,
        subject: 'patient',
        confidence: 1,
      },
      mention(text, 'Seizures', seizure),
    ]);
    expect(groups.map((g) => g.key)).toEqual([
      'present:HP:0001250',
      'excluded:HP:0001250',
      'family:HP:0001250',
    ]);
  });

  it('marks a term uncertain only when every mention is hedged', () => {
    const once = groupSuggestions([mention(text, 'fits', { ...seizure, uncertain: true })]);
    expect(once[0]?.isUncertain).toBe(true);
    const mixed = groupSuggestions([
      mention(text, 'fits', { ...seizure, uncertain: true }),
      mention(text, 'Seizures', seizure),
    ]);
    expect(mixed[0]?.isUncertain).toBe(false);
  });
});

describe('buildSegments', () => {
  const text = 'Disproportionate short stature and hypotonia.';
  const outer = mention(text, 'Disproportionate short stature', {
    id: 'HP:0003498',
    label: 'Disproportionate short stature',
  });
  const inner = mention(text, 'short stature', { id: 'HP:0004322', label: 'Short stature' });
  const tone = mention(text, 'hypotonia', { id: 'HP:0001252', label: 'Hypotonia' });

  it('cuts overlapping mentions so each run carries every term covering it, and rebuilds the text', () => {
    const segments = buildSegments(text, [outer, inner, tone]);
    expect(segments.map((s) => s.text).join('')).toBe(text);
    expect(segments.map((s) => [s.text, s.terms.map((t) => t.id)])).toEqual([
      ['Disproportionate ', ['HP:0003498']],
      ['short stature', ['HP:0003498', 'HP:0004322']],
      [' and ', []],
      ['hypotonia', ['HP:0001252']],
      ['.', []],
    ]);
  });

  it('ignores spans that do not fit the text (a result computed on another text)', () => {
    const stale = { ...tone, start: 0, end: 9 }; // inside the text, other words
    const beyond = { ...tone, start: 44, end: 60 };
    const segments = buildSegments(text, [stale, beyond]);
    expect(segments).toEqual([{ start: 0, end: text.length, text, terms: [] }]);
  });

  it('returns nothing for an empty text', () => {
    expect(buildSegments('', [])).toEqual([]);
  });
});

describe('confidenceLevel', () => {
  it('bands confidence at 0.85 and 0.6', () => {
    expect([1, 0.85, 0.84, 0.6, 0.59].map(confidenceLevel)).toEqual([
      'high',
      'high',
      'medium',
      'medium',
      'low',
    ]);
  });
});
