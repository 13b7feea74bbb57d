import { Messages, type ProductSummary } from '@rarelens/contract';
import { Link } from 'react-router';
import { Button } from '../../components/button.tsx';
import { Alert, Card, EmptyState, PageHeader } from '../../components/card.tsx';
import { ChevronRightIcon, DnaIcon, ShareIcon, UploadIcon } from '../../components/icons.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { useSession } from '../../lib/session.tsx';
import { isInProgress, useProducts } from './cases.api.ts';
import { ShareCaseButton } from '../sharing/index.ts';
import { DeleteCaseAction, FailedCaseActions } from './failed-case-actions.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { CaseProgress, ErrorReason, RawDataBadge, StatusBadge } from './status-badge.tsx';

/** The owner shares a completed case from its row too (the case menu, issue 18), as from its phenotypes. */
function ShareAction({ product }: { product: ProductSummary }) {
  if (!product.isOwner || product.status !== 'Completed') return null;
  return <ShareCaseButton productId={product.id} caseName={product.name} />;
}

/** Where a case row leads: its results once completed. */
function caseLink(product: ProductSummary): string | null {
  return product.status === 'Completed'
    ? `/my-product/${encodeURIComponent(product.id)}/phenotypes`
    : null;
}

/** A case ranked without any HPO term says so in the list. */
function NoTermsLabel({ product }: { product: ProductSummary }) {
  if (product.hpoTermCount > 0) return null;
  return (
    <p
      data-testid="no-terms-label"
      title={Messages.noHpoTerms}
      className="mt-1.5 inline-flex rounded-md bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200"
    >
      {Messages.noHpoTermsShort}
    </p>
  );
}

/** Who shared a case with the caller: "Ada Lovelace (ada@lab.org)", the address alone when the owner gave no name. */
function sharerText(product: ProductSummary): string {
  if (!product.sharedBy) return 'another user';
  return product.sharedByName ? `${product.sharedByName} (${product.sharedBy})` : product.sharedBy;
}

function OwnerLabel({ product }: { product: ProductSummary }) {
  if (!product.isOwner) {
    return (
      <span className="inline-flex items-center gap-1 text-xs text-ink-500">
        <ShareIcon className="size-3.5" /> Shared by {sharerText(product)}
      </span>
    );
  }
  if (product.isShared) {
    return (
      <span className="inline-flex items-center gap-1 text-xs text-ink-500">
        <ShareIcon className="size-3.5" /> Shared
      </span>
    );
  }
  return <span className="text-xs text-ink-400">Private</span>;
}

function CaseName({ product }: { product: ProductSummary }) {
  const to = caseLink(product);
  const name = <span className="font-semibold text-ink-900">{product.name}</span>;
  return to ? (
    <Link to={to} className="hover:underline">
      {name}
    </Link>
  ) : (
    name
  );
}

/** One row of the cases table (large screens). */
function CaseRow({ product }: { product: ProductSummary }) {
  const to = caseLink(product);
  return (
    <tr
      data-testid="case-row"
      data-case-id={product.caseId}
      className="group border-t border-ink-100 align-top hover:bg-ink-50/60"
    >
      <td className="px-5 py-4">
        <CaseName product={product} />
        {product.rawDataAnalysis ? <RawDataBadge className="ml-2" /> : null}
        {product.name !== product.caseId ? (
          <p className="text-xs text-ink-500">Case ID {product.caseId}</p>
        ) : null}
        <NoTermsLabel product={product} />
      </td>
      <td className="px-5 py-4">
        <StatusBadge
          status={product.status}
          progress={product.status === 'Processing' ? product.progress : undefined}
        />
        <CaseProgress product={product} barClassName="mt-2 max-w-40" />
        {product.status === 'Error' ? <ErrorReason error={product.error} /> : null}
      </td>
      <td className="px-5 py-4 text-sm text-ink-600">
        <time dateTime={product.createdAt} title={formatDateTime(product.createdAt)}>
          {formatDate(product.createdAt)}
        </time>
      </td>
      <td className="px-5 py-4">
        <OwnerLabel product={product} />
      </td>
      <td className="px-5 py-4 text-right">
        <div className="inline-flex flex-wrap justify-end gap-2">
          <ShareAction product={product} />
          {to ? (
            <Button asChild variant="outline" size="sm">
              <Link to={to} aria-label={`Open results of ${product.name}`}>
                Open results <ChevronRightIcon className="size-4" />
              </Link>
            </Button>
          ) : null}
          {product.status === 'Completed' ? <DeleteCaseAction product={product} /> : null}
        </div>
        {product.status === 'Error' ? <FailedCaseActions product={product} className="justify-end" /> : null}
      </td>
    </tr>
  );
}

