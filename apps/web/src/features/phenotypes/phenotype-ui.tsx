import type { MatchedTerm, TermRef } from '@rarelens/contract';
import { Link } from 'react-router';
import { Tooltip } from '../../components/tooltip.tsx';
import { cn } from '../../lib/cn.ts';
import { formatProbability } from '../../lib/format.ts';

/** Patient terms that found a counterpart in the disease (exact, implied or partial). */
/** The patient's findings among a disease's matched terms: every entry but the onset line. */
export function symptomTerms(terms: MatchedTerm[]): MatchedTerm[] {
  return terms.filter((t) => t.match !== 'onset');
}

export function countMatched(terms: MatchedTerm[]): number {
  return terms.filter((t) => t.match === 'exact' || t.match === 'implied' || t.match === 'partial')
    .length;
}

/** What the probability columns mean (tooltip on the phenotypes and genes screens). */
import { PROBABILITY_HELP } from '@rarelens/contract';
export { PROBABILITY_HELP };

/** "Probability" with what it means on hover or focus: the label of a phone card's bare percentage. */
export function ProbabilityLabel({ kind }: { kind: keyof typeof PROBABILITY_HELP }) {
  return (
    <Tooltip content={PROBABILITY_HELP[kind]}>
      <span tabIndex={0} className="text-[11px] text-ink-500">
        Probability
      </span>
    </Tooltip>
  );
}

/** Post-test probability as a bar and a percentage. */
export function ProbabilityBar({ value, className }: { value: number; className?: string }) {
  const pct = Math.min(100, Math.max(0, value * 100));
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <div className="h-1.5 w-16 overflow-hidden rounded-full bg-ink-100" aria-hidden="true">
        <div
          className={cn(
            'h-full rounded-full',
            pct >= 50 ? 'bg-accent-600' : pct >= 10 ? 'bg-accent-400' : 'bg-ink-300',
          )}
          style={{ width: `${Math.max(pct, 2)}%` }}
        />
      </div>
      <span className="text-xs font-medium text-ink-800 tabular-nums">
        {formatProbability(value)}
      </span>
    </div>
  );
}

/** Modes of inheritance as short labels with the full term on hover. */
export function InheritanceList({ terms }: { terms: TermRef[] }) {
  if (terms.length === 0) return <span className="text-xs text-ink-400">not stated</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {terms.map((t) => (
        <Tooltip key={t.id} content={`${t.label} (${t.id})`}>
          <span
            tabIndex={0}
            className="rounded bg-ink-50 px-1.5 py-0.5 text-[11px] font-medium text-ink-700 ring-1 ring-ink-100 ring-inset"
          >
            {abbreviateInheritance(t.label)}
          </span>
        </Tooltip>
      ))}
    </span>
  );
}

/** Label beginnings (lower case) and their abbreviations, the more specific first. */
const INHERITANCE_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['autosomal dominant', 'AD'],
  ['autosomal recessive', 'AR'],
  ['x-linked dominant', 'XLD'],
  ['x-linked recessive', 'XLR'],
  ['x-linked', 'XL'],
  ['y-linked', 'YL'],
  ['mitochondrial', 'MT'],
  ['semidominant', 'SD'],
  ['digenic', 'DG'],
  ['somatic', 'Somatic'],
];

/** Words anywhere in a label no beginning above matched, and their short form. */
const INHERITANCE_WORDS: ReadonlyArray<readonly [string, string]> = [
  ['mosaicism', 'Mosaic'],
  ['incomplete penetrance', 'Incomplete penetrance'],
  ['de novo', 'De novo'],
];

/** Conventional abbreviations: AD, AR, XLD, XLR, XL, MT, … (the label itself otherwise). */
export function abbreviateInheritance(label: string): string {
  const l = label.toLowerCase();
  return (
    INHERITANCE_PREFIXES.find(([prefix]) => l.startsWith(prefix))?.[1] ??
    INHERITANCE_WORDS.find(([words]) => l.includes(words))?.[1] ??
    label
  );
}

/** Gene symbols linking to the case's gene details. */
export function GeneChips({
  productId,
  genes,
  max = 4,
}: {
  productId: string;
  genes: string[];
  max?: number;
}) {
  if (genes.length === 0) return <span className="text-xs text-ink-400">—</span>;
  const shown = genes.slice(0, max);
  return (
    <span className="flex flex-wrap gap-1">
      {shown.map((g) => (
        <Link
          key={g}
          to={`/my-product/${encodeURIComponent(productId)}/genes/${encodeURIComponent(g)}`}
          onClick={(e) => e.stopPropagation()}
          className="rounded bg-white px-1.5 py-0.5 text-[11px] font-semibold text-ink-800 italic ring-1 ring-ink-200 ring-inset hover:text-accent-700 hover:ring-accent-300"
        >
          {g}
        </Link>
      ))}
      {genes.length > max ? (
        <span className="px-1 text-[11px] text-ink-500">+{genes.length - max}</span>
      ) : null}
    </span>
  );
}

const matchTones: Record<string, string> = {
  exact: 'bg-accent-50 text-accent-700 ring-accent-200',
  implied: 'bg-sky-50 text-sky-700 ring-sky-200',
  partial: 'bg-amber-50 text-amber-800 ring-amber-200',
  unmatched: 'bg-ink-50 text-ink-500 ring-ink-200',
  contradicted: 'bg-red-50 text-red-700 ring-red-200',
  onset: 'bg-violet-50 text-violet-700 ring-violet-200',
};

const matchHelp: Record<string, string> = {
  exact: 'The disease is annotated with this very term.',
  implied: 'The disease is annotated with a more specific term that implies the patient’s term.',
  partial: 'The disease is annotated with a related term (a common ancestor): weaker evidence.',
  unmatched:
    'The disease is not annotated with this finding: it counts against the disease in proportion to how common the finding is.',
  contradicted:
    'The disease is annotated as NOT having this finding, or the finding was excluded in the patient.',
  onset:
    'The patient’s age of onset against the onsets the disease is annotated with: it counts for the disease when they agree (or are neighbours), against it when they are far apart; not at all when the disease has no onset annotation.',
};

export function MatchBadge({ match }: { match: string }) {
  return (
    <Tooltip content={matchHelp[match] ?? match}>
      <span
        tabIndex={0}
        className={cn(
          'inline-flex rounded px-1.5 py-0.5 text-[11px] font-medium capitalize ring-1 ring-inset',
          matchTones[match] ?? matchTones.unmatched,
        )}
      >
        {match}
      </span>
    </Tooltip>
  );
}

/** The stored reasoning behind a rank, a numbered line each; says so when none was stored. */
export function RankExplanation({ lines, testId, className }: { lines: string[]; testId: string; className?: string }) {
  return lines.length > 0 ? (
    <ol className={cn('flex list-decimal flex-col gap-2 py-4 pr-5 pl-9 text-sm text-ink-700', className)} data-testid={testId}>
      {lines.map((line, i) => (
        <li key={i}>{line}</li>
      ))}
    </ol>
  ) : (
    <p className={cn('px-5 py-4 text-sm text-ink-500', className)}>No explanation was stored for this ranking.</p>
  );
}
