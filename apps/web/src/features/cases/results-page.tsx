import type { ProductDetails } from '@rarelens/contract';
import type { ReactNode } from 'react';
import { useProductId } from '../../app/layouts/product-layout.tsx';
import { PageHeader } from '../../components/card.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { CaseSummary, ResultsGate } from './results-gate.tsx';

/**
 * A results screen of the case in the route: the header (its title is also the document title)
 * and, once the analysis has completed, the case summary followed by `children`.
 */
export function ResultsPage({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description: string;
  actions?: ReactNode;
  children: (product: ProductDetails) => ReactNode;
}) {
  const productId = useProductId();
  useDocumentTitle(title);
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      <ResultsGate productId={productId}>
        {(product) => (
          <>
            <CaseSummary product={product} />
            {children(product)}
          </>
        )}
      </ResultsGate>
    </>
  );
}
