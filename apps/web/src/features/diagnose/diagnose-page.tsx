import {
  PHENOME_MAX_TEXT,
  Messages,
  type GeneRow,
  type PhenotypeRow,
  type ProductDetails,
  type CaseTerm,
} from '@rarelens/contract';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Alert, Card, PageHeader } from '../../components/card.tsx';
import { Button } from '../../components/button.tsx';
import { FormField, Textarea } from '../../components/form.tsx';
import { CloseIcon, SparklesIcon } from '../../components/icons.tsx';
import { PageSpinner, Spinner } from '../../components/spinner.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { useProductId } from '../../app/layouts/product-layout.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { productKeys, CaseSummary, StatusBadge } from '../cases/index.ts';
import { phenotypesApi } from '../phenotypes/index.ts';
import { AlsoNoted, HighlightedText, usePhenomeExtraction, useSuggestionState, SuggestionPanel, groupSuggestions, type Suggestion } from '../phenome/index.ts';
import { HpoTermPicker, OnsetBadge } from '../upload/index.ts';
import {
  RerankTimeoutMs,
  sameTerms,
  useProductWhileRanking,
  useSaveTerms,
  type PatientTerms,
} from './diagnose.api.ts';
import { RankingPreview, snapshotOf, type RankSnapshot } from './ranking-preview.tsx';

/** /my-product/:id/diagnose — Diagnose module (PhenomeAI). */
export function DiagnosePage() {
  useDocumentTitle('Diagnose module');
  const productId = useProductId();
  const [rerank, setRerank] = useState<RerankWait | null>(null);
  const product = useProductWhileRanking(
    productId,
    (p) => rerank !== null && isWaitingFor(rerank, p),
  );
  const isRanking = rerank !== null && isWaitingFor(rerank, product.data);
  if (product.isPending) return <PageSpinner label="Loading case" />;
  if (product.isError) return <Alert tone="error">{errorMessage(product.error)}</Alert>;
  return (
    <DiagnoseWorkspace
      key={product.data.id}
      product={product.data}
      rerank={rerank}
      isRanking={isRanking}
      onRerank={setRerank}
    />
  );
}

/** The last re-ranking started here: done once the run's rankedAt moves past `since`. */
type RerankWait = {
  since: string | null;
  startedAt: number;
  before: RankSnapshot;
  termCount: number;
  isTimedOut: boolean;
};

/** True while the worker has not written the new ranking (nor failed, nor timed out). */
function isWaitingFor(wait: RerankWait, product: ProductDetails | undefined): boolean {
  if (!product || wait.isTimedOut || product.status === 'Error') return false;
  return (product.run?.rankedAt ?? null) === wait.since;
}

function addTerm(list: CaseTerm[], term: CaseTerm): CaseTerm[] {
  return list.some((t) => t.id === term.id) ? list : [...list, term];
}

function Legend() {
  const item = (cls: string, label: string) => (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className={cn('inline-block h-3 w-4 rounded-[3px]', cls)} />
      {label}
    </span>
  );
  return (
    <p
      className="flex flex-wrap gap-x-4 gap-y-1 text-[11px] text-ink-500"
      aria-label="Highlight legend"
    >
      {item('bg-accent-100 border-b-2 border-accent-600', 'In the patient’s terms')}
      {item('bg-accent-50 border-b-2 border-accent-500', 'Proposed')}
      {item('bg-ink-100 border-b border-dashed border-ink-500', 'Stated absent')}
      {item('bg-violet-50 border-b-2 border-dotted border-violet-400', 'Family history')}
    </p>
  );
}

type WorkspaceProps = {
  product: ProductDetails;
  rerank: RerankWait | null;
  isRanking: boolean;
  onRerank: (wait: RerankWait | null) => void;
};

