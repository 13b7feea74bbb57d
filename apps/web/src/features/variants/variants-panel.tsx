import {
  AcmgClassName,
  InheritanceFilter,
  VariantMode,
  ZygosityName,
  type ProductDetails,
  type VariantListResponse,
  type VariantRow,
  formatGeneScore,
} from '@rarelens/contract';
import { Link } from 'react-router';
import { Alert, Card, EmptyState } from '../../components/card.tsx';
import { DnaIcon } from '../../components/icons.tsx';
import { getPageCount, Pagination } from '../../components/pagination.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { Tooltip } from '../../components/tooltip.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useSearchParamsUpdate } from '../../lib/use-search-params-update.ts';
import { cn } from '../../lib/cn.ts';
import {
  clinvarValues,
  ClinvarOptions,
  ConsequenceOptions,
  VariantFilterBar,
  type FilterDraft,
} from './variant-filters.tsx';
import { useFamily } from '../family/index.ts';
import { GeneScoreLabel, useGenes } from '../genes/index.ts';
import { VariantCard, VariantTableBody, VariantTableHead } from './variant-table.tsx';
import { useVariants } from './variants.api.ts';

const modes: Array<{ value: VariantMode; label: string; help: string }> = [
  {
    value: 'clustered',
    label: 'Clustered',
    help: 'Variants grouped under their gene, genes in rank order.',
  },
  { value: 'non-clustered', label: 'Non-clustered', help: 'Every variant in rank order.' },
  {
    value: 'filtered',
    label: 'Filtered',
    help: 'The ranking’s candidates only: variants in genes that are rare (AF ≤ 2% or unknown), pass the caller’s filters, and are not benign or likely benign.',
  },
];

const list = (params: URLSearchParams, key: string) =>
  (params.get(key) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Reads the mode, page and filters from the URL (unknown values are dropped, not trusted). */
export function readVariantParams(params: URLSearchParams): {
  mode: VariantMode;
  page: number;
  filters: FilterDraft;
} {
  const mode = VariantMode.safeParse(params.get('mode'));
  const maxAf = Number(params.get('maxAf'));
  const consequences = new Set<string>(ConsequenceOptions);
  const clinvarKeys = new Set(ClinvarOptions.map((o) => o.key));
  return {
    mode: mode.success ? mode.data : 'clustered',
    page: Math.max(1, Number(params.get('vpage') ?? '1') || 1),
    filters: {
      consequence: list(params, 'consequence').filter((c) => consequences.has(c)),
      maxAf: params.get('maxAf') !== null && maxAf >= 0 && maxAf <= 1 ? maxAf : undefined,
      clinvar: list(params, 'clinvar').filter((c) => clinvarKeys.has(c)),
      acmg: list(params, 'acmg').flatMap((a) => {
        const parsed = AcmgClassName.safeParse(a);
        return parsed.success ? [parsed.data] : [];
      }),
      zygosity: list(params, 'zygosity').flatMap((z) => {
        const parsed = ZygosityName.safeParse(z);
        return parsed.success ? [parsed.data] : [];
      }),
      gene: list(params, 'gene'),
      inheritance: list(params, 'inheritance').flatMap((t) => {
        const parsed = InheritanceFilter.safeParse(t);
        return parsed.success ? [parsed.data] : [];
      }),
    },
  };
}

function writeFilters(params: URLSearchParams, filters: FilterDraft): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, values: readonly string[]) =>
    values.length > 0 ? next.set(key, values.join(',')) : next.delete(key);
  set('consequence', filters.consequence);
  set('clinvar', filters.clinvar);
  set('acmg', filters.acmg);
  set('zygosity', filters.zygosity);
  set('gene', filters.gene);
  set('inheritance', filters.inheritance);
  if (filters.maxAf === undefined) next.delete('maxAf');
  else next.set('maxAf', String(filters.maxAf));
  next.delete('vpage');
  return next;
}

