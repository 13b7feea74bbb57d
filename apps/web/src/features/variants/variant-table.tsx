import type { VariantRow } from '@rarelens/contract';
import { cn } from '../../lib/cn.ts';
import { formatAf } from '../../lib/format.ts';
import { useSearchParamsUpdate } from '../../lib/use-search-params-update.ts';
import { AcmgBadge, ClinvarAssertionBadge, ConsequenceLabel, ReviewerBadge, ZygosityLabel } from './badges.tsx';
import { compoundHetGroups, FamilyGenotypes, InheritanceBadges } from '../family/index.ts';
import { VariantActions } from './variant-actions.tsx';

/** Why a variant has no rank (the ranking only considers candidate variants). */
export const NotRankedHelp =
  'Not ranked: the ranking only considers rare, non-benign variants in genes (common, benign or intergenic variants are listed after the ranked ones).';

/** The search parameter holding the variant whose evidence is open. */
export const VariantParam = 'variant';

/** "4:122,345,678 C>T" (GRCh38, 1-based). */
export function formatLocus(v: Pick<VariantRow, 'chrom' | 'pos' | 'ref' | 'alt'>): string {
  const short = (s: string) => (s.length > 8 ? `${s.slice(0, 6)}…(${s.length})` : s);
  return `${v.chrom}:${v.pos.toLocaleString('en-US')} ${short(v.ref)}>${short(v.alt)}`;
}

/** Opens a variant's evidence drawer by setting ?variant=<id>, keeping the other parameters. */
export function useOpenVariant(): (id: number) => void {
  const [, setParams] = useSearchParamsUpdate();
  return (id) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set(VariantParam, String(id));
      return next;
    });
}

const th =
  'px-3 py-2.5 text-left text-[11px] font-semibold tracking-wide text-ink-500 uppercase whitespace-nowrap';
const td = 'px-3 py-2.5 align-top';

/** Fixed column widths, so the tables of successive gene clusters line up. */
function VariantColumns({ isFamily }: { isFamily: boolean }) {
  return (
    <colgroup>
      <col className="w-10" />
      <col className="w-44" />
      <col />
      <col className="w-36" />
      <col className={isFamily ? 'w-36' : 'w-14'} />
      <col className="w-16" />
      <col className="w-32" />
      <col className="w-20" />
      <col className="w-14" />
    </colgroup>
  );
}

export function VariantTableHead({ isGeneShown = true, isFamily = false }: { isGeneShown?: boolean; isFamily?: boolean }) {
  const headers: Array<[string, string]> = [
    ['#', 'text-right'],
    ['Variant (GRCh38)', ''],
    [isGeneShown ? 'Gene · HGVS' : 'HGVS', ''],
    ['Consequence', ''],
    [isFamily ? 'Genotypes' : 'Zyg.', ''],
    ['Pop. AF', 'text-right'],
    ['ClinVar', ''],
    ['ACMG', ''],
  ];
  return (
    <>
      <VariantColumns isFamily={isFamily} />
      <thead className="bg-ink-50/70">
        <tr>
          {headers.map(([label, align]) => (
            <th key={label} scope="col" className={cn(th, align)}>
              {label}
            </th>
          ))}
          <th scope="col" className={th}>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
    </>
  );
}

/** One variant as a dense table row; the row opens the evidence. */
export function VariantTableRow({
  variant,
  productId,
  isGeneShown = true,
  members,
}: {
  variant: VariantRow;
  productId: string;
  isGeneShown?: boolean;
  /** Family case: the sequenced members, proband first (genotype order). */
  members?: readonly string[];
}) {
  const openVariant = useOpenVariant();
  return (
    <tr
      data-testid="variant-row"
      className="cursor-pointer border-t border-ink-100 text-sm hover:bg-accent-50/40"
      onClick={() => openVariant(variant.id)}
    >
      <td className={cn(td, 'text-right text-xs text-ink-500 tabular-nums')}>
        {variant.rank ?? (
          <span className="text-ink-300" title={NotRankedHelp}>
            –
          </span>
        )}
      </td>
      <td className={td}>
        <button
          type="button"
          className="text-left font-mono text-xs font-medium whitespace-nowrap text-ink-900 hover:text-accent-700 hover:underline"
          onClick={(e) => {
            e.stopPropagation();
            openVariant(variant.id);
          }}
          aria-label={`Open evidence for ${formatLocus(variant)}`}
        >
          {formatLocus(variant)}
        </button>
      </td>
      <td className={cn(td, 'min-w-0')}>
        {isGeneShown ? (
          <p className="text-xs font-semibold text-ink-900 italic">
            {variant.gene ?? 'Intergenic'}
          </p>
        ) : null}
        <p className="truncate font-mono text-xs text-ink-800" title={variant.hgvsC ?? undefined}>
          {variant.hgvsC ?? '—'}
        </p>
        {variant.hgvsP ? (
          <p className="truncate font-mono text-[11px] text-ink-500" title={variant.hgvsP}>
            {variant.hgvsP}
          </p>
        ) : null}
        <InheritanceBadges tags={variant.inheritance} />
      </td>
      <td className={td}>
        <ConsequenceLabel consequence={variant.consequence} impact={variant.impact} />
      </td>
      <td className={td}>
        <ZygosityLabel value={variant.zygosity} />
        {variant.genotypes ? <FamilyGenotypes genotypes={variant.genotypes} order={members} /> : null}
      </td>
      <td className={cn(td, 'text-right font-mono text-xs text-ink-700 tabular-nums')}>
        {variant.af === null ? <span className="text-ink-400">n/a</span> : formatAf(variant.af)}
      </td>
      <td className={td}>
        <ClinvarAssertionBadge assertion={variant.clinvarAssertion} fallback={variant.clinvar} />
      </td>
      <td className={td}>
        <span className="inline-flex flex-col items-start gap-1">
          <AcmgBadge value={variant.acmg} points={variant.acmgPoints} />
          <ReviewerBadge review={variant.reviewerClassification} compact />
        </span>
      </td>
      <td
        className={cn(td, 'px-2 text-right whitespace-nowrap')}
        onClick={(e) => e.stopPropagation()}
      >
        <VariantActions productId={productId} variant={variant} placement="row" />
      </td>
    </tr>
  );
}

