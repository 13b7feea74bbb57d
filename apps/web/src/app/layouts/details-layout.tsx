import { Outlet } from 'react-router';
import { ChevronLeftIcon } from '../../components/icons.tsx';
import { ProductShell } from './product-layout.tsx';

/** A detail page inside a product (a gene, a phenotype): the product frame plus a way back. */
export function DetailsLayout() {
  return (
    <ProductShell layout="details">
      <button
        type="button"
        onClick={() => window.history.back()}
        className="mb-6 inline-flex items-center gap-1 text-sm font-medium text-ink-500 hover:text-ink-900"
      >
        <ChevronLeftIcon className="size-4" /> Back
      </button>
      <Outlet />
    </ProductShell>
  );
}
