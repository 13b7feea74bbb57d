import { Messages, type PhenotypeRow, type SharedProductResponse } from '@rarelens/contract';
import { Link, Navigate, useParams } from 'react-router';
import { Button } from '../../components/button.tsx';
import { Alert, EmptyState, PageHeader } from '../../components/card.tsx';
import { TableCard } from '../../components/table-card.tsx';
import { ShareIcon, StethoscopeIcon } from '../../components/icons.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { useSession } from '../../lib/session.tsx';
import { formatDate } from '../../lib/format.ts';
import { countMatched, InheritanceList, ProbabilityBar, RankedDiseaseName } from '../phenotypes/index.ts';
import { SignificanceBadge } from '../variants/index.ts';
import { useSharedProduct } from './sharing.api.ts';

/** A dead link (unknown, expired or unshared): the shared-product check fails. */
function DeadLink() {
  useDocumentTitle('Link not available');
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center" data-testid="shared-link-dead">
      <h1 className="text-2xl font-semibold tracking-tight text-ink-900">This link is not available</h1>
      <p className="mt-3 text-base text-ink-500">
        The link has expired or the owner unshared the case. Ask them to share it with you again.
      </p>
      <Button asChild size="lg" className="mt-8">
        <Link to="/">Take me home</Link>
      </Button>
    </section>
  );
}

/** Most genes shown by name; the rest counted (all named in the tooltip), so a disease with 50 genes keeps its row short. */
const SHOWN_GENES = 8;

function GeneNames({ genes }: { genes: string[] }) {
  if (genes.length === 0) return <span className="text-xs text-ink-400">—</span>;
  const more = genes.length - SHOWN_GENES;
  return (
    <span className="text-xs font-semibold text-ink-800 italic" title={more > 0 ? genes.join(', ') : undefined}>
      {genes.slice(0, SHOWN_GENES).join(', ')}
      {more > 0 ? <span className="font-normal text-ink-500 not-italic"> and {more} more</span> : null}
    </span>
  );
}

/** The ranked phenotypes, read only: no link into the case (the holder has no account on it). */
function SharedPhenotypes({ rows, termCount }: { rows: PhenotypeRow[]; termCount: number }) {
  if (rows.length === 0) {
    return (
      <EmptyState icon={<StethoscopeIcon />} title="No disease ranked for this case">
        The case has no ranked phenotype yet.
      </EmptyState>
    );
  }
  return (
    <TableCard
      testId="shared-phenotype-table"
      padding="px-3"
      headers={[
        { label: 'Rank', className: 'w-12 text-right' },
        'Disease',
        ...['Inheritance', 'Probability', 'Significance', 'Symptoms', 'Genes'].map((label) => ({ label, className: 'hidden sm:table-cell' })),
      ]}
    >
      {rows.map((row) => (
        <tr key={row.id} data-testid="shared-phenotype-row" className="border-t border-ink-100 align-top">
          <td className="px-3 py-3 text-right text-xs font-semibold text-ink-500 tabular-nums">{row.rank}</td>
          <td className="max-w-md px-3 py-3">
            <RankedDiseaseName row={row} name={<p className="font-medium text-ink-900">{row.name}</p>} />
            {/* At phone width the other columns are hidden: their content under the name, no sideways scrolling. */}
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-xs sm:hidden" data-testid="shared-phenotype-summary">
              <dt className="text-ink-500">Inheritance</dt>
              <dd><InheritanceList terms={row.inheritance} /></dd>
              <dt className="text-ink-500">Probability</dt>
              <dd><ProbabilityBar value={row.probability} /></dd>
              <dt className="text-ink-500">Significance</dt>
              <dd><SignificanceBadge value={row.significance} /></dd>
              <dt className="text-ink-500">Symptoms</dt>
              <dd className="tabular-nums"><strong>{countMatched(row.matchedTerms)}</strong><span className="text-ink-400"> / {termCount}</span></dd>
              <dt className="text-ink-500">Genes</dt>
              <dd><GeneNames genes={row.genes} /></dd>
            </dl>
          </td>
          <td className="hidden px-3 py-3 sm:table-cell"><InheritanceList terms={row.inheritance} /></td>
          <td className="hidden px-3 py-3 sm:table-cell"><ProbabilityBar value={row.probability} /></td>
          <td className="hidden px-3 py-3 sm:table-cell"><SignificanceBadge value={row.significance} /></td>
          <td className="hidden px-3 py-3 text-xs tabular-nums sm:table-cell">
            <strong>{countMatched(row.matchedTerms)}</strong>
            <span className="text-ink-400"> / {termCount}</span>
          </td>
          <td className="hidden px-3 py-3 sm:table-cell"><GeneNames genes={row.genes} /></td>
        </tr>
      ))}
    </TableCard>
  );
}

