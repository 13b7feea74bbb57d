import type { PhenomeTermDto } from '@rarelens/contract';
import { useMemo } from 'react';
import { Tooltip } from '../../components/tooltip.tsx';
import { cn } from '../../lib/cn.ts';
import { buildSegments, kindOf, suggestionKey, type SuggestionKind } from './suggestions.ts';

/** How a highlighted mention is drawn, from the state of its suggestion. */
export type MentionState = 'accepted' | 'pending' | 'rejected';

const tones: Record<SuggestionKind, Record<MentionState, string>> = {
  present: {
    pending: 'bg-accent-50 text-ink-900 decoration-accent-500',
    accepted: 'bg-accent-100 text-ink-900 decoration-accent-600',
    rejected: 'bg-transparent decoration-ink-300 decoration-dotted',
  },
  excluded: {
    pending: 'bg-ink-50 text-ink-700 decoration-ink-400 decoration-dashed',
    accepted: 'bg-ink-100 text-ink-800 decoration-ink-500 decoration-dashed',
    rejected: 'bg-transparent decoration-ink-300 decoration-dotted',
  },
  family: {
    pending: 'bg-violet-50 text-ink-900 decoration-violet-400 decoration-dotted',
    accepted: 'bg-violet-100 text-ink-900 decoration-violet-500',
    rejected: 'bg-transparent decoration-ink-300 decoration-dotted',
  },
};

const kindWords: Record<SuggestionKind, string> = {
  present: 'Patient finding',
  excluded: 'Absent (negated)',
  family: 'Family history',
};

function describe(term: PhenomeTermDto): string {
  const kind = kindOf(term);
  return `${term.label} (${term.id}), ${kindWords[kind].toLowerCase()}${term.uncertain ? ', uncertain' : ''}`;
}

type HighlightedTextProps = {
  text: string;
  terms: readonly PhenomeTermDto[];
  /** The state of a suggestion key (see suggestionKey); pending when not given. */
  stateOf?: (key: string) => MentionState;
  /** Suggestion key to emphasise (the chip under the pointer or focus). */
  activeKey?: string | null;
  className?: string;
  label?: string;
};

/**
 * A read-only copy of the clinical text with each recognised phenotype marked; hovering a mark
 * names its HPO term. Overlapping mentions split into segments that carry every term.
 */
export function HighlightedText({
  text,
  terms,
  stateOf,
  activeKey,
  className,
  label = 'Recognised phenotypes in the text',
}: HighlightedTextProps) {
  const segments = useMemo(() => buildSegments(text, terms), [text, terms]);
  return (
    <div
      role="region"
      aria-label={label}
      data-testid="phenome-highlighted-text"
      className={cn('text-sm leading-7 break-words whitespace-pre-wrap text-ink-800', className)}
    >
      {segments.map((segment) => {
        if (segment.terms.length === 0) return <span key={segment.start}>{segment.text}</span>;
        // The innermost (shortest) mention decides the colour; the tooltip lists them all.
        const main = segment.terms.reduce((a, b) => (b.end - b.start < a.end - a.start ? b : a));
        const kind = kindOf(main);
        const keys = segment.terms.map((t) => suggestionKey(kindOf(t), t.id));
        const state = stateOf?.(suggestionKey(kind, main.id)) ?? 'pending';
        const isActive = activeKey !== null && activeKey !== undefined && keys.includes(activeKey);
        const tip = segment.terms.map(describe);
        return (
          <Tooltip
            key={segment.start}
            content={
              <span className="flex flex-col gap-1">
                {segment.terms.map((t) => (
                  <span key={`${t.id}-${t.start}`} className="block">
                    <span className="font-semibold">{t.label}</span>{' '}
                    <span className="font-mono opacity-80">{t.id}</span>
                    <span className="block text-[11px] opacity-80">
                      {kindWords[kindOf(t)]}
                      {t.uncertain ? ' · uncertain' : ''} · {Math.round(t.confidence * 100)}%
                      confidence
                    </span>
                  </span>
                ))}
              </span>
            }
          >
            <mark
              data-testid="phenome-mark"
              data-term-id={main.id}
              data-kind={kind}
              data-state={state}
              aria-label={`${segment.text}: ${tip.join('; ')}`}
              className={cn(
                'rounded-[3px] px-0.5 transition-shadow',
                kind === 'excluded' && state !== 'rejected'
                  ? 'line-through decoration-1'
                  : 'underline decoration-2 underline-offset-4',
                tones[kind][state],
                isActive ? 'ring-2 ring-accent-400' : '',
              )}
            >
              {segment.text}
            </mark>
          </Tooltip>
        );
      })}
    </div>
  );
}
