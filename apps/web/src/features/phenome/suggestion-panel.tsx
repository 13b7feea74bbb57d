import { useId, type ReactNode } from 'react';
import { CheckIcon, CloseIcon } from '../../components/icons.tsx';
import { Tooltip } from '../../components/tooltip.tsx';
import { cn } from '../../lib/cn.ts';
import { confidenceLevel, type Suggestion } from './suggestions.ts';

/** Three bars for high / medium / low confidence, with the percentage for screen readers and on hover. */
export function ConfidenceMeter({ value }: { value: number }) {
  const level = confidenceLevel(value);
  const filled = level === 'high' ? 3 : level === 'medium' ? 2 : 1;
  const pct = Math.round(value * 100);
  return (
    <Tooltip content={`${level[0]?.toUpperCase()}${level.slice(1)} confidence (${pct}%)`}>
      <span
        role="img"
        aria-label={`${level} confidence, ${pct}%`}
        data-confidence={level}
        className="inline-flex h-3 items-end gap-[2px]"
      >
        {[0, 1, 2].map((i) => (
          <span
            key={i}
            className={cn(
              'w-[3px] rounded-sm',
              i === 0 ? 'h-1.5' : i === 1 ? 'h-2.5' : 'h-3',
              i < filled
                ? level === 'high'
                  ? 'bg-accent-500'
                  : level === 'medium'
                    ? 'bg-amber-400'
                    : 'bg-ink-300'
                : 'bg-ink-100',
            )}
          />
        ))}
      </span>
    </Tooltip>
  );
}

type ChipProps = {
  suggestion: Suggestion;
  acceptLabel: string;
  onAccept: () => void;
  onReject?: () => void;
  onActiveChange?: (key: string | null) => void;
  readOnly?: boolean;
  /** Shown instead of the actions (a relative's finding the patient's terms already hold). */
  note?: string;
};

/** One proposed term: confidence, label, HPO id, the words it came from, accept and reject. */
function SuggestionChip({
  suggestion: s,
  acceptLabel,
  onAccept,
  onReject,
  onActiveChange,
  readOnly,
  note,
}: ChipProps) {
  const name = `${s.label} (${s.id})`;
  const words = [...new Set(s.mentions.map((m) => m.text))];
  return (
    <li
      data-testid="phenome-suggestion"
      data-kind={s.kind}
      data-term-id={s.id}
      onMouseEnter={() => onActiveChange?.(s.key)}
      onMouseLeave={() => onActiveChange?.(null)}
      onFocus={() => onActiveChange?.(s.key)}
      onBlur={() => onActiveChange?.(null)}
      className={cn(
        'group inline-flex max-w-full items-center gap-2 rounded-lg border bg-white py-1 pr-1 pl-2.5 text-xs shadow-sm transition-colors',
        s.kind === 'present' && 'border-accent-200 hover:border-accent-300',
        s.kind === 'excluded' && 'border-ink-200 border-dashed hover:border-ink-300',
        s.kind === 'family' && 'border-violet-200 hover:border-violet-300',
      )}
    >
      <ConfidenceMeter value={s.confidence} />
      <span className="flex min-w-0 flex-col leading-tight">
        <span className="flex min-w-0 items-baseline gap-1.5">
          <span
            className={cn(
              'truncate font-medium text-ink-900',
              s.kind === 'excluded' && 'text-ink-700',
            )}
          >
            {s.label}
          </span>
          <span className="shrink-0 font-mono text-[10.5px] text-ink-500">{s.id}</span>
          {s.isUncertain ? (
            <span className="shrink-0 rounded bg-amber-50 px-1 text-[10px] font-medium text-amber-800 ring-1 ring-amber-200 ring-inset">
              possible
            </span>
          ) : null}
        </span>
        <span className="truncate text-[11px] text-ink-400" title={words.join(', ')}>
          “{words.join('”, “')}”
        </span>
      </span>
      {note ? (
        <span className="ml-1 shrink-0 pr-1.5 text-[11px] text-ink-500" data-testid="suggestion-note">
          {note}
        </span>
      ) : readOnly ? null : (
        <span className="ml-1 flex shrink-0 items-center gap-0.5">
          <Tooltip content={acceptLabel}>
            <button
              type="button"
              onClick={onAccept}
              aria-label={`${acceptLabel}: ${name}`}
              className={cn(
                'inline-flex size-7 items-center justify-center rounded-md transition-colors',
                s.kind === 'excluded'
                  ? 'text-ink-600 hover:bg-ink-100'
                  : 'text-accent-700 hover:bg-accent-50',
              )}
            >
              <CheckIcon className="size-4" />
            </button>
          </Tooltip>
          {onReject ? (
            <Tooltip content="Reject">
              <button
                type="button"
                onClick={onReject}
                aria-label={`Reject ${name}`}
                className="inline-flex size-7 items-center justify-center rounded-md text-ink-400 transition-colors hover:bg-danger-50 hover:text-danger-700"
              >
                <CloseIcon className="size-3.5" />
              </button>
            </Tooltip>
          ) : null}
        </span>
      )}
    </li>
  );
}

/**
 * The panel's groups, in order: the open suggestions of one kind, how accepting one records it,
 * and the group's "all" action, if any.
 */
