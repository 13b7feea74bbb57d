import type { CaseTerm } from '@rarelens/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { CloseIcon } from '../../components/icons.tsx';
import { Input } from '../../components/form.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { searchHpoTerms } from './upload.api.ts';

type HpoTermPickerProps = {
  /** Terms already chosen: hidden from the suggestions. */
  selected: CaseTerm[];
  onSelect: (term: CaseTerm) => void;
  placeholder?: string;
  id?: string;
  'aria-describedby'?: string;
  invalid?: boolean;
  label: string;
};

/** A combobox over the Human Phenotype Ontology (GET /api/hpo/terms?q=), keyboard operable. */
export function HpoTermPicker({
  selected,
  onSelect,
  placeholder,
  id,
  invalid,
  label,
  ...aria
}: HpoTermPickerProps) {
  const listId = useId();
  const [text, setText] = useState('');
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  // Waits for the user to pause typing before asking the server.
  const q = useDebouncedValue(text.trim(), 200);

  const results = useQuery({
    queryKey: ['hpo-terms', q],
    queryFn: ({ signal }) => searchHpoTerms(q, signal),
    enabled: q.length >= 2,
    staleTime: 5 * 60_000,
  });
  const chosen = new Set(selected.map((t) => t.id));
  // While the debounce has not caught up with the input, the results belong to older text:
  // show none, so Enter never picks a term for what the user typed before.
  const isStale = q !== text.trim();
  const items = isStale ? [] : (results.data ?? []).filter((item) => !chosen.has(item.id));
  // Hidden as soon as the input is cleared (after a pick), even before the debounce catches up.
  const isShowingList = isOpen && q.length >= 2 && text.trim().length >= 2;

  function choose(index: number) {
    const item = items[index];
    if (!item) return;
    onSelect({ id: item.id, label: item.label, ...(item.onset ? { onset: true as const } : {}) });
    setText('');
    setActive(0);
    setIsOpen(false);
    inputRef.current?.focus();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setIsOpen(true);
      setActive((i) => Math.min(i + 1, Math.max(items.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter') {
      // Enter picks the highlighted term; it never submits the surrounding form.
      event.preventDefault();
      if (isShowingList) choose(active);
    } else if (event.key === 'Escape') {
      setIsOpen(false);
    }
  }

  return (
    <div className="relative">
      <Input
        ref={inputRef}
        id={id}
        role="combobox"
        aria-label={label}
        aria-expanded={isShowingList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={isShowingList && items[active] ? `${listId}-${active}` : undefined}
        aria-describedby={aria['aria-describedby']}
        invalid={invalid}
        autoComplete="off"
        placeholder={placeholder ?? 'Search HPO terms, e.g. craniosynostosis or HP:0001363'}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setIsOpen(true);
          setActive(0);
        }}
        onFocus={() => setIsOpen(true)}
        onBlur={() => window.setTimeout(() => setIsOpen(false), 150)}
        onKeyDown={handleKeyDown}
      />
      {results.isFetching && q.length >= 2 ? (
        <Spinner className="absolute top-2.5 right-3 size-4 text-ink-400" label="Searching" />
      ) : null}
      {isShowingList ? (
        <ul
          id={listId}
          role="listbox"
          aria-label={`${label} suggestions`}
          className="absolute z-40 mt-1 max-h-72 w-full overflow-y-auto rounded-xl border border-ink-100 bg-white p-1 shadow-card"
        >
          {results.isError ? (
            <li className="px-3 py-2 text-sm text-danger-700">{errorMessage(results.error)}</li>
          ) : isStale || results.isPending || (results.isFetching && items.length === 0) ? (
            <li className="px-3 py-2 text-sm text-ink-500">Searching the ontology…</li>
          ) : items.length === 0 ? (
            <li className="px-3 py-2 text-sm text-ink-500">No HPO term matches “{q}”.</li>
          ) : (
            items.map((item, index) => (
              <li
                key={item.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(index)}
                className={cn(
                  'flex cursor-pointer items-baseline justify-between gap-3 rounded-lg px-3 py-2 text-sm',
                  index === active ? 'bg-accent-50 text-ink-900' : 'text-ink-700',
                )}
              >
                <span className="min-w-0">
                  <span className="font-medium">{item.label}</span>
                  {item.onset ? <OnsetBadge /> : null}
                  {item.matchedSynonym ? (
                    <span className="block truncate text-xs text-ink-500">
                      synonym: {item.matchedSynonym}
                    </span>
                  ) : null}
                </span>
                <span className="shrink-0 font-mono text-xs text-ink-500">{item.id}</span>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}

/** Marks an age-of-onset term: the patient's onset, which the ranking scores against each disease's onset. */
export function OnsetBadge() {
  return (
    <span
      className="ml-1.5 rounded bg-violet-50 px-1 text-[10px] font-medium text-violet-700 ring-1 ring-violet-200 ring-inset"
      title="Age of onset: scored against each disease's onset"
    >
      onset
    </span>
  );
}

/** Chosen terms as removable chips showing id and label (an onset term marked as such). */
export function TermChips({
  terms,
  onRemove,
  tone = 'include',
}: {
  terms: CaseTerm[];
  onRemove: (id: string) => void;
  tone?: 'include' | 'exclude';
}) {
  if (terms.length === 0) return null;
  return (
    <ul
      className="flex flex-wrap gap-1.5"
      aria-label={tone === 'include' ? 'Selected HPO terms' : 'Excluded HPO terms'}
    >
      {terms.map((term) => (
        <li
          key={term.id}
          data-testid="hpo-chip"
          className={cn(
            'inline-flex max-w-full items-center gap-1.5 rounded-full border py-0.5 pr-1 pl-2.5 text-xs',
            tone === 'include'
              ? 'border-accent-200 bg-accent-50 text-accent-700'
              : 'border-ink-200 bg-ink-50 text-ink-600 line-through decoration-ink-300',
          )}
        >
          <span className="font-mono text-[11px] opacity-80">{term.id}</span>
          <span className="truncate font-medium">{term.label}</span>
          {term.onset ? <OnsetBadge /> : null}
          <button
            type="button"
            onClick={() => onRemove(term.id)}
            className="rounded-full p-0.5 hover:bg-white/80"
            aria-label={`Remove ${term.label} (${term.id})`}
          >
            <CloseIcon className="size-3.5" />
          </button>
        </li>
      ))}
    </ul>
  );
}
