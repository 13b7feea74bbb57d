import type { ReactNode } from 'react';
import { Outlet, useParams } from 'react-router';
import { Spinner } from '../../components/spinner.tsx';
import { useCurrentProduct } from '../../features/cases/use-current-product.ts';
import { myAccountNavigation, productNavigation } from '../navigation.ts';
import { NotFoundPage } from '../not-found-page.tsx';
import { SignedInShell } from './signed-in-shell.tsx';

/** The open product's name above its navigation. */
export function ProductSidebarHeader({ productId }: { productId: string }) {
  const product = useCurrentProduct(productId);
  return (
    <div className="border-b border-ink-100 px-5 py-4">
      <p className="text-[11px] font-semibold tracking-wide text-ink-400 uppercase">Case</p>
      <p className="mt-0.5 truncate text-sm font-semibold text-ink-900">
        {product.isLoading ? <Spinner className="size-4" /> : (product.name ?? '—')}
      </p>
    </div>
  );
}

export function useProductId(): string {
  const { productId } = useParams();
  if (!productId) throw new Error('The product layout needs a :productId route parameter');
  return productId;
}

/** A product (case) is open: Home, Phenotypes, Genes (shared only), Diagnose module, GenomeTalks, Reporting. */
export function ProductLayout() {
  return (
    <ProductShell layout="product">
      <Outlet />
    </ProductShell>
  );
}

/** The signed-in frame of the open product (its navigation, its name above it); an unknown one is not found. */
export function ProductShell({ layout, children }: { layout: 'product' | 'details'; children: ReactNode }) {
  const productId = useProductId();
  const product = useCurrentProduct(productId);
  if (product.isMissing) return <MissingProduct />;
  return (
    <SignedInShell layout={layout} navigation={productNavigation(productId, product.isShared)} sidebarTop={<ProductSidebarHeader productId={productId} />}>
      {children}
    </SignedInShell>
  );
}

/**
 * An unknown case id (or one this user may not read): the not-found page in the signed-in
 * frame, without a product navigation or the raw id shown as a case name.
 */
export function MissingProduct() {
  return (
    <SignedInShell layout="my-account" navigation={myAccountNavigation}>
      <NotFoundPage />
    </SignedInShell>
  );
}