const GROUPS: ReadonlyArray<{
  kind: 'present' | 'excluded' | 'family';
  title: string;
  hint?: string;
  as: 'present' | 'excluded';
  accept: string;
  all?: { label: string; colours: string };
}> = [
  { kind: 'present', title: 'Proposed phenotypes', as: 'present', accept: 'Accept', all: { label: 'Accept all', colours: 'text-accent-700 hover:bg-accent-50' } },
  {
    kind: 'excluded',
    title: 'Excluded — stated absent',
    hint: 'Negated in the text. Accept to record them as excluded phenotypes: diseases that expect them rank lower.',
    as: 'excluded',
    accept: 'Accept as excluded',
    all: { label: 'Exclude all', colours: 'text-ink-700 hover:bg-ink-50' },
  },
  {
    kind: 'family',
    title: 'Family history',
    hint: 'Findings in relatives are not proposed for the patient. Add one only if the patient has it too.',
    as: 'present',
    accept: 'Add to the patient anyway',
  },
];

function Group({
  title,
  hint,
  action,
  tone,
  children,
  testId,
}: {
  title: string;
  hint?: ReactNode;
  action?: ReactNode;
  tone: 'present' | 'excluded' | 'family';
  children: ReactNode;
  testId: string;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid={testId} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3
          id={headingId}
          className="flex items-center gap-2 text-[11px] font-semibold tracking-wide text-ink-500 uppercase"
        >
          <span
            aria-hidden="true"
            className={cn(
              'size-2 rounded-full',
              tone === 'present'
                ? 'bg-accent-500'
                : tone === 'excluded'
                  ? 'border border-ink-400 bg-white'
                  : 'bg-violet-400',
            )}
          />
          {title}
        </h3>
        {action}
      </div>
      {hint ? <p className="-mt-1 text-xs text-ink-500">{hint}</p> : null}
      <ul className="flex flex-wrap gap-1.5" aria-label={title}>
        {children}
      </ul>
    </section>
  );
}

export type SuggestionPanelProps = {
  suggestions: Suggestion[];
  /** True when the suggestion is already among the patient's terms (present or excluded, by kind). */
  isAccepted: (s: Suggestion) => boolean;
  rejected: ReadonlySet<string>;
  /** Adds the term: as a present term, or as an excluded (absent) one. */
  onAccept: (s: Suggestion, as: 'present' | 'excluded') => void;
  onAcceptAll: (list: Suggestion[], as: 'present' | 'excluded') => void;
  onReject: (key: string) => void;
  onRestoreRejected: () => void;
  onActiveChange?: (key: string | null) => void;
  readOnly?: boolean;
};

/**
 * PhenomeAI proposals in three groups: findings to add to the patient, findings stated absent
 * (to add as excluded terms) and family history (shown, not proposed for the patient).
 */
export function SuggestionPanel({
  suggestions,
  isAccepted,
  rejected,
  onAccept,
  onAcceptAll,
  onReject,
  onRestoreRejected,
  onActiveChange,
  readOnly,
}: SuggestionPanelProps) {
  // A relative's finding stays in the family group even when the patient's terms hold the same
  // term (the patient's own seizures, the mother's epilepsy): it was not "accepted" for the
  // patient, and the family history must not vanish from the screen. The tally counts proposals.
  const listed = (s: Suggestion) => s.kind === 'family' || !isAccepted(s);
  const open = suggestions.filter((s) => listed(s) && !rejected.has(s.key));
  const acceptedCount = suggestions.filter((s) => s.kind !== 'family' && isAccepted(s)).length;
  const rejectedCount = suggestions.filter((s) => rejected.has(s.key) && listed(s)).length;
  if (suggestions.length === 0) return null;

  /** The chips of one group; `as` is how an accepted chip is added to the patient's terms. */
  const chips = (list: Suggestion[], as: 'present' | 'excluded', acceptLabel: string) =>
    list.map((s) => (
      <SuggestionChip
        key={s.key}
        suggestion={s}
        acceptLabel={acceptLabel}
        onAccept={() => onAccept(s, as)}
        onReject={() => onReject(s.key)}
        onActiveChange={onActiveChange}
        readOnly={readOnly}
        note={s.kind === 'family' && isAccepted(s) ? 'the patient has it too' : undefined}
      />
    ));
  /** "Accept all"-style action of a group, offered for two or more open chips. */
  const acceptAll = (
    list: Suggestion[],
    as: 'present' | 'excluded',
    label: string,
    colours: string,
  ) =>
    readOnly || list.length < 2 ? null : (
      <button
        type="button"
        onClick={() => onAcceptAll(list, as)}
        className={`rounded-md px-2 py-1 text-xs font-semibold ${colours}`}
      >
        {label}
      </button>
    );

  return (
    <div className="flex flex-col gap-4" data-testid="phenome-suggestions">
      {GROUPS.map((group) => {
        const list = open.filter((s) => s.kind === group.kind);
        return list.length > 0 ? (
          <Group
            key={group.kind}
            testId={`phenome-group-${group.kind}`}
            tone={group.kind}
            title={`${group.title} (${list.length})`}
            hint={group.hint}
            action={group.all ? acceptAll(list, group.as, group.all.label, group.all.colours) : undefined}
          >
            {chips(list, group.as, group.accept)}
          </Group>
        ) : null;
      })}
      {acceptedCount > 0 || rejectedCount > 0 ? (
        <p
          className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-500"
          data-testid="phenome-tally"
        >
          {acceptedCount > 0 ? (
            <span className="inline-flex items-center gap-1">
              <CheckIcon className="size-3.5 text-accent-600" aria-hidden="true" />
              {acceptedCount} accepted
            </span>
          ) : null}
          {rejectedCount > 0 ? (
            <span>
              {rejectedCount} rejected{' '}
              {readOnly ? null : (
                <button
                  type="button"
                  onClick={onRestoreRejected}
                  className="font-medium text-accent-700 hover:underline"
                >
                  Show again
                </button>
              )}
            </span>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
