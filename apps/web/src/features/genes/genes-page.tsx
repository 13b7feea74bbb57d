import { formatGeneScore, type GeneRow, type ProductDetails } from '@rarelens/contract';
import { EmptyState } from '../../components/card.tsx';
import { GeneIcon } from '../../components/icons.tsx';
import { RankedPanel, RankedRowLink, RankedTable } from '../../components/ranked-table.tsx';
import { Tooltip } from '../../components/tooltip.tsx';
import { cn } from '../../lib/cn.ts';
import { ResultsPage } from '../cases/index.ts';
import {
  abbreviateInheritance,
  PROBABILITY_HELP,
  ProbabilityBar,
  ProbabilityLabel,
} from '../phenotypes/index.ts';
import { SignificanceBadge } from '../variants/index.ts';
import { useGenesPage } from './genes.api.ts';
import { GeneScoreLabel } from './gene-score-label.tsx';

export { GeneScoreLabel };

export function genePath(productId: string, symbol: string): string {
  return `/my-product/${encodeURIComponent(productId)}/genes/${encodeURIComponent(symbol)}`;
}

/** The phenotype bar is full at a likelihood ratio of 10^10 (log10 LR 10). */
const FULL_PHENOTYPE_LOG10_LR = 10;

/**
 * A gene's score with its two parts as stacked bars: the log10 likelihood ratio of its
 * best-fitting disease (phenotypeScore, on a 0 to 10^10 scale) and the genotype fit
 * (variantScore, 0 to 1).
 */
export function ScoreBars({
  gene,
}: {
  gene: Pick<GeneRow, 'score' | 'phenotypeScore' | 'variantScore'>;
}) {
  const bar = (fraction: number, tone: string, testId: string) => (
    <div className="h-1.5 w-20 overflow-hidden rounded-full bg-ink-100">
      <div
        data-testid={testId}
        className={cn('h-full rounded-full', tone)}
        style={{ width: `${Math.round(Math.min(1, Math.max(0, fraction)) * 1000) / 10}%` }}
      />
    </div>
  );
  const label =
    `Score ${formatGeneScore(gene.score)} (log10, the sum under Why this rank). ` +
    `Phenotype: likelihood ratio 10^${gene.phenotypeScore.toFixed(1)} for the best-fitting disease (blue bar, full at 10^${FULL_PHENOTYPE_LOG10_LR}). ` +
    `Variant: genotype fit ${gene.variantScore.toFixed(2)} of 1 (orange bar).`;
  return (
    <Tooltip content={label}>
      <div tabIndex={0} role="group" aria-label={label} className="flex items-center gap-2">
        <div className="flex flex-col gap-1">
          {bar(gene.phenotypeScore / FULL_PHENOTYPE_LOG10_LR, 'bg-sky-500', 'phenotype-bar')}
          {bar(gene.variantScore, 'bg-orange-400', 'variant-bar')}
        </div>
        <span className="text-xs font-semibold text-ink-800 tabular-nums" data-testid="gene-score">
          {formatGeneScore(gene.score)}
        </span>
      </div>
    </Tooltip>
  );
}

/** The gene's post-test probability (a bar and a percentage), or a dash for a run ranked before it existed. */
export function GeneProbability({ value }: { value: number | null }) {
  if (value === null)
    return (
      <Tooltip content="Not computed for this analysis: re-rank the case (Diagnose) to get it.">
        <span tabIndex={0} className="text-xs text-ink-400">
          —
        </span>
      </Tooltip>
    );
  return <ProbabilityBar value={value} />;
}

/** How a family's genotypes fit the mode: the part in parentheses of "autosomal dominant (de novo)". */
function familyPattern(label: string): string | null {
  return /\(([^)]+)\)$/.exec(label)?.[1] ?? null;
}

function InheritanceCodes({ values }: { values: string[] }) {
  if (values.length === 0) return <span className="text-xs text-ink-400">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {values.map((v) => (
        <span
          key={v}
          title={v}
          className="rounded bg-ink-50 px-1.5 py-0.5 text-[11px] font-medium text-ink-700 ring-1 ring-ink-100 ring-inset"
        >
          {abbreviateInheritance(v)}
          {familyPattern(v) ? (
            <span className="font-normal text-ink-500"> · {familyPattern(v)}</span>
          ) : null}
        </span>
      ))}
    </span>
  );
}

