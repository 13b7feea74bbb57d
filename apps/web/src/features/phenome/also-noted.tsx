import type { PhenomeTermDto } from '@rarelens/contract';
import { useMemo } from 'react';
import { cn } from '../../lib/cn.ts';
import { groupSuggestions, type SuggestionKind } from './suggestions.ts';

const KIND_NOTE: Record<SuggestionKind, string> = {
  present: '',
  excluded: ' (stated absent)',
  family: ' (in a relative)',
};

/**
 * The clinical modifiers PhenomeAI read in the text (mode of inheritance, onset, course,
 * variability): shown under the suggested terms for the clinician to see, not offered as the
 * patient's terms (they describe the disease, and the ranking takes phenotypic abnormalities).
 * Renders nothing when there are none.
 */
export function AlsoNoted({
  modifiers,
  className,
}: {
  modifiers: readonly PhenomeTermDto[];
  className?: string;
}) {
  const notes = useMemo(() => groupSuggestions(modifiers), [modifiers]);
  if (notes.length === 0) return null;
  return (
    <p className={cn('text-xs text-ink-500', className)} data-testid="phenome-also-noted">
      <span className="font-medium text-ink-700">Also noted (not symptoms, not added as terms): </span>
      {notes.map((n, i) => (
        <span key={n.key}>
          {i > 0 ? ' · ' : null}
          <span title={`${n.id}: “${[...new Set(n.mentions.map((m) => m.text))].join('”, “')}”`}>
            {n.label}
            {KIND_NOTE[n.kind]}
          </span>
        </span>
      ))}
    </p>
  );
}
