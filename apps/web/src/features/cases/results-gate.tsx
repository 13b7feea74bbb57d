import { Messages, type ProductDetails } from '@rarelens/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/button.tsx';
import { Alert, Card, EmptyState } from '../../components/card.tsx';
import { AlertIcon, ClockIcon } from '../../components/icons.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { isInProgress, useProduct } from './cases.api.ts';
import { FailedCaseActions } from './failed-case-actions.tsx';
import { CaseProgress, StatusBadge } from './status-badge.tsx';

/**
 * Renders a results page only once the case's analysis has completed; until then it shows the
 * state ("In queue", "Processing..." with progress, "An error occurred" with the reason) and
 * keeps polling.
 */
export function ResultsGate({
  productId,
  children,
}: {
  productId: string;
  children: (product: ProductDetails) => ReactNode;
}) {
  const product = useProduct(productId);
  if (product.isPending) return <PageSpinner label="Loading case" />;
  if (product.isError) return <Alert tone="error">{errorMessage(product.error)}</Alert>;
  const p = product.data;
  if (p.status === 'Completed') return <>{children(p)}</>;
  // Re-ranking after an edit of the HPO terms: the previous results stay readable meanwhile.
  if (isInProgress(p.status) && p.run?.rankedAt) {
    return (
      <>
        <div
          role="status"
          className="mb-4 flex items-center gap-3 rounded-xl border border-sky-200 bg-sky-50 px-4 py-2.5 text-sm text-sky-800"
        >
          <StatusBadge
            status={p.status}
            progress={p.status === 'Processing' ? p.progress : undefined}
          />
          <span>
            The case is being re-ranked with its updated terms; these results refresh when it
            completes.
          </span>
        </div>
        {children(p)}
      </>
    );
  }
  if (p.status === 'Error') {
    return (
      <EmptyState
        icon={<AlertIcon />}
        title={Messages.productError}
        action={
          <div className="flex flex-wrap items-center justify-center gap-2">
            <FailedCaseActions product={p} afterDelete="/home" />
            <Button asChild variant="outline">
              <Link to="/home">Back to cases</Link>
            </Button>
          </div>
        }
      >
        <span data-testid="case-error-reason">
          {p.error?.reason ?? 'The analysis stopped without a reason.'}
        </span>
      </EmptyState>
    );
  }
  return (
    <Card className="mx-auto max-w-lg p-8 text-center">
      <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-xl bg-ink-50 text-2xl text-accent-600">
        <ClockIcon />
      </div>
      <h2 className="text-base font-semibold text-ink-900">
        {p.status === 'Processing' ? 'The analysis is running' : 'The case is queued'}
      </h2>
      <div className="mt-3 flex justify-center">
        <StatusBadge
          status={p.status}
          progress={p.status === 'Processing' ? p.progress : undefined}
        />
      </div>
      <CaseProgress product={p} barClassName="mx-auto mt-4 max-w-xs" stageClassName="mt-2" />
      <p className="mt-4 text-sm text-ink-500">
        Results appear here as soon as they are ready; this page refreshes by itself.
      </p>
    </Card>
  );
}

/**
 * Says that a case has no HPO terms (ranked on its variants alone) or that its terms were read
 * from the symptoms by PhenomeAI; nothing when the user gave the terms.
 */