function ModeSwitch({
  mode,
  onChange,
}: {
  mode: VariantMode;
  onChange: (mode: VariantMode) => void;
}) {
  return (
    <div
      role="radiogroup"
      aria-label="Display mode"
      className="inline-flex rounded-lg border border-ink-100 bg-ink-50 p-0.5"
    >
      {modes.map((m) => (
        <Tooltip key={m.value} content={m.help}>
          <button
            type="button"
            role="radio"
            aria-checked={mode === m.value}
            onClick={() => onChange(m.value)}
            className={cn(
              'rounded-md px-3 py-1.5 text-xs font-semibold transition-colors',
              mode === m.value
                ? 'bg-white text-ink-900 shadow-sm'
                : 'text-ink-500 hover:text-ink-900',
            )}
          >
            {m.label}
          </button>
        </Tooltip>
      ))}
    </div>
  );
}

function Results({
  data,
  productId,
  members,
}: {
  data: VariantListResponse;
  productId: string;
  members?: readonly string[];
}) {
  if (data.mode === 'clustered') {
    return (
      <div className="flex flex-col gap-3">
        {data.items.map((group) => (
          <Card key={group.gene.symbol} className="overflow-hidden" data-testid="gene-cluster">
            <div className="flex flex-wrap items-center justify-between gap-2 border-b border-ink-100 bg-ink-50/60 px-4 py-2.5">
              <div className="flex items-center gap-2.5">
                {group.gene.rank !== null ? (
                  <span className="flex h-6 min-w-6 items-center justify-center rounded-full bg-ink-900 px-1.5 text-[11px] font-semibold text-white tabular-nums">
                    {group.gene.rank}
                  </span>
                ) : null}
                <Link
                  to={`/my-product/${encodeURIComponent(productId)}/genes/${encodeURIComponent(group.gene.symbol)}`}
                  className="text-sm font-semibold text-ink-900 italic hover:text-accent-700 hover:underline"
                >
                  {group.gene.symbol}
                </Link>
                {group.gene.score !== null ? (
                  <span className="flex items-center gap-1 text-xs text-ink-500 tabular-nums">
                    <GeneScoreLabel /> {formatGeneScore(group.gene.score)}
                  </span>
                ) : null}
              </div>
              <span className="text-xs text-ink-500">
                {group.variantCount} variant{group.variantCount === 1 ? '' : 's'}
                {group.variantCount > group.variants.length
                  ? ` · top ${group.variants.length} shown`
                  : ''}
              </span>
            </div>
            <VariantRows
              variants={group.variants}
              productId={productId}
              members={members}
              inCluster
            />
          </Card>
        ))}
      </div>
    );
  }
  return (
    <VariantRows variants={data.items} productId={productId} members={members} inCluster={false} />
  );
}

/**
 * Variants as a table on wide screens and as cards on narrow ones. In a gene's cluster the
 * table sits in the cluster's card and has no gene column; else it is a card of its own.
 */
function VariantRows({
  variants,
  productId,
  members,
  inCluster,
}: {
  variants: VariantRow[];
  productId: string;
  members?: readonly string[];
  inCluster: boolean;
}) {
  const table = (
    <table
      className={cn('w-full table-fixed', inCluster ? 'min-w-[55rem]' : 'min-w-[60rem]')}
      data-testid={inCluster ? undefined : 'variant-table'}
    >
      <VariantTableHead isGeneShown={!inCluster} isFamily={members !== undefined} />
      <VariantTableBody
        variants={variants}
        productId={productId}
        isGeneShown={!inCluster}
        members={members}
      />
    </table>
  );
  return (
    <>
      {inCluster ? (
        <div className="hidden overflow-x-auto lg:block">{table}</div>
      ) : (
        <Card className="hidden overflow-x-auto lg:block">{table}</Card>
      )}
      <ul className={cn('flex flex-col gap-2 lg:hidden', inCluster && 'p-2')}>
        {variants.map((v) => (
          <VariantCard key={v.id} variant={v} productId={productId} />
        ))}
      </ul>
    </>
  );
}

/**
 * The variant list (Non-clustered, Filtered) ranks variants one by one, the genes screen ranks
 * genes: when the first variant is not in the first gene, say why on screen. A variant of the
 * first gene's best genotype scores the gene's score, except under a one-hit mode (dominant,
 * unknown), where each of the gene's variants also carries its share of the gene's pathogenicity
 * (engine rank-case.ts, VARIANT_SHARE_WEIGHT): that share is the only way another gene's variant
 * can rank above all of the first gene's.
 */
