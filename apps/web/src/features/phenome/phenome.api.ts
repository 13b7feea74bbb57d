import { PhenomeExtractResponse, type PhenomeTermDto } from '@rarelens/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';

/** Pause in typing before the text is sent to PhenomeAI (ms). */
export const ExtractDebounceMs = 400;

/** An extraction with the exact text it was computed on (spans are offsets into that text). */
export type Extraction = {
  text: string;
  hpoVersion: string;
  /** Phenotypic abnormalities and the patient's onset (category 'onset'): the terms to suggest. */
  terms: PhenomeTermDto[];
  /** Inheritance, course and other clinical modifiers: shown, never suggested as terms. */
  modifiers: PhenomeTermDto[];
  llmUsed: boolean;
};

export const phenomeApi = {
  /** POST /api/phenome/extract; aborted through `signal` when a newer text supersedes it. */
  extract: async (text: string, signal?: AbortSignal): Promise<Extraction> => {
    const r = await api.post(
      '/api/phenome/extract',
      { text },
      { schema: PhenomeExtractResponse, signal },
    );
    // The patient's stated onset is a term of the case (the ranking scores it); other modifiers are only noted.
    const isOnset = (t: PhenomeTermDto): boolean => t.category === 'onset' && t.subject === 'patient' && !t.negated;
    return {
      text,
      ...r,
      terms: [...r.terms, ...r.modifiers.filter(isOnset)].sort((a, b) => a.start - b.start || b.end - a.end),
      modifiers: r.modifiers.filter((t) => !isOnset(t)),
    };
  },
};

/**
 * HPO terms PhenomeAI finds in `text`. With `debounceMs` the request waits for a pause in
 * typing; a request for an older text is aborted as soon as the text changes (React Query
 * cancels a query whose signal was consumed once it has no observer). The previous result
 * stays visible while the next one loads: compare `data.text` with the current text.
 */
export function usePhenomeExtraction(
  text: string,
  { debounceMs = 0, enabled = true }: { debounceMs?: number; enabled?: boolean } = {},
) {
  const debounced = useDebouncedValue(text, debounceMs);
  const effective = debounceMs > 0 ? debounced : text;
  const trimmed = effective.trim();
  const query = useQuery({
    queryKey: ['phenome', 'extract', effective],
    queryFn: ({ signal }) => phenomeApi.extract(effective, signal),
    enabled: enabled && trimmed.length >= 3,
    placeholderData: keepPreviousData,
    staleTime: 10 * 60_000,
    retry: 1,
  });
  const isEmpty = text.trim().length < 3;
  return {
    query,
    /** The latest result, or undefined for an empty text. */
    data: isEmpty ? undefined : query.data,
    /** True while the shown result does not match the text yet (typing or loading). */
    isUpdating: !isEmpty && (query.isFetching || effective !== text || query.data?.text !== text),
    isEmpty,
  };
}