export function TermsNotice({ product, linkToDiagnose = true }: { product: ProductDetails; linkToDiagnose?: boolean }) {
  if (product.hpoTerms.length === 0) {
    return (
      <div
        role="alert"
        data-testid="no-terms-notice"
        className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900"
      >
        <span>{Messages.noHpoTerms}</span>
        {product.isOwner && linkToDiagnose ? (
          <Link
            to={`/my-product/${encodeURIComponent(product.id)}/diagnose`}
            className="font-medium text-amber-900 underline underline-offset-2"
          >
            Add terms in Diagnose
          </Link>
        ) : null}
      </div>
    );
  }
  if (product.hpoTermsSource === 'phenome') {
    return (
      <p data-testid="phenome-terms-notice" className="mb-3 text-xs text-ink-500">
        {Messages.hpoTermsFromPhenome}
      </p>
    );
  }
  return null;
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-GB')} ${word}${n === 1 ? '' : 's'}`;

/** Why an allele failed the liftover (run counts 'liftFailed.<reason>'), in words. */
const LIFT_FAILURE_WORDS: Record<string, string> = {
  unmapped:
    'at a position the chain leaves unaligned (deleted in the target assembly, or a base where the two sequences differ, as at the hg19 chrM bases that differ from the rCRS)',
  crosses_chain_gap: 'spanning a gap of the chain',
  unknown_contig: 'on a contig the chain does not have',
  breakend_not_liftable: 'breakends that name a mate position',
  invalid_position: 'with a position that is not valid',
};

/** The lift failures of a run by reason ("2 at a position …; 1 on a contig …"), or null for a run stored without them. */
function liftFailureReasons(counts: Record<string, number>): string | null {
  const parts = Object.entries(counts)
    .filter(([k, n]) => k.startsWith('liftFailed.') && n > 0)
    .map(([k, n]) => `${n.toLocaleString('en-GB')} ${LIFT_FAILURE_WORDS[k.slice('liftFailed.'.length)] ?? k.slice('liftFailed.'.length).replace(/_/g, ' ')}`);
  return parts.length ? parts.join('; ') : null;
}

/**
 * Says when no variant drives the ranking (every disease then shows "No reportable variant")
 * and when called records were dropped at the liftover; nothing for a run without counts.
 */
export function GenotypeNotice({ product }: { product: ProductDetails }) {
  const run = product.run;
  if (!run) return null;
  const { records, liftFailed, variantsStored, rankCandidates } = run.counts;
  const reasons = liftFailureReasons(run.counts);
  return (
    <>
      {rankCandidates === 0 ? (
        <p
          data-testid="no-candidates-notice"
          className="mb-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900"
        >
          No variant of this case is a ranking candidate (in a gene, carried, passing the caller’s
          filter, rare, not benign, protein-altering or pathogenic in ClinVar): the diseases are
          ranked on the phenotype alone, so none has a reportable variant.{' '}
          {variantsStored
            ? `${plural(variantsStored, 'variant')} annotated and listed under Variants.`
            : 'No variant was annotated.'}
        </p>
      ) : null}
      {liftFailed && records ? (
        <p data-testid="lift-failed-notice" className="mb-3 text-xs text-ink-500">
          {liftFailed.toLocaleString('en-GB')} of {plural(records, 'called record')} could not be
          lifted from {run.inputAssembly} to {run.assembly} and were not analysed
          {reasons ? `: ${reasons}.` : ' (their contig or position has no counterpart in the UCSC liftOver chain).'}
        </p>
      ) : null}
    </>
  );
}

/**
 * The case's terms and analysis provenance, above the results. `linkToDiagnose` false on the
 * Diagnose page itself, where the terms are edited.
 */
export function CaseSummary({ product, linkToDiagnose = true }: { product: ProductDetails; linkToDiagnose?: boolean }) {
  const kb = product.run?.kbVersions ?? {};
  return (
    <>
      <TermsNotice product={product} linkToDiagnose={linkToDiagnose} />
      <GenotypeNotice product={product} />
      <div className="mb-5 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-xl border border-ink-100 bg-white px-4 py-2.5 text-xs text-ink-600 shadow-card sm:gap-x-5 sm:py-3">
        <span>
          <span className="text-ink-400">Case</span>{' '}
          <strong className="font-semibold text-ink-900">{product.caseId}</strong>
        </span>
        <span className="capitalize">
          <span className="text-ink-400 normal-case">Sex</span> {product.gender}
        </span>
        <span>
          <span className="text-ink-400">Assembly</span>{' '}
          {product.assembly ?? product.assemblyRequested}
          {product.run && product.run.inputAssembly !== product.run.assembly
            ? ` → ${product.run.assembly} (lifted)`
            : ''}
        </span>
        <span>
          <span className="text-ink-400">HPO terms</span> {product.hpoTerms.length}
          {product.excludedTerms.length > 0 ? ` (+${product.excludedTerms.length} excluded)` : ''}
        </span>
        {Object.keys(kb).length > 0 ? (
          <span
            data-testid="kb-versions"
            className="md:ml-auto"
            title={Object.entries(kb)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}
          >
            <span className="text-ink-400">Knowledge base</span>{' '}
            {Object.entries(kb)
              .slice(0, 3)
              .map(([k, v]) => `${k} ${v}`)
              .join(' · ')}
          </span>
        ) : null}
      </div>
    </>
  );
}