function SharedProductView({ shared }: { shared: SharedProductResponse }) {
  const { product } = shared;
  useDocumentTitle(`Shared case ${product.caseId}`);
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageHeader
        title={`Case ${product.caseId}`}
        description={`Phenotypes shared by ${product.sharedByName ? `${product.sharedByName} (${product.sharedBy})` : product.sharedBy} with ${product.sharedWith}. Read only; the link works until ${formatDate(product.expiresAt)}.`}
      />
      <Alert className="mb-5">
        <span className="inline-flex items-center gap-1.5">
          <ShareIcon className="size-4" /> You are reading a shared case without signing in. Nothing can be changed from here.
        </span>
      </Alert>
      {product.hpoTerms.length === 0 ? (
        <p
          role="alert"
          data-testid="no-terms-notice"
          className="mb-5 rounded-xl border border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900"
        >
          {Messages.noHpoTerms}
        </p>
      ) : null}
      <div className="mb-5 flex flex-wrap gap-1.5" aria-label="Patient terms">
        {product.hpoTerms.map((t) => (
          <span key={t.id} className="rounded-md bg-ink-50 px-2 py-1 text-xs text-ink-800 ring-1 ring-ink-200" title={t.id}>
            {t.label}
          </span>
        ))}
      </div>
      {product.status === 'Completed' ? (
        <SharedPhenotypes rows={shared.phenotypes} termCount={product.hpoTerms.length} />
      ) : (
        <Alert>The analysis of this case is not finished ({product.status}).</Alert>
      )}
    </div>
  );
}

/**
 * /shared/{token} (§2): no login required, guarded by the shared-product check (the link must
 * be live). A signed-in owner or recipient is taken to the case itself.
 */
export function SharedProductPage() {
  const { token = '' } = useParams();
  const session = useSession();
  const shared = useSharedProduct(token);
  if (shared.isPending || session.status === 'loading') return <PageSpinner label="Opening the shared case" />;
  if (shared.isError) {
    return shared.error instanceof ApiError && (shared.error.status === 404 || shared.error.status === 400) ? (
      <DeadLink />
    ) : (
      <div className="mx-auto max-w-xl px-4 py-16">
        <Alert tone="error">{errorMessage(shared.error)}</Alert>
      </div>
    );
  }
  const email = session.user?.email.toLowerCase();
  const { product } = shared.data;
  if (email !== undefined && (email === product.sharedWith || email === product.sharedBy.toLowerCase())) {
    return <Navigate to={`/my-product/${encodeURIComponent(product.id)}/phenotypes`} replace />;
  }
  return <SharedProductView shared={shared.data} />;
}

/** /shared without a token (§2: signed-out only): where the e-mailed links point. */
export function SharedIndexPage() {
  useDocumentTitle('Shared phenotypes');
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <h1 className="text-2xl font-semibold tracking-tight text-ink-900">Shared phenotypes</h1>
      <p className="mt-3 text-base text-ink-500">Open the link from the e-mail you received to read the phenotypes shared with you.</p>
    </section>
  );
}
