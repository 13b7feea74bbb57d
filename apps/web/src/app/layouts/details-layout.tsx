import { Outlet } from 'react-router';
import { ChevronLeftIcon } from '../../components/icons.tsx';
import { useCurrentProduct } from '../../features/cases/use-current-product.ts';
import { productNavigation } from '../navigation.ts';
import { MissingProduct, ProductSidebarHeader, useProductId } from './product-layout.tsx';
import { SignedInShell } from './signed-in-shell.tsx';

/** A detail page inside a product (a gene, a phenotype): the product frame plus a way back. */
export function DetailsLayout() {
  const productId = useProductId();
  const product = useCurrentProduct(productId);
  if (product.isMissing) return <MissingProduct />;
  return (
    <SignedInShell layout="details" navigation={productNavigation(productId, product.isShared)} sidebarTop={<ProductSidebarHeader productId={productId} />}>
      <button
        type="button"
        onClick={() => window.history.back()}
        className="mb-6 inline-flex items-center gap-1 text-sm font-medium text-ink-500 hover:text-ink-900"
      >
        <ChevronLeftIcon className="size-4" /> Back
      </button>
      <Outlet />
    </SignedInShell>
  );
}