/** One variant as a card, for narrow screens. */
export function VariantCard({ variant, productId }: { variant: VariantRow; productId: string }) {
  const openVariant = useOpenVariant();
  return (
    <li
      data-testid="variant-card"
      className="rounded-xl border border-ink-100 bg-white p-3 shadow-card"
    >
      <button
        type="button"
        className="block w-full text-left"
        onClick={() => openVariant(variant.id)}
      >
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="text-sm font-semibold text-ink-900 italic">
              {variant.gene ?? 'Intergenic'}
            </p>
            <p className="truncate font-mono text-xs text-ink-600">{formatLocus(variant)}</p>
          </div>
          <span className="inline-flex flex-col items-end gap-1">
            <AcmgBadge value={variant.acmg} points={variant.acmgPoints} />
            <ReviewerBadge review={variant.reviewerClassification} compact />
          </span>
        </div>
        {variant.hgvsC || variant.hgvsP ? (
          <p className="mt-1.5 truncate font-mono text-xs text-ink-700">
            {[variant.hgvsC, variant.hgvsP].filter(Boolean).join(' · ')}
          </p>
        ) : null}
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
          <ConsequenceLabel consequence={variant.consequence} impact={variant.impact} />
          <ZygosityLabel value={variant.zygosity} />
          <span className="font-mono text-xs text-ink-600">AF {formatAf(variant.af)}</span>
          <ClinvarAssertionBadge assertion={variant.clinvarAssertion} fallback={variant.clinvar} />
        </div>
        <InheritanceBadges tags={variant.inheritance} />
        {variant.genotypes ? <FamilyGenotypes genotypes={variant.genotypes} /> : null}
      </button>
      <div className="mt-2 flex justify-end empty:hidden">
        <VariantActions productId={productId} variant={variant} placement="row" />
      </div>
    </li>
  );
}

/** The rows of a page, compound-heterozygous pairs together, each group in its own <tbody>. */
export function VariantTableBody({
  variants,
  productId,
  isGeneShown = true,
  members,
}: {
  variants: VariantRow[];
  productId: string;
  isGeneShown?: boolean;
  members?: readonly string[];
}) {
  return (
    <>
      {compoundHetGroups(variants).map((group) =>
        group.length > 1 ? (
          <tbody key={group[0]!.id} data-testid="compound-het-pair" className="border-l-4 border-violet-300 bg-violet-50/30">
            <tr>
              <td colSpan={9} className="px-3 pt-2 text-[11px] font-medium text-violet-700">
                Compound heterozygous{group[0]!.gene ? ` in ${group[0]!.gene}` : ''}: {group.length} variants
                {group[0]!.inheritance.includes('segregates') ? ', one from each parent' : ''}
              </td>
            </tr>
            {group.map((v) => (
              <VariantTableRow key={v.id} variant={v} productId={productId} isGeneShown={isGeneShown} members={members} />
            ))}
          </tbody>
        ) : (
          <tbody key={group[0]!.id}>
            <VariantTableRow variant={group[0]!} productId={productId} isGeneShown={isGeneShown} members={members} />
          </tbody>
        ),
      )}
    </>
  );
}

/** A plain list of variants (phenotype and gene details): table on wide screens, cards on narrow. */
export function VariantTable({
  variants,
  productId,
  isGeneShown = true,
}: {
  variants: VariantRow[];
  productId: string;
  isGeneShown?: boolean;
}) {
  if (variants.length === 0)
    return (
      <p className="px-4 py-6 text-center text-sm text-ink-500">
        No variants of this case fall here.
      </p>
    );
  return (
    <>
      <div className="hidden overflow-x-auto lg:block">
        <table className="w-full min-w-[60rem] table-fixed" data-testid="variant-table">
          <VariantTableHead isGeneShown={isGeneShown} isFamily={variants.some((v) => v.genotypes !== null)} />
          <VariantTableBody variants={variants} productId={productId} isGeneShown={isGeneShown} />
        </table>
      </div>
      <ul className="flex flex-col gap-2 p-2 lg:hidden">
        {variants.map((v) => (
          <VariantCard key={v.id} variant={v} productId={productId} />
        ))}
      </ul>
    </>
  );
}