function GenesTable({ productId, rows }: { productId: string; rows: GeneRow[] }) {
  return (
    <RankedTable
      testId="gene"
      rows={rows}
      rowKey={(g) => g.symbol}
      href={(g) => genePath(productId, g.symbol)}
      cardIsLink
      columns={[
        {
          header: 'Gene',
          cell: (g) => (
            <>
              <RankedRowLink to={genePath(productId, g.symbol)} className="font-semibold text-ink-900 italic hover:text-accent-700 hover:underline">
                {g.symbol}
              </RankedRowLink>
              <p className="max-w-64 truncate text-xs text-ink-500" title={g.name ?? undefined}>
                {g.name ?? g.geneId ?? ''}
              </p>
            </>
          ),
        },
        { header: <GeneScoreLabel />, cell: (g) => <ScoreBars gene={g} /> },
        {
          header: (
            <Tooltip content={PROBABILITY_HELP.gene}>
              <span tabIndex={0}>Probability</span>
            </Tooltip>
          ),
          cell: (g) => (
            <span data-testid="gene-probability">
              <GeneProbability value={g.probability} />
            </span>
          ),
        },
        { header: 'Inheritance', cell: (g) => <InheritanceCodes values={g.inheritance} /> },
        { header: 'Significance', cell: (g) => <SignificanceBadge value={g.significance} /> },
        { header: 'Variants', headerClassName: 'text-right', className: 'px-3 py-3 text-right text-xs text-ink-800 tabular-nums', cell: (g) => g.variantCount },
        {
          header: 'Top disease',
          className: 'max-w-72 px-3 py-3 text-xs text-ink-700',
          cell: (g) =>
            g.topDisease ? (
              <>
                <p className="line-clamp-2">{g.topDisease.label}</p>
                <p className="font-mono text-[11px] text-ink-500">{g.topDisease.id}</p>
              </>
            ) : (
              <span className="text-ink-400">—</span>
            ),
        },
      ]}
      card={(g) => (
        <>
          <p className="text-sm font-semibold text-ink-900 italic">{g.symbol}</p>
          <p className="truncate text-xs text-ink-500">{g.name ?? ''}</p>
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <span className="flex items-center gap-1.5">
              <GeneScoreLabel className="text-[11px] text-ink-500" />
              <ScoreBars gene={g} />
            </span>
            <span className="flex items-center gap-1.5" data-testid="card-probability">
              <ProbabilityLabel kind="gene" />
              <GeneProbability value={g.probability} />
            </span>
            <SignificanceBadge value={g.significance} />
            <span className="text-xs text-ink-600">{g.variantCount} variants</span>
          </div>
          {g.topDisease ? <p className="mt-1.5 truncate text-xs text-ink-600">{g.topDisease.label}</p> : null}
        </>
      )}
    />
  );
}

function GenesPanel({ product }: { product: ProductDetails }) {
  const paged = useGenesPage(product);
  return (
    <RankedPanel
      {...paged}
      loadingLabel="Loading genes"
      empty={
        <EmptyState icon={<GeneIcon />} title="No gene ranked for this case">
          No variant of the case falls in a gene with a known disease association.
        </EmptyState>
      }
    >
      {(data) => (
        <>
          <div className="mb-2 flex flex-wrap items-center justify-between gap-2 text-xs text-ink-500">
            <span>
              {data.total.toLocaleString('en-US')}
              {data.totalIsCapped ? '+' : ''} genes ranked
            </span>
            <span className="flex items-center gap-3">
              <span className="inline-flex items-center gap-1">
                <span className="size-2 rounded-full bg-sky-500" /> phenotype
              </span>
              <span className="inline-flex items-center gap-1">
                <span className="size-2 rounded-full bg-orange-400" /> variant
              </span>
            </span>
          </div>
          <GenesTable productId={product.id} rows={data.items} />
        </>
      )}
    </RankedPanel>
  );
}

/** /my-product/:id/genes: genes ranked by phenotype fit and variant evidence. */
export function GenesPage() {
  return (
    <ResultsPage
      title="Genes"
      description="Genes ranked by how well their diseases fit the patient’s symptoms and how damaging their variants are."
    >
      {(product) => <GenesPanel product={product} />}
    </ResultsPage>
  );
}