/** One case as a card (small screens). */
function CaseCard({ product }: { product: ProductSummary }) {
  const to = caseLink(product);
  return (
    <li
      data-testid="case-card"
      className="rounded-xl border border-ink-100 bg-white p-4 shadow-card"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate">
            <CaseName product={product} />
          </p>
          {product.rawDataAnalysis ? <RawDataBadge className="mt-1" /> : null}
          <p className="mt-0.5 text-xs text-ink-500">Created {formatDate(product.createdAt)}</p>
          <NoTermsLabel product={product} />
        </div>
        <StatusBadge
          status={product.status}
          progress={product.status === 'Processing' ? product.progress : undefined}
        />
      </div>
      <CaseProgress product={product} barClassName="mt-3" />
      {product.status === 'Error' ? <ErrorReason error={product.error} /> : null}
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <OwnerLabel product={product} />
        <ShareAction product={product} />
        {to ? (
          <Button asChild variant="outline" size="sm">
            <Link to={to}>
              Open results <ChevronRightIcon className="size-4" />
            </Link>
          </Button>
        ) : null}
        {product.status === 'Error' ? <FailedCaseActions product={product} /> : null}
        {product.status === 'Completed' ? <DeleteCaseAction product={product} /> : null}
      </div>
    </li>
  );
}

function CasesSection({
  title,
  description,
  products,
}: {
  title: string;
  description: string;
  products: ProductSummary[];
}) {
  return (
    <section aria-label={title} className="mb-8">
      <div className="mb-3 flex items-baseline justify-between">
        <h2 className="text-sm font-semibold tracking-wide text-ink-500 uppercase">{title}</h2>
        <p className="text-xs text-ink-400">{description}</p>
      </div>
      <Card className="hidden overflow-hidden md:block">
        <table className="w-full text-left">
          <thead className="bg-ink-50/70 text-xs font-medium tracking-wide text-ink-500 uppercase">
            <tr>
              {['Case', 'Status', 'Created', 'Sharing'].map((header) => (
                <th key={header} scope="col" className="px-5 py-3">
                  {header}
                </th>
              ))}
              <th scope="col" className="px-5 py-3">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {products.map((product) => (
              <CaseRow key={product.id} product={product} />
            ))}
          </tbody>
        </table>
      </Card>
      <ul className="flex flex-col gap-3 md:hidden">
        {products.map((product) => (
          <CaseCard key={product.id} product={product} />
        ))}
      </ul>
    </section>
  );
}

const uploadAction = (
  <Button asChild>
    <Link to="/upload">
      <UploadIcon className="size-4" /> Upload patient data
    </Link>
  </Button>
);

/** /home: the user's cases and the cases shared with them, refreshed while any is being analysed. */
export function HomePage() {
  const { user } = useSession();
  useDocumentTitle('Home');
  const products = useProducts();
  const own = products.data?.filter((p) => p.isOwner) ?? [];
  const shared = products.data?.filter((p) => !p.isOwner) ?? [];
  const activeCount = products.data?.filter((p) => isInProgress(p.status)).length ?? 0;

  return (
    <>
      <PageHeader
        title={user ? `Welcome, ${user.name}` : 'Welcome'}
        description={
          activeCount > 0
            ? `${activeCount} case${activeCount === 1 ? ' is' : 's are'} being analysed — this list refreshes by itself.`
            : 'Your cases and the cases shared with you.'
        }
        actions={uploadAction}
      />
      {products.isPending ? (
        <PageSpinner label="Loading cases" />
      ) : products.isError ? (
        <Alert tone="error">{errorMessage(products.error)}</Alert>
      ) : products.data.length === 0 ? (
        <EmptyState icon={<DnaIcon />} title="No cases yet" action={uploadAction}>
          Upload a patient’s VCF or FASTQ file with their clinical symptoms. RareLens ranks the
          diseases, genes and variants that explain them.
        </EmptyState>
      ) : (
        <>
          {[
            { title: 'My cases', products: own },
            { title: 'Shared with me', products: shared },
          ]
            .filter((section) => section.products.length > 0)
            .map(({ title, products: list }) => (
              <CasesSection
                key={title}
                title={title}
                description={`${list.length} case${list.length === 1 ? '' : 's'}`}
                products={list}
              />
            ))}
        </>
      )}
    </>
  );
}
