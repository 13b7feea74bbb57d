import { Messages, type GeneRow, type PhenotypeRow, type ProductStatus } from '@rarelens/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from '../../components/card.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { formatProbability } from '../../lib/format.ts';
import { StatusBadge } from '../cases/index.ts';
import { useGenes } from '../genes/index.ts';
import { GeneChips, ProbabilityBar, usePhenotypes } from '../phenotypes/index.ts';

/** Ranks before the last re-ranking, by disease id and by gene symbol. */
export type RankSnapshot = { diseases: Map<string, number>; genes: Map<string, number> };

export function snapshotOf(
  diseases: readonly PhenotypeRow[] | undefined,
  genes: readonly GeneRow[] | undefined,
): RankSnapshot {
  return {
    diseases: new Map((diseases ?? []).map((d) => [d.id, d.rank])),
    genes: new Map((genes ?? []).map((g) => [g.symbol, g.rank])),
  };
}

/** ▲ n / ▼ n / new, against the rank before the last re-ranking. */
function Change({ previous, now }: { previous: number | undefined; now: number }) {
  if (previous === undefined) {
    return (
      <span
        title="Not among the top results before the re-ranking"
        className="rounded bg-accent-50 px-1 text-[10px] font-semibold text-accent-700 ring-1 ring-accent-200 ring-inset"
      >
        new
      </span>
    );
  }
  const delta = previous - now;
  if (delta === 0)
    return (
      <span className="text-[10px] text-ink-400" aria-label="unchanged">
        –
      </span>
    );
  return (
    <span
      className={cn(
        'text-[11px] font-semibold tabular-nums',
        delta > 0 ? 'text-accent-700' : 'text-danger-700',
      )}
      aria-label={delta > 0 ? `up ${delta}` : `down ${-delta}`}
    >
      {delta > 0 ? '▲' : '▼'}
      {Math.abs(delta)}
    </span>
  );
}

type TopListProps<R extends { rank: number }> = {
  label: string;
  title: string;
  /** The section's own classes (its border between the two lists). */
  className: string;
  query: UseQueryResult<{ items: R[] }>;
  limit: number;
  empty: string;
  testId: string;
  itemTestId: string;
  rowKey: (row: R) => string;
  itemData?: (row: R) => Record<`data-${string}`, string>;
  /** The rank of a row before the last re-ranking; null: no movement shown. */
  previous: ((row: R) => number | undefined) | null;
  /** What stands between the rank and the movement. */
  children: (row: R) => ReactNode;
};

