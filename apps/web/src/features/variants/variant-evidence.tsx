import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { RawDataInfo, VariantDetails } from '@rarelens/contract';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Alert } from '../../components/card.tsx';
import { CloseIcon } from '../../components/icons.tsx';
import { useReturnFocus } from '../../components/dialog.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { Tooltip } from '../../components/tooltip.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { useProduct } from '../cases/index.ts';
import { useSearchParamsUpdate } from '../../lib/use-search-params-update.ts';
import { formatAf, formatClinvar, formatSoTerm } from '../../lib/format.ts';
import { useRawData } from '../raw-data/index.ts';
import { describeCriterion } from './acmg.ts';
import { AcmgBadge, ClinvarAssertionBadge, ClinvarBadge, clinvarMatchLabel, ConsequenceLabel, ReviewerBadge, ReviewStars, zygosityInWords } from './badges.tsx';
import { ReviewerClassificationPanel } from './reviewer-classification.tsx';
import { VariantActions } from './variant-actions.tsx';
import { formatLocus, VariantParam } from './variant-table.tsx';
import { useVariant } from './variants.api.ts';

/** The engine's ranking filters for this variant: each step passed, or failed and why. */
function RankingFilters({ filters }: { filters: VariantDetails['rankingFilters'] }) {
  const failed = filters.filter((f) => !f.passed);
  return (
    <Section title="Ranking filters">
      <p className="mb-2 text-sm text-ink-700" data-testid="ranking-filters-summary">
        {failed.length === 0
          ? 'Passed every ranking filter: this variant drives the gene ranking.'
          : `Filtered out of the gene ranking (${failed.length} of ${filters.length} filters failed); it stays listed.`}
      </p>
      <ul className="space-y-1 text-sm">
        {filters.map((f) => (
          <li key={f.id} className="flex gap-2">
            <span aria-hidden className={f.passed ? 'text-emerald-700' : 'text-rose-700'}>
              {f.passed ? '✓' : '✗'}
            </span>
            <span className={f.passed ? 'text-ink-500' : 'text-ink-900'}>
              <span className="font-medium">{f.id}</span>
              {f.passed ? ' passed' : `: ${f.reason}`}
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

const IgvView = lazy(() => import('./igv-view.tsx').then((m) => ({ default: m.IgvView })));

function Section({
  title,
  children,
  aside,
}: {
  title: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section className="border-t border-ink-100 px-5 py-4 sm:px-6">
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h3 className="text-xs font-semibold tracking-wide text-ink-500 uppercase">{title}</h3>
        {aside}
      </div>
      {children}
    </section>
  );
}

function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-ink-500">{label}</dt>
          <dd className="min-w-0 break-words text-ink-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A fact written as code: HGVS, genotype, the uploaded record. */
function Code({ children }: { children: ReactNode }) {
  return <span className="font-mono text-xs">{children}</span>;
}

const strengthTone = (points: number) =>
  points >= 8
    ? 'bg-red-600 text-white'
    : points >= 4
      ? 'bg-red-100 text-red-800'
      : points >= 2
        ? 'bg-orange-100 text-orange-800'
        : points > 0
          ? 'bg-amber-50 text-amber-800'
          : points <= -4
            ? 'bg-emerald-600 text-white'
            : 'bg-emerald-50 text-emerald-800';

function AcmgCriteria({ variant }: { variant: VariantDetails }) {
  if (variant.acmgCriteria.length === 0) {
    return (
      <p className="text-sm text-ink-500">
        No ACMG/AMP criterion applies with the evidence available; the variant stays of uncertain
        significance.
      </p>
    );
  }
  return (
    <table className="w-full text-sm" data-testid="acmg-criteria">
      <thead>
        <tr className="text-left text-[11px] tracking-wide text-ink-500 uppercase">
          <th className="pr-3 pb-2 font-semibold">Criterion</th>
          <th className="pr-3 pb-2 font-semibold">Strength</th>
          <th className="pb-2 text-right font-semibold">Points</th>
          <th className="pb-2 pl-4 font-semibold">Why it applies</th>
        </tr>
      </thead>
      <tbody>
        {variant.acmgCriteria.map((c) => (
          <tr key={c.code} className="border-t border-ink-100 align-top">
            <td className="py-2 pr-2">
              <Tooltip content={describeCriterion(c.code)}>
                <span
                  tabIndex={0}
                  className={cn(
                    'inline-flex rounded px-1.5 py-0.5 font-mono text-xs font-semibold',
                    strengthTone(c.points),
                  )}
                >
                  {c.code}
                </span>
              </Tooltip>
            </td>
            <td className="py-2 pr-2 text-xs text-ink-700 capitalize">
              {c.strength.replace(/_/g, ' ').toLowerCase()}
            </td>
            <td className="py-2 text-right font-mono text-xs tabular-nums">
              {c.points > 0 ? `+${c.points}` : c.points}
            </td>
            <td className="py-2 pl-4 text-xs text-ink-700">{c.reason}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="border-t border-ink-200">
          <td colSpan={2} className="pt-2 text-xs font-semibold text-ink-700">
            Total
          </td>
          <td className="pt-2 text-right font-mono text-xs font-semibold tabular-nums">
            {variant.acmgPoints}
          </td>
          <td className="pt-2 pl-4">
            <AcmgBadge value={variant.acmg} />
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

function Evidence({
  variant,
  productId,
  sampleName,
  canEdit,
  clinvarCriteria,
  rawData,
}: {
  variant: VariantDetails;
  productId: string;
  sampleName: string;
  canEdit: boolean;
  /** The run's ACMG setting for ClinVar-backed criteria ('on' | 'off'), when recorded. */
  clinvarCriteria: string | undefined;
  /** A FASTQ case's raw data analysis: the browser shows its reads at the variant as called. */
  rawData?: RawDataInfo;
}) {
  const [isIgvOpen, setIsIgvOpen] = useState(true);
  const reads = useMemo(
    () =>
      rawData ? { info: rawData, chrom: variant.input.chrom, pos: variant.input.pos } : undefined,
    [rawData, variant.input.chrom, variant.input.pos],
  );
  const cv = variant.clinvarRecord;
  const assertion = variant.clinvarAssertion;
  const ad = variant.genotype.alleleDepths;
  return (
    <>
      <Section
        title="Classification"
        aside={<span className="text-xs text-ink-500">ACMG/AMP 2015, point-based</span>}
      >
        <AcmgCriteria variant={variant} />
        <p data-testid="clinvar-criteria-setting" className="mt-3 text-xs text-ink-500">
          {clinvarCriteria === 'on'
            ? 'ClinVar-backed criteria (PP5/BP6) are on for this analysis: a ClinVar assertion with review criteria counts as Supporting evidence (retired by ClinGen SVI).'
            : 'ClinVar-backed criteria (PP5/BP6) are off (ClinGen SVI retired them): ClinVar’s assertion is shown beside the class, not counted. PS1/PM5 use ClinVar’s pathogenic missense changes.'}
        </p>
      </Section>

      <Section title="Reviewer classification">
        <ReviewerClassificationPanel productId={productId} variant={variant} canEdit={canEdit} />
      </Section>

      <Section title="ClinVar">
        {cv ? (
          <Facts
            items={[
              ['Significance', <ClinvarBadge key="s" value={cv.significance} />],
              [
                'Review status',
                <span key="r" className="inline-flex items-center gap-2">
                  <ReviewStars stars={cv.stars} />{' '}
                  <span className="text-xs text-ink-500">
                    {cv.stars} of 4 stars
                    {assertion?.reviewStatus ? ` · ${assertion.reviewStatus}` : ''}
                  </span>
                </span>,
              ],
              ['Release', assertion?.release ? `ClinVar ${assertion.release}${assertion.source ? ` · ${assertion.source}` : ''}` : (assertion?.source ?? 'not recorded')],
              [
                'Conditions',
                cv.conditions.length > 0
                  ? cv.conditions.map(formatClinvar).join('; ')
                  : 'not provided',
              ],
              ['Match', assertion ? clinvarMatchLabel(assertion.match) : cv.match === 'exact' ? 'this allele' : formatSoTerm(cv.match)],
              [
                'Record',
                cv.id ? (
                  assertion?.url ? (
                    <a
                      key="l"
                      href={assertion.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="text-accent-700 hover:underline"
                    >
                      {assertion.idType === 'allele' ? `AlleleID ${cv.id}` : `VCV ${cv.id}`}
                    </a>
                  ) : (
                    cv.id
                  )
                ) : (
                  '—'
                ),
              ],
            ]}
          />
        ) : (
          <p className="text-sm text-ink-500">
            No ClinVar record for this allele in the knowledge base.
          </p>
        )}
      </Section>

      <Section title="Population frequency">
        {variant.frequencies.length > 0 ? (
          <table className="w-full max-w-md text-sm">
            <tbody>
              {variant.frequencies.map((f) => (
                <tr key={f.source} className="border-t border-ink-100 first:border-t-0">
                  <td className="py-1.5 text-ink-600">{f.source}</td>
                  <td className="py-1.5 text-right font-mono text-xs tabular-nums">
                    {formatAf(f.af)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="text-sm text-ink-500" data-testid="af-not-available">
            Population frequency:{' '}
            <strong className="font-medium text-ink-700">not available</strong>
            {variant.af === null
              ? ' — neither the uploaded file nor the knowledge base provides one for this allele.'
              : ` (AF ${formatAf(variant.af)}${variant.afSource ? `, ${variant.afSource}` : ''})`}
          </p>
        )}
      </Section>

      <Section title="Transcript and consequence">
        <Facts
          items={[
            [
              'Transcript',
              <span key="t" className="inline-flex flex-wrap items-center gap-2 font-mono text-xs">
                {variant.transcript ?? '—'}
                {variant.isManeSelect ? (
                  <span className="rounded bg-ink-900 px-1.5 py-0.5 font-sans text-[10px] font-semibold text-white">
                    MANE Select
                  </span>
                ) : null}
              </span>,
            ],
            ['HGVS c.', <Code key="c">{variant.hgvsC ?? '—'}</Code>],
            ['HGVS p.', <Code key="p">{variant.hgvsP ?? '—'}</Code>],
            [
              'Consequence',
              <ConsequenceLabel
                key="q"
                consequence={variant.consequence}
                impact={variant.impact}
              />,
            ],
            ...(variant.codingOutcome.length > 0
              ? [
                  [
                    'Expected codon outcome',
                    <span key="o" data-testid="coding-outcome">
                      {variant.codingOutcome.map((o) => `${formatSoTerm(o.term)} P = ${o.p.toFixed(2)}`).join(' · ')}
                      <span className="text-ink-500"> (codon not known without the reference sequence)</span>
                    </span>,
                  ] satisfies [string, ReactNode],
                ]
              : []),
            [
              'All consequences',
              variant.consequences.length > 0
                ? variant.consequences.map(formatSoTerm).join(', ')
                : '—',
            ],
            [
              'Gene',
              variant.gene ? `${variant.gene}${variant.hgncId ? ` (${variant.hgncId})` : ''}` : '—',
            ],
          ]}
        />
      </Section>

      <Section title="Genotype and call">
        <Facts
          items={[
            ['Genotype', <Code key="g">{variant.genotype.gt}</Code>],
            ['Zygosity', zygosityInWords(variant.genotype.zygosity, variant.genotype.heteroplasmy)],
            ['Read depth', variant.genotype.depth ?? 'not reported'],
            ['Allele depths', ad ? ad.join(' / ') : 'not reported'],
            ['Genotype quality', variant.genotype.genotypeQuality ?? 'not reported'],
            ['QUAL', variant.qual ?? 'not reported'],
            ['FILTER', variant.filter.length > 0 ? variant.filter.join(', ') : 'PASS'],
            [
              'As uploaded',
              <Code key="i">
                {variant.input.chrom}:{variant.input.pos} {variant.input.ref}&gt;{variant.input.alt}{' '}
                ({variant.inputAssembly}, line {variant.input.line})
              </Code>,
            ],
          ]}
        />
      </Section>

      <RankingFilters filters={variant.rankingFilters} />

      <Section
        title="Genome browser"
        aside={
          <button
            type="button"
            className="text-xs font-medium text-accent-700 hover:underline"
            onClick={() => setIsIgvOpen((v) => !v)}
          >
            {isIgvOpen ? 'Hide' : 'Show'}
          </button>
        }
      >
        {isIgvOpen ? (
          <Suspense
            fallback={
              <div className="flex h-40 items-center justify-center gap-2 text-sm text-ink-500">
                <Spinner className="size-4" /> Loading the genome browser…
              </div>
            }
          >
            <IgvView
              productId={productId}
              chrom={variant.chrom}
              pos={variant.pos}
              sampleName={sampleName}
              reads={reads}
            />
          </Suspense>
        ) : null}
      </Section>
    </>
  );
}

/**
 * The evidence of the variant named by ?variant=<id>: ACMG criteria, ClinVar, frequencies,
 * HGVS, genotype and an igv.js view. Rendered once per page that lists variants.
 */
/**
 * The automatic ACMG class in the drawer's header, labelled like the ClinVar and reviewer
 * classes beside it: once a reviewer has classified the variant, an unlabelled "Uncertain
 * significance" next to "Reviewer: Pathogenic" read as the variant's class.
 */
function HeaderAcmgClass({ variant }: { variant: Pick<VariantDetails, 'acmg' | 'acmgPoints' | 'reviewerClassification'> }) {
  return (
    <span data-testid="header-acmg" className="inline-flex items-center gap-1.5 text-xs text-ink-600">
      {variant.reviewerClassification ? 'Automatic ACMG' : 'ACMG'}
      <AcmgBadge value={variant.acmg} points={variant.acmgPoints} size="lg" />
    </span>
  );
}

export function VariantEvidenceDrawer({ productId }: { productId: string }) {
  const [params, setParams] = useSearchParamsUpdate();
  const raw = params.get(VariantParam);
  const variantId = raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  const variant = useVariant(productId, variantId);
  const product = useProduct(productId);
  const returnFocus = useReturnFocus();
  const rawData = useRawData(
    productId,
    product.data?.run?.id ?? null,
    product.data?.genomeFormat === 'fastq',
  );

  function close() {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.delete(VariantParam);
      return next;
    });
  }

  return (
    <DialogPrimitive.Root
      open={variantId !== null}
      onOpenChange={(open) => (open ? undefined : close())}
    >
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink-950/40 animate-fade-in" />
        <DialogPrimitive.Content
          {...returnFocus}
          data-testid="variant-evidence"
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-4xl flex-col bg-white shadow-2xl animate-sheet-in"
          aria-describedby={undefined}
        >
          <header className="flex items-start justify-between gap-4 border-b border-ink-100 px-5 py-4 sm:px-6">
            <div className="min-w-0">
              <p className="text-[11px] font-semibold tracking-wide text-ink-500 uppercase">
                Variant evidence
              </p>
              <DialogPrimitive.Title className="mt-0.5 text-lg font-semibold break-words text-ink-900">
                {variant.data ? (
                  <>
                    <span className="italic">{variant.data.gene ?? 'Intergenic'}</span>{' '}
                    <span className="font-mono text-base font-medium">
                      {variant.data.hgvsP ?? variant.data.hgvsC ?? ''}
                    </span>
                  </>
                ) : (
                  'Loading variant'
                )}
              </DialogPrimitive.Title>
              {variant.data ? (
                <p className="mt-0.5 font-mono text-xs text-ink-500">
                  {formatLocus(variant.data)} ·{' '}
                  {variant.data.rank === null ? 'not ranked' : `rank ${variant.data.rank}`}
                </p>
              ) : null}
              {variant.data ? (
                <div className="mt-2 sm:hidden">
                  <HeaderAcmgClass variant={variant.data} />
                </div>
              ) : null}
              {variant.data ? (
                <div data-testid="evidence-classes" className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-600">
                  <span className="inline-flex items-center gap-1.5">
                    ClinVar <ClinvarAssertionBadge assertion={variant.data.clinvarAssertion} fallback={variant.data.clinvar} detailed />
                  </span>
                  <ReviewerBadge review={variant.data.reviewerClassification} />
                </div>
              ) : null}
            </div>
            <div className="flex shrink-0 items-center gap-2">
              {variant.data ? (
                <span className="hidden sm:inline-flex">
                  <HeaderAcmgClass variant={variant.data} />
                </span>
              ) : null}
              <DialogPrimitive.Close
                className="rounded-md p-1.5 text-ink-500 hover:bg-ink-50 hover:text-ink-900"
                aria-label="Close evidence"
              >
                <CloseIcon className="size-5" />
              </DialogPrimitive.Close>
            </div>
          </header>
          <div className="min-h-0 flex-1 overflow-y-auto">
            {variant.isPending && variantId !== null ? (
              <div className="flex h-60 items-center justify-center text-accent-600">
                <Spinner className="size-6" />
              </div>
            ) : variant.isError ? (
              <div className="p-6">
                <Alert tone="error">{errorMessage(variant.error)}</Alert>
              </div>
            ) : variant.data ? (
              <>
                <div className="flex flex-wrap items-center gap-2 px-5 py-3 sm:px-6 empty:hidden">
                  <VariantActions
                    productId={productId}
                    variant={variant.data}
                    placement="evidence"
                  />
                </div>
                <Evidence
                  variant={variant.data}
                  productId={productId}
                  sampleName={product.data?.caseId ?? 'Patient'}
                  canEdit={product.data?.isOwner === true}
                  clinvarCriteria={product.data?.run?.kbVersions.acmgClinvarCriteria}
                  rawData={rawData.data}
                />
              </>
            ) : null}
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
