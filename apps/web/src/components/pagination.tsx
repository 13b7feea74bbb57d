import { Constants } from '@rarelens/contract';
import { cn } from '../lib/cn.ts';
import { ChevronLeftIcon, ChevronRightIcon } from './icons.tsx';

export const DefaultPageSize = Constants.pageSize;

export type PageItem = { type: 'page'; page: number } | { type: 'ellipsis'; key: 'start' | 'end' };

/**
 * The page buttons to show for `page` of `pageCount` (1-based): first and last, the current
 * page with `siblings` pages on each side, and an ellipsis for each gap of two or more pages
 * (a gap of one page shows that page instead, so the number of items stays constant).
 */
export function getPageItems(page: number, pageCount: number, siblings: number = Constants.paginationSiblings): PageItem[] {
  if (pageCount < 1) return [];
  const current = Math.min(Math.max(1, page), pageCount);
  // first + last + current + 2*siblings + 2 ellipses
  const slots = 2 * siblings + 5;
  const range = (from: number, to: number): PageItem[] =>
    Array.from({ length: to - from + 1 }, (_, i) => ({ type: 'page', page: from + i }) as const);
  if (pageCount <= slots) return range(1, pageCount);

  const left = Math.max(current - siblings, 1);
  const right = Math.min(current + siblings, pageCount);
  const showLeftEllipsis = left > 3;
  const showRightEllipsis = right < pageCount - 2;
  const edgeCount = 3 + 2 * siblings;

  if (!showLeftEllipsis) {
    return [...range(1, edgeCount), { type: 'ellipsis', key: 'end' }, { type: 'page', page: pageCount }];
  }
  if (!showRightEllipsis) {
    return [{ type: 'page', page: 1 }, { type: 'ellipsis', key: 'start' }, ...range(pageCount - edgeCount + 1, pageCount)];
  }
  return [
    { type: 'page', page: 1 },
    { type: 'ellipsis', key: 'start' },
    ...range(left, right),
    { type: 'ellipsis', key: 'end' },
    { type: 'page', page: pageCount },
  ];
}

/** Number of pages for `total` items (at least 1). */
export function getPageCount(total: number, pageSize: number = DefaultPageSize): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

type PaginationProps = {
  /** 1-based current page. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  siblingCount?: number;
  className?: string;
};

/** Page navigation for lists (defaults: page size 10, sibling count 2 — §9). */
export function Pagination({ page, pageCount, onPageChange, siblingCount = Constants.paginationSiblings, className }: PaginationProps) {
  if (pageCount <= 1) return null;
  const items = getPageItems(page, pageCount, siblingCount);
  // On a phone (360-390 px) the first, last, current ± 2 and both arrows fit on one line with
  // 32 px buttons; anything wider wraps instead of running off the screen.
  const base =
    'inline-flex h-8 min-w-8 items-center justify-center rounded-lg px-1.5 text-sm font-medium transition-colors disabled:pointer-events-none disabled:opacity-40 sm:h-9 sm:min-w-9 sm:px-2';
  return (
    <nav aria-label="Pagination" className={cn('flex flex-wrap items-center justify-center gap-0.5 sm:gap-1', className)}>
      <button
        type="button"
        className={cn(base, 'text-ink-600 hover:bg-ink-50')}
        onClick={() => onPageChange(page - 1)}
        disabled={page <= 1}
        aria-label="Previous page"
      >
        <ChevronLeftIcon className="size-4" />
      </button>
      {items.map((item) =>
        item.type === 'ellipsis' ? (
          <span key={item.key} className="px-1 text-ink-400" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={item.page}
            type="button"
            onClick={() => onPageChange(item.page)}
            aria-current={item.page === page ? 'page' : undefined}
            aria-label={`Page ${item.page}`}
            className={cn(base, item.page === page ? 'bg-ink-900 text-white' : 'text-ink-700 hover:bg-ink-50')}
          >
            {item.page}
          </button>
        ),
      )}
      <button
        type="button"
        className={cn(base, 'text-ink-600 hover:bg-ink-50')}
        onClick={() => onPageChange(page + 1)}
        disabled={page >= pageCount}
        aria-label="Next page"
      >
        <ChevronRightIcon className="size-4" />
      </button>
    </nav>
  );
}