export function RankOrderNote({
  product,
  first,
  onClustered,
}: {
  product: Pick<ProductDetails, 'id' | 'run'>;
  first: VariantRow | undefined;
  onClustered: () => void;
}) {
  const genes = useGenes(product.id, product.run?.rankedAt ?? null, 1);
  const top = genes.data?.items[0];
  if (!first || first.rank !== 1 || !first.gene || !top || top.symbol === first.gene) return null;
  const own = genes.data?.items.find((g) => g.symbol === first.gene);
  return (
    <div data-testid="rank-order-note" className="mb-3">
      <Alert>
        <p className="font-medium text-ink-900">
          Why is the first variant in <span className="italic">{first.gene}</span>
          {own ? ` (gene #${own.rank})` : ''} when <span className="italic">{top.symbol}</span> is
          the first gene?
        </p>
        <p className="mt-1">
          Variants are ranked one by one. <span className="italic">{top.symbol}</span> has{' '}
          {top.variantCount} variants in this case, and when one variant is enough to cause a gene’s
          disease (dominant or unknown inheritance), the gene’s evidence is shared among its
          variants: each of them ranks below a gene’s single variant of similar strength. The gene
          ranking weighs the gene as a whole.{' '}
          <button
            type="button"
            onClick={onClustered}
            className="font-medium text-accent-700 underline hover:text-accent-800"
          >
            Show the variants gene by gene (Clustered)
          </button>
        </p>
      </Alert>
    </div>
  );
}

/** The variant list of a case: Clustered / Non-clustered / Filtered, filters, pagination. */
export function VariantsPanel({ product }: { product: ProductDetails }) {
  const [params, setParams] = useSearchParamsUpdate();
  const { mode, page, filters } = readVariantParams(params);
  const variants = useVariants(product.id, product.run?.rankedAt ?? null, {
    mode,
    page,
    filters: { ...filters, clinvar: clinvarValues(filters.clinvar) },
  });

  const family = useFamily(product.id, product.run?.id ?? null);
  // Family case: the sequenced members, proband first (the genotype order of every row).
  const members =
    family.data && family.data.members.length > 1
      ? family.data.members.filter((m) => m.sequenced).map((m) => m.sample)
      : undefined;
  const setMode = (next: VariantMode) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      p.set('mode', next);
      p.delete('vpage');
      return p;
    });
  const total = variants.data?.total ?? 0;
  const unit = mode === 'clustered' ? 'gene' : 'variant';
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <ModeSwitch mode={mode} onChange={setMode} />
        {variants.data ? (
          <p className="text-xs text-ink-500" data-testid="variant-total">
            {total.toLocaleString('en-US')}
            {variants.data.totalIsCapped ? '+' : ''} {unit}
            {total === 1 ? '' : 's'}
          </p>
        ) : null}
      </div>
      <VariantFilterBar
        applied={filters}
        onApply={(next) => setParams((prev) => writeFilters(prev, next))}
        isFamily={members !== undefined}
      />
      {variants.isPending ? (
        <PageSpinner label="Loading variants" />
      ) : variants.isError ? (
        <Alert tone="error">{errorMessage(variants.error)}</Alert>
      ) : variants.data.items.length === 0 ? (
        <EmptyState icon={<DnaIcon />} title="No variant matches">
          {mode === 'filtered'
            ? 'No rare, non-benign variant that passed the caller’s filters falls in a gene. Try the Non-clustered mode to review every variant.'
            : 'Loosen the filters to see more variants.'}
        </EmptyState>
      ) : (
        <div className={cn(variants.isPlaceholderData && 'opacity-60 transition-opacity')}>
          {variants.data.mode !== 'clustered' && page === 1 ? (
            <RankOrderNote
              product={product}
              first={variants.data.items[0]}
              onClustered={() => setMode('clustered')}
            />
          ) : null}
          <Results data={variants.data} productId={product.id} members={members} />
          <Pagination
            className="mt-4"
            page={page}
            pageCount={getPageCount(total, variants.data.pageSize)}
            onPageChange={(next) =>
              setParams((prev) => {
                const p = new URLSearchParams(prev);
                p.set('vpage', String(next));
                return p;
              })
            }
          />
        </div>
      )}
    </div>
  );
}
