import { Messages, type GeneRow, type PhenotypeRow, type ProductStatus } from '@rarelens/contract';
import { Link } from 'react-router';
import { Card } from '../../components/card.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
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
        <section aria-label="Top diseases" className="min-w-0 border-ink-100 px-5 py-4 md:border-r">
          <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-ink-500 uppercase">
            Diseases
          </h3>
          {diseases.isPending ? (
            <Spinner className="size-4 text-accent-600" />
          ) : diseases.isError ? (
            <p className="text-sm text-danger-700">{errorMessage(diseases.error)}</p>
          ) : diseases.data.items.length === 0 ? (
            <p className="text-sm text-ink-500">No disease ranked for these terms.</p>
          ) : (
            <ol
              className="flex flex-col divide-y divide-ink-50"
              data-testid="diagnose-top-diseases"
            >
              {diseases.data.items.slice(0, limit).map((d) => (
                <li
                  key={d.id}
                  data-testid="diagnose-disease"
                  data-disease-id={d.id}
                  className="flex items-start gap-3 py-2"
                >
                  <span className="w-5 shrink-0 pt-0.5 text-right text-xs font-semibold text-ink-400 tabular-nums">
                    {d.rank}
                  </span>
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
                  <span className="w-8 shrink-0 pt-0.5 text-right">
                    {before ? <Change previous={before.diseases.get(d.id)} now={d.rank} /> : null}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
        <section
          aria-label="Top genes"
          className="min-w-0 border-t border-ink-100 px-5 py-4 md:border-t-0"
        >
          <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-ink-500 uppercase">
            Genes
          </h3>
          {genes.isPending ? (
            <Spinner className="size-4 text-accent-600" />
          ) : genes.isError ? (
            <p className="text-sm text-danger-700">{errorMessage(genes.error)}</p>
          ) : genes.data.items.length === 0 ? (
            <p className="text-sm text-ink-500">No gene ranked yet.</p>
          ) : (
            <ol className="flex flex-col divide-y divide-ink-50" data-testid="diagnose-top-genes">
              {genes.data.items.slice(0, limit).map((g) => (
                <li
                  key={g.symbol}
                  data-testid="diagnose-gene"
                  className="flex items-start gap-3 py-2"
                >
                  <span className="w-5 shrink-0 pt-0.5 text-right text-xs font-semibold text-ink-400 tabular-nums">
                    {g.rank}
                  </span>
                  <span className="min-w-0 flex-1">
                    <Link
                      to={`${base}/genes/${encodeURIComponent(g.symbol)}`}
                      className="text-sm font-semibold text-ink-900 italic hover:text-accent-700 hover:underline"
                    >
                      {g.symbol}
                    </Link>
                    <span className="block truncate text-xs text-ink-500">
                      {g.topDisease?.label ?? g.name ?? '—'}
                    </span>
                  </span>
                  <span
                    className="shrink-0 pt-0.5 text-xs text-ink-600 tabular-nums"
                    title="Combined phenotype and variant score"
                  >
                    {g.score.toFixed(2)}
                  </span>
                  <span className="w-8 shrink-0 pt-0.5 text-right">
                    {before ? <Change previous={before.genes.get(g.symbol)} now={g.rank} /> : null}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </Card>
  );
}