/** One of the preview's two lists: its first `limit` rows, each with its rank and movement. */
function TopList<R extends { rank: number }>({
  label,
  title,
  className,
  query,
  limit,
  empty,
  testId,
  itemTestId,
  rowKey,
  itemData,
  previous,
  children,
}: TopListProps<R>) {
  return (
    <section aria-label={label} className={cn('min-w-0 border-ink-100 px-5 py-4', className)}>
      <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-ink-500 uppercase">{title}</h3>
      {query.isPending ? (
        <Spinner className="size-4 text-accent-600" />
      ) : query.isError ? (
        <p className="text-sm text-danger-700">{errorMessage(query.error)}</p>
      ) : query.data.items.length === 0 ? (
        <p className="text-sm text-ink-500">{empty}</p>
      ) : (
        <ol className="flex flex-col divide-y divide-ink-50" data-testid={testId}>
          {query.data.items.slice(0, limit).map((row) => (
            <li key={rowKey(row)} data-testid={itemTestId} {...itemData?.(row)} className="flex items-start gap-3 py-2">
              <span className="w-5 shrink-0 pt-0.5 text-right text-xs font-semibold text-ink-400 tabular-nums">{row.rank}</span>
              {children(row)}
              <span className="w-8 shrink-0 pt-0.5 text-right">{previous ? <Change previous={previous(row)} now={row.rank} /> : null}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

type RankingPreviewProps = {
  productId: string;
  rankedAt: string | null;
  /** Ranks before the last re-ranking, to show movements; null before any re-ranking here. */
  before: RankSnapshot | null;
  isRanking: boolean;
  /** The case's state and progress while re-ranking: a queued re-ranking says "In queue". */
  status?: { status: ProductStatus; progress: number };
  limit?: number;
};

/** The case's top diseases and genes (first page of GET /phenotypes and /genes), with rank movements. */
export function RankingPreview({
  productId,
  rankedAt,
  before,
  isRanking,
  status,
  limit = 5,
}: RankingPreviewProps) {
  const diseases = usePhenotypes(productId, rankedAt, 1);
  const genes = useGenes(productId, rankedAt, 1);
  const base = `/my-product/${encodeURIComponent(productId)}`;
  return (
    <Card className="relative overflow-hidden" data-testid="diagnose-ranking" aria-busy={isRanking}>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-ink-100 px-5 py-3.5">
        <div>
          <h2 className="text-sm font-semibold text-ink-900">Current ranking</h2>
          <p className="text-xs text-ink-500">Top diseases and genes for the saved terms.</p>
        </div>
        {isRanking && status && status.status === 'In queue' ? (
          <span role="status" data-testid="diagnose-ranking-status">
            <StatusBadge status="In queue" />
          </span>
        ) : isRanking ? (
          <span
            role="status"
            data-testid="diagnose-ranking-status"
            className="inline-flex items-center gap-1.5 rounded-full bg-sky-50 px-2.5 py-0.5 text-xs font-medium text-sky-700 ring-1 ring-sky-200 ring-inset"
          >
            <Spinner className="size-3" label="Re-ranking" />
            {Messages.processing}
            {status?.status === 'Processing' ? <span className="tabular-nums">{Math.round(status.progress)}%</span> : null}
          </span>
        ) : (
          <Link
            to={`${base}/phenotypes`}
            className="text-xs font-semibold text-accent-700 hover:underline"
          >
            All results →
          </Link>
        )}
      </div>
      <div
        className={cn(
          'grid grid-cols-1 gap-0 transition-opacity md:grid-cols-2',
          isRanking && 'opacity-50',
        )}
      >
        <TopList
          label="Top diseases"
          title="Diseases"
          className="md:border-r"
          query={diseases}
          limit={limit}
          empty="No disease ranked for these terms."
          testId="diagnose-top-diseases"
          itemTestId="diagnose-disease"
          rowKey={(d) => d.id}
          itemData={(d) => ({ 'data-disease-id': d.id })}
          previous={before ? (d) => before.diseases.get(d.id) : null}
        >
          {(d) => (
            <span className="min-w-0 flex-1">
              <Link
                to={`${base}/phenotypes/${encodeURIComponent(d.id)}`}
                className="line-clamp-2 text-sm font-medium text-ink-900 hover:text-accent-700 hover:underline"
              >
                {d.name}
              </Link>
              <span className="mt-1 flex flex-wrap items-center gap-2">
                <ProbabilityBar value={d.probability} />
                <GeneChips productId={productId} genes={d.genes} max={2} />
              </span>
            </span>
          )}
        </TopList>
        <TopList
          label="Top genes"
          title="Genes"
          className="border-t md:border-t-0"
          query={genes}
          limit={limit}
          empty="No gene ranked yet."
          testId="diagnose-top-genes"
          itemTestId="diagnose-gene"
          rowKey={(g) => g.symbol}
          previous={before ? (g) => before.genes.get(g.symbol) : null}
        >
          {(g) => (
            <>
              <span className="min-w-0 flex-1">
                <Link
                  to={`${base}/genes/${encodeURIComponent(g.symbol)}`}
                  className="text-sm font-semibold text-ink-900 italic hover:text-accent-700 hover:underline"
                >
                  {g.symbol}
                </Link>
                <span className="block truncate text-xs text-ink-500">{g.topDisease?.label ?? g.name ?? '—'}</span>
              </span>
              {/* The post-test probability, as on the genes screen; the score for runs ranked before it existed. */}
              <span
                className="shrink-0 pt-0.5 text-xs text-ink-600 tabular-nums"
                data-testid="diagnose-gene-probability"
                title={g.probability !== null ? `Post-test probability (score ${g.score.toFixed(2)})` : 'Combined phenotype and variant score'}
              >
                {g.probability !== null ? formatProbability(g.probability) : g.score.toFixed(2)}
              </span>
            </>
          )}
        </TopList>
      </div>
    </Card>
  );
}