function DiagnoseWorkspace({ product, rerank, isRanking, onRerank }: WorkspaceProps) {
  const queryClient = useQueryClient();
  const productId = product.id;
  const saved: PatientTerms = useMemo(
    () => ({ hpoTerms: product.hpoTerms, excludedTerms: product.excludedTerms }),
    [product.hpoTerms, product.excludedTerms],
  );
  const [draft, setDraft] = useState<PatientTerms | null>(null);
  const terms = draft ?? saved;
  const isDirty =
    draft !== null &&
    !(
      sameTerms(draft.hpoTerms, saved.hpoTerms) &&
      sameTerms(draft.excludedTerms, saved.excludedTerms)
    );
  const save = useSaveTerms(productId);
  const isCompleted = product.status === 'Completed';
  const canEdit = product.isOwner;

  // Free text typed here (new findings, a clinic letter…) is read by PhenomeAI with the case's
  // description; accepted suggestions join the terms like those of the description.
  const [notes, setNotes] = useState('');
  const description = product.symptoms.trim();
  const clinicalText = notes.trim() === '' ? product.symptoms : description === '' ? notes : `${product.symptoms}\n\n${notes}`;
  const extraction = usePhenomeExtraction(clinicalText, { debounceMs: notes === '' ? 0 : 500 });
  const data = extraction.data;
  const suggestions = useMemo(() => groupSuggestions(data?.terms ?? []), [data]);
  const state = useSuggestionState(suggestions, terms.hpoTerms, terms.excludedTerms);
  const fromText = useMemo(() => new Set(suggestions.map((s) => s.id)), [suggestions]);

  const rankedAt = product.run?.rankedAt ?? null;
  // Movements are shown against the ranks before the last finished re-ranking.
  const before = rerank && !isRanking && !rerank.isTimedOut ? rerank.before : null;

  // Tell the user once how the last re-ranking ended (the toast is the external effect).
  const announced = useRef<number | null>(null);
  useEffect(() => {
    if (!rerank || isRanking || announced.current === rerank.startedAt) return;
    announced.current = rerank.startedAt;
    if (rerank.isTimedOut) {
      toast.error('The re-ranking is taking longer than expected', {
        description: 'The terms are saved; the ranking refreshes when it is done.',
      });
    } else if (product.status === 'Error') {
      toast.error(Messages.productError, { description: product.error?.reason });
    } else {
      const terms = `${rerank.termCount} HPO term${rerank.termCount === 1 ? '' : 's'}`;
      // The same query the ranking card reads: fetched once, it also fills the card.
      queryClient
        .fetchQuery({
          queryKey: [...productKeys.results(productId), rankedAt, 'phenotypes', 1],
          queryFn: ({ signal }) => phenotypesApi.list(productId, 1, signal),
        })
        .then(
          (page) => {
            const top = page.items[0];
            toast.success('Ranking updated', {
              description: `Re-ranked with ${terms}.${top ? ` Top disease: ${top.name}.` : ''}`,
            });
          },
          () => toast.success('Ranking updated', { description: `Re-ranked with ${terms}.` }),
        );
    }
  }, [rerank, isRanking, product.status, product.error, queryClient, productId, rankedAt]);

  // Stop waiting after RerankTimeoutMs.
  useEffect(() => {
    if (!rerank || !isRanking) return;
    const timer = window.setTimeout(
      () => onRerank({ ...rerank, isTimedOut: true }),
      Math.max(0, rerank.startedAt + RerankTimeoutMs - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [rerank, isRanking, onRerank]);

  const edit = (change: (t: PatientTerms) => PatientTerms) => setDraft((d) => change(d ?? saved));
  const addPresent = (term: CaseTerm) =>
    edit((t) => ({
      hpoTerms: addTerm(t.hpoTerms, term),
      excludedTerms: t.excludedTerms.filter((x) => x.id !== term.id),
    }));
  const addExcluded = (term: CaseTerm) =>
    edit((t) => ({
      excludedTerms: addTerm(t.excludedTerms, term),
      hpoTerms: t.hpoTerms.filter((x) => x.id !== term.id),
    }));
  const remove = (id: string) =>
    edit((t) => ({
      hpoTerms: t.hpoTerms.filter((x) => x.id !== id),
      excludedTerms: t.excludedTerms.filter((x) => x.id !== id),
    }));
  const accept = (s: Suggestion, as: 'present' | 'excluded') =>
    (as === 'excluded' ? addExcluded : addPresent)({ id: s.id, label: s.label, ...(s.onset ? { onset: true as const } : {}) });

  function firstPage<T>(key: QueryKey): T[] | undefined {
    return queryClient.getQueryData<{ items: T[] }>(key)?.items;
  }

  function handleRerank() {
    const next = terms;
    const snapshot = snapshotOf(
      firstPage<PhenotypeRow>([...productKeys.results(productId), rankedAt, 'phenotypes', 1]),
      firstPage<GeneRow>([...productKeys.results(productId), rankedAt, 'genes', 1]),
    );
    save.mutate(next, {
      onSuccess: (result) => {
        setDraft(null);
        if (result.rerankQueued) {
          onRerank({
            since: rankedAt,
            startedAt: Date.now(),
            before: snapshot,
            termCount: next.hpoTerms.length,
            isTimedOut: false,
          });
        } else {
          toast.success('Terms saved', {
            description: 'The ranking will use them when the analysis completes.',
          });
        }
      },
      onError: toastError,
    });
  }

  const added =
    terms.hpoTerms.filter((t) => !saved.hpoTerms.some((s) => s.id === t.id)).length +
    terms.excludedTerms.filter((t) => !saved.excludedTerms.some((s) => s.id === t.id)).length;
  const removed =
    saved.hpoTerms.filter((t) => !terms.hpoTerms.some((s) => s.id === t.id)).length +
    saved.excludedTerms.filter((t) => !terms.excludedTerms.some((s) => s.id === t.id)).length;

  return (
    <>
      <PageHeader
        title={
          <span className="flex items-center gap-2.5">
            Diagnose module
            <span className="inline-flex items-center gap-1 rounded-full bg-accent-50 px-2 py-0.5 text-xs font-semibold text-accent-700 ring-1 ring-accent-200 ring-inset">
              <SparklesIcon className="size-3.5" aria-hidden="true" />
              PhenomeAI
            </span>
          </span>
        }
        description="The clinical description with its recognised phenotypes. Refine the patient’s HPO terms and re-rank the case."
        actions={
          <StatusBadge
            status={product.status}
            progress={product.status === 'Processing' ? product.progress : undefined}
          />
        }
      />
      <CaseSummary product={product} linkToDiagnose={false} />
      {/* Phones: text, terms, ranking; wide screens: terms in a sticky column on the right. */}
      <div
        className={cn(
          'grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(320px,400px)] lg:grid-rows-[auto_1fr]',
          isDirty && 'pb-20 lg:pb-0',
        )}
      >
        <Card
          className="min-w-0 overflow-hidden lg:col-start-1 lg:row-start-1"
          data-testid="diagnose-text"
        >
          <div className="flex flex-wrap items-center justify-between gap-2 border-b border-ink-100 px-5 py-3.5">
            <div>
              <h2 className="text-sm font-semibold text-ink-900">Clinical description</h2>
              <p
                className="text-xs text-ink-500"
                role="status"
                aria-live="polite"
                data-testid="diagnose-extraction-status"
              >
                {extraction.isEmpty
                  ? 'No text to read: add terms from the ontology.'
                  : extraction.query.isError
                    ? `PhenomeAI could not read the text: ${errorMessage(extraction.query.error)}`
                    : !data
                      ? 'PhenomeAI is reading the description…'
                      : `${suggestions.length} phenotype${suggestions.length === 1 ? '' : 's'} recognised · HPO ${data.hpoVersion}${data.llmUsed ? ' · LLM assisted' : ''}`}
              </p>
            </div>
            {extraction.isUpdating ? (
              <Spinner className="size-4 text-accent-600" label="Analysing the text" />
            ) : null}
          </div>
          <div className="flex flex-col gap-4 px-5 py-4">
            {clinicalText.trim() === '' ? (
              <p className="text-sm text-ink-500">
                No clinical description was given for this case.
              </p>
            ) : (
              <HighlightedText
                text={data?.text ?? clinicalText}
                terms={data?.terms ?? []}
                stateOf={state.stateOf}
                activeKey={state.activeKey}
                label="Clinical description with recognised phenotypes"
                className="max-h-[28rem] overflow-y-auto rounded-lg bg-ink-50/50 px-4 py-3 text-[15px]"
              />
            )}
            {canEdit ? (
              <FormField
                label="Add findings in free text"
                hint="PhenomeAI reads what you type with the description and suggests HPO terms; accept them to add them to the patient’s terms. The text itself is not saved."
              >
                <Textarea
                  value={notes}
                  onChange={(event) => setNotes(event.target.value)}
                  rows={3}
                  maxLength={PHENOME_MAX_TEXT - product.symptoms.length - 2}
                  disabled={isRanking}
                  placeholder="e.g. Since last visit: hearing loss on the left, two febrile seizures; no heart defect on echo."
                  data-testid="diagnose-free-text"
                />
              </FormField>
            ) : null}
            {data && suggestions.length > 0 ? <Legend /> : null}
            {data ? (
              <SuggestionPanel
                suggestions={suggestions}
                {...state.panelProps(accept)}
                readOnly={!canEdit || isRanking}
              />
            ) : null}
            {data ? <AlsoNoted modifiers={data.modifiers} /> : null}
          </div>
        </Card>
        <Card
          className="flex flex-col lg:sticky lg:top-4 lg:col-start-2 lg:row-span-2 lg:row-start-1"
          data-testid="diagnose-terms"
        >
          <div className="border-b border-ink-100 px-5 py-3.5">
            <h2 className="text-sm font-semibold text-ink-900">Patient phenotype</h2>
            <p className="text-xs text-ink-500">HPO terms used by the ranking.</p>
          </div>
          <div className="flex flex-col gap-5 px-5 py-4">
            {TERM_LISTS.map((list) => (
              <TermList
                key={list.terms}
                title={list.title}
                tone={list.tone}
                testId={list.testId}
                terms={terms[list.terms]}
                saved={saved[list.terms]}
                fromText={fromText}
                onRemove={canEdit && !isRanking ? remove : undefined}
                empty={list.empty}
              />
            ))}
            {canEdit ? (
              <AddTerm
                disabled={isRanking}
                selected={[...terms.hpoTerms, ...terms.excludedTerms]}
                onAdd={(term, as) => (as === 'present' ? addPresent(term) : addExcluded(term))}
              />
            ) : null}
          </div>
          {canEdit ? (
            <div className="flex flex-col gap-2 rounded-b-2xl border-t border-ink-100 bg-ink-50/60 px-5 py-3.5">
              <p className="text-xs text-ink-500" aria-live="polite" data-testid="diagnose-changes">
                {isRanking
                  ? 'Re-ranking the case with the saved terms…'
                  : isDirty
                    ? `Unsaved changes: ${added} added, ${removed} removed.`
                    : 'The ranking uses these terms.'}
              </p>
              <div className="flex gap-2">
                <Button
                  variant="secondary"
                  className="flex-1"
                  onClick={handleRerank}
                  isLoading={save.isPending || isRanking}
                  disabled={!isDirty || isRanking}
                  data-testid="diagnose-rerank"
                >
                  {isRanking
                    ? product.status === 'In queue'
                      ? 'In queue'
                      : Messages.processing
                    : isCompleted
                      ? 'Save and re-rank'
                      : 'Save terms'}
                </Button>
                <Button
                  variant="outline"
                  onClick={() => setDraft(null)}
                  disabled={!isDirty || save.isPending || isRanking}
                >
                  Discard
                </Button>
              </div>
            </div>
          ) : (
            <p className="rounded-b-2xl border-t border-ink-100 bg-ink-50/60 px-5 py-3 text-xs text-ink-500">
              This case is shared with you: only its owner can change the terms.
            </p>
          )}
        </Card>
        <div className="min-w-0 lg:col-start-1 lg:row-start-2">
          {isCompleted || isRanking ? (
            <RankingPreview
              productId={productId}
              rankedAt={rankedAt}
              before={before}
              isRanking={isRanking}
              status={{ status: product.status, progress: product.progress }}
            />
          ) : (
            <Alert tone="info">
              The ranking appears here once the analysis has completed; terms saved now are used by
              it.
            </Alert>
          )}
        </div>
      </div>
      {canEdit && isDirty && !isRanking ? (
        // Phones: the save action follows the user while they accept terms higher up the page.
        <div
          className="fixed inset-x-0 bottom-0 z-30 flex items-center gap-3 border-t border-ink-100 bg-white/95 px-4 py-3 shadow-[0_-4px_16px_rgb(11_42_74/0.08)] backdrop-blur lg:hidden"
          data-testid="diagnose-mobile-bar"
        >
          <p className="min-w-0 flex-1 text-xs text-ink-600">
            <strong className="font-semibold text-ink-900">Unsaved changes</strong>
            <span className="block">
              {added} added, {removed} removed
            </span>
          </p>
          <Button variant="secondary" size="sm" onClick={handleRerank} isLoading={save.isPending}>
            {isCompleted ? 'Save and re-rank' : 'Save terms'}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** The phenotype card's two lists: the terms present, then those examined and found absent. */
const TERM_LISTS = [
  {
    terms: 'hpoTerms',
    title: 'Present',
    tone: 'present',
    testId: 'diagnose-present-terms',
    empty: 'No term yet: accept terms from the text or search the ontology.',
  },
  {
    terms: 'excludedTerms',
    title: 'Excluded',
    tone: 'excluded',
    testId: 'diagnose-excluded-terms',
    empty: 'None. Findings examined and found absent lower the diseases that expect them.',
  },
] as const;

function TermList({
  title,
  terms,
  saved,
  fromText,
  onRemove,
  empty,
  tone = 'present',
  testId,
}: {
  title: string;
  terms: CaseTerm[];
  saved: CaseTerm[];
  fromText: ReadonlySet<string>;
  onRemove: ((id: string) => void) | undefined;
  empty: string;
  tone?: 'present' | 'excluded';
  testId: string;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3
        id={headingId}
        className="mb-2 flex items-center gap-2 text-[11px] font-semibold tracking-wide text-ink-500 uppercase"
      >
        <span
          aria-hidden="true"
          className={cn(
            'size-2 rounded-full',
            tone === 'present' ? 'bg-accent-500' : 'border border-ink-400 bg-white',
          )}
        />
        {title} <span className="font-normal text-ink-400">({terms.length})</span>
      </h3>
      {terms.length === 0 ? (
        <p className="text-xs text-ink-400">{empty}</p>
      ) : (
        <ul
          className="flex flex-col divide-y divide-ink-50 rounded-lg border border-ink-100"
          data-testid={testId}
        >
          {terms.map((t) => {
            const isNew = !saved.some((s) => s.id === t.id);
            return (
              <li
                key={t.id}
                data-testid="diagnose-term"
                data-term-id={t.id}
                className="flex items-center gap-2 px-3 py-2 text-sm"
              >
                <span className="min-w-0 flex-1">
                  <span
                    className={cn(
                      'block truncate font-medium',
                      tone === 'excluded'
                        ? 'text-ink-600 line-through decoration-ink-300'
                        : 'text-ink-900',
                    )}
                  >
                    {t.label}
                  </span>
                  <span className="flex items-center gap-1.5 text-[11px] text-ink-500">
                    <a
                      href={`https://hpo.jax.org/browse/term/${encodeURIComponent(t.id)}`}
                      target="_blank"
                      rel="noreferrer"
                      className="font-mono hover:text-accent-700 hover:underline"
                    >
                      {t.id}
                    </a>
                    {t.onset ? <OnsetBadge /> : null}
                    {fromText.has(t.id) ? (
                      <span className="rounded bg-accent-50 px-1 text-[10px] font-medium text-accent-700">
                        in text
                      </span>
                    ) : null}
                    {isNew ? (
                      <span className="rounded bg-amber-50 px-1 text-[10px] font-medium text-amber-800 ring-1 ring-amber-200 ring-inset">
                        unsaved
                      </span>
                    ) : null}
                  </span>
                </span>
                {onRemove ? (
                  <button
                    type="button"
                    onClick={() => onRemove(t.id)}
                    aria-label={`Remove ${t.label} (${t.id})`}
                    className="inline-flex size-7 shrink-0 items-center justify-center rounded-md text-ink-400 hover:bg-danger-50 hover:text-danger-700"
                  >
                    <CloseIcon className="size-3.5" />
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Ontology search with a choice of where the term goes (present or excluded). */
function AddTerm({
  selected,
  onAdd,
  disabled,
}: {
  selected: CaseTerm[];
  onAdd: (term: CaseTerm, as: 'present' | 'excluded') => void;
  disabled: boolean;
}) {
  const [as, setAs] = useState<'present' | 'excluded'>('present');
  const pickerId = useId();
  return (
    <div className={cn('flex flex-col gap-2', disabled && 'pointer-events-none opacity-60')}>
      <div className="flex items-center justify-between gap-2">
        <label
          htmlFor={pickerId}
          className="text-[11px] font-semibold tracking-wide text-ink-500 uppercase"
        >
          Add a term
        </label>
        <div
          role="radiogroup"
          aria-label="Add as"
          className="inline-flex rounded-md border border-ink-100 bg-white p-0.5 text-xs"
        >
          {(['present', 'excluded'] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={as === value}
              onClick={() => setAs(value)}
              className={cn(
                'rounded px-2 py-0.5 font-medium capitalize',
                as === value ? 'bg-ink-900 text-white' : 'text-ink-600 hover:bg-ink-50',
              )}
            >
              {value}
            </button>
          ))}
        </div>
      </div>
      <HpoTermPicker
        id={pickerId}
        label={as === 'present' ? 'Add a present HPO term' : 'Add an excluded HPO term'}
        selected={selected}
        onSelect={(term) => onAdd(term, as)}
        placeholder={
          as === 'present'
            ? 'Search HPO, e.g. hypotonia or HP:0001252'
            : 'Search a finding that is absent'
        }
      />
    </div>
  );
}
