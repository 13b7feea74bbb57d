import type { TermRef } from '@rarelens/contract';
import { useMemo, useState } from 'react';
import { SparklesIcon } from '../../components/icons.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { HighlightedText, type MentionState } from './highlighted-text.tsx';
import { ExtractDebounceMs, usePhenomeExtraction } from './phenome.api.ts';
import { SuggestionPanel, type SuggestionPanelProps } from './suggestion-panel.tsx';
import { AlsoNoted } from './also-noted.tsx';
import { groupSuggestions, type Suggestion } from './suggestions.ts';

/** Whether a suggestion is already among the chosen terms (family findings count once added as present). */
export function isSuggestionAccepted(
  s: Suggestion,
  present: ReadonlySet<string>,
  excluded: ReadonlySet<string>,
): boolean {
  return s.kind === 'excluded' ? excluded.has(s.id) : present.has(s.id);
}

/** Accept/reject bookkeeping shared by the upload form and the Diagnose module. */
export function useSuggestionState(
  suggestions: Suggestion[],
  present: readonly TermRef[],
  excluded: readonly TermRef[],
) {
  const [rejected, setRejected] = useState<ReadonlySet<string>>(new Set());
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const presentIds = useMemo(() => new Set(present.map((t) => t.id)), [present]);
  const excludedIds = useMemo(() => new Set(excluded.map((t) => t.id)), [excluded]);
  const isAccepted = (s: Suggestion) => isSuggestionAccepted(s, presentIds, excludedIds);
  const byKey = useMemo(() => new Map(suggestions.map((s) => [s.key, s])), [suggestions]);
  const stateOf = (key: string): MentionState => {
    const s = byKey.get(key);
    if (!s) return 'pending';
    if (isSuggestionAccepted(s, presentIds, excludedIds)) return 'accepted';
    return rejected.has(key) ? 'rejected' : 'pending';
  };
  const reject = (key: string) => setRejected((prev) => new Set(prev).add(key));
  const restore = () => setRejected(new Set());
  return {
    rejected,
    reject,
    restore,
    activeKey,
    setActiveKey,
    isAccepted,
    stateOf,
    /** The SuggestionPanel's wiring to this state; `accept` adds a suggestion's term. */
    panelProps: (accept: SuggestionPanelProps['onAccept']) => ({
      isAccepted,
      rejected,
      onAccept: accept,
      onAcceptAll: (list: Suggestion[], as: 'present' | 'excluded') => list.forEach((s) => accept(s, as)),
      onReject: reject,
      onRestoreRejected: restore,
      onActiveChange: setActiveKey,
    }),
  };
}

export type PhenomeSuggestionsProps = {
  /** The free text typed so far. */
  text: string;
  /** Terms already chosen for the patient. */
  selected: TermRef[];
  onAddTerm: (term: TermRef) => void;
  /** Terms already recorded as absent, when the form has them. */
  excluded?: TermRef[] | undefined;
  /** Records a negated finding as an excluded term; without it negated mentions are only shown. */
  onAddExcludedTerm?: ((term: TermRef) => void) | undefined;
};

/**
 * PhenomeAI inside the symptoms box: as the user types (after a 400 ms pause, stale requests
 * aborted) it proposes HPO terms as chips and marks their words in a read-only copy of the text.
 */
export function PhenomeSuggestions({
  text,
  selected,
  onAddTerm,
  excluded = [],
  onAddExcludedTerm,
}: PhenomeSuggestionsProps) {
  const extraction = usePhenomeExtraction(text, { debounceMs: ExtractDebounceMs });
  const data = extraction.data;
  const findings = useMemo(() => data?.terms ?? [], [data]);
  const suggestions = useMemo(() => groupSuggestions(findings), [findings]);
  const state = useSuggestionState(suggestions, selected, excluded);
  if (extraction.isEmpty) return null;

  const accept = (s: Suggestion, as: 'present' | 'excluded') => {
    const term = { id: s.id, label: s.label, ...(s.onset ? { onset: true as const } : {}) };
    if (as === 'excluded') onAddExcludedTerm?.(term);
    else onAddTerm(term);
  };
  const isError = extraction.query.isError && !extraction.isUpdating;
  const count = suggestions.length;
  let status: string;
  if (isError)
    status = `PhenomeAI could not read the text: ${errorMessage(extraction.query.error)}`;
  else if (!data) status = 'Reading the description…';
  else if (count === 0)
    status = 'No phenotype recognised yet. Describe findings in clinical or plain words.';
  else status = `${count} phenotype${count === 1 ? '' : 's'} recognised`;

  return (
    <div
      className="overflow-hidden rounded-xl border border-ink-100 bg-ink-50/40"
      data-testid="phenome-box"
    >
      <div className="flex items-center gap-2 border-b border-ink-100 bg-white/70 px-3 py-2">
        <span
          className="inline-flex size-6 items-center justify-center rounded-md bg-accent-50 text-accent-700"
          aria-hidden="true"
        >
          <SparklesIcon className="size-3.5" />
        </span>
        <span className="text-xs font-semibold text-ink-900">PhenomeAI</span>
        <span
          role="status"
          aria-live="polite"
          className={isError ? 'text-xs text-danger-700' : 'text-xs text-ink-500'}
          data-testid="phenome-status"
        >
          {status}
        </span>
        {extraction.isUpdating && !isError ? (
          <Spinner className="ml-auto size-3.5 text-accent-600" label="Analysing the text" />
        ) : null}
      </div>
      {data && findings.length > 0 ? (
        <div className="flex flex-col gap-4 p-3">
          <HighlightedText
            text={data.text}
            terms={findings}
            stateOf={state.stateOf}
            activeKey={state.activeKey}
            className="max-h-48 overflow-y-auto rounded-lg border border-ink-100 bg-white px-3 py-2"
          />
          <SuggestionPanel
            suggestions={suggestions.filter((s) => s.kind !== 'excluded' || onAddExcludedTerm)}
            {...state.panelProps(accept)}
          />
          <AlsoNoted modifiers={data.modifiers} />
        </div>
      ) : data && data.modifiers.length > 0 ? (
        <AlsoNoted modifiers={data.modifiers} className="p-3" />
      ) : null}
    </div>
  );
}
