import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../lib/api-client.ts';
import { cn } from '../lib/cn.ts';
import { Alert } from './card.tsx';
import { getPageCount, Pagination } from './pagination.tsx';
import { PageSpinner } from './spinner.tsx';
import { TableCard } from './table-card.tsx';

export interface RankedColumn<R> {
  header: ReactNode;
  /** Extra classes of the header cell (e.g. 'text-right'). */
  headerClassName?: string;
  /** Classes of the body cell; default 'px-3 py-3'. */
  className?: string;
  cell: (row: R) => ReactNode;
}

export interface RankedTableProps<R extends { rank: number }> {
  rows: R[];
  rowKey: (row: R) => string;
  /** Where a row (and its card, when `cardIsLink`) leads. */
  href: (row: R) => string;
  columns: RankedColumn<R>[];
  /** The body of a row's card on narrow screens (beside the rank). */
  card: (row: R) => ReactNode;
  /** The whole card is one link (no other links inside it). */
  cardIsLink?: boolean;
  /** data-testid prefix: `${testId}-table`, `${testId}-row`, `${testId}-card`. */
  testId: string;
}

const cardBox = 'rounded-xl border border-ink-100 bg-white p-3 shadow-card';

/** A link in a ranked row's cell that does not also trigger the row's navigation. */
export function RankedRowLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
  return (
    <Link to={to} className={className} onClick={(e) => e.stopPropagation()}>
      {children}
    </Link>
  );
}

/**
 * The ranked result lists (genes, diseases): a table with the rank first on wide screens, a
 * clickable row per item; numbered cards on narrow ones.
 */
export function RankedTable<R extends { rank: number }>({ rows, rowKey, href, columns, card, cardIsLink = false, testId }: RankedTableProps<R>) {
  const navigate = useNavigate();
  const rank = (row: R, className: string) => (
    <span className={cn('flex size-7 shrink-0 items-center justify-center rounded-full bg-ink-900 text-xs font-semibold text-white', className)}>{row.rank}</span>
  );
  return (
    <>
      <TableCard
        testId={`${testId}-table`}
        padding="px-3"
        className="hidden overflow-x-auto lg:block"
        tableClassName="w-full"
        headers={[{ label: 'Rank', className: 'w-12 text-right' }, ...columns.map((c) => ({ label: c.header, className: c.headerClassName }))]}
      >
        {rows.map((row) => (
          <tr
            key={rowKey(row)}
            data-testid={`${testId}-row`}
            className="cursor-pointer border-t border-ink-100 align-top text-sm hover:bg-accent-50/40"
            onClick={() => void navigate(href(row))}
          >
            <td className="px-3 py-3 text-right text-xs font-semibold text-ink-500 tabular-nums">{row.rank}</td>
            {columns.map((c, i) => (
              <td key={i} className={c.className ?? 'px-3 py-3'}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </TableCard>
      <ul className="flex flex-col gap-2 lg:hidden">
        {rows.map((row) => {
          const body = (
            <div className="flex items-start gap-3">
              {rank(row, cardIsLink ? '' : 'mt-0.5')}
              <div className="min-w-0 flex-1">{card(row)}</div>
            </div>
          );
          return (
            <li key={rowKey(row)} data-testid={`${testId}-card`} className={cardIsLink ? undefined : cardBox}>
              {cardIsLink ? (
                <Link to={href(row)} className={cn('block', cardBox)}>
                  {body}
                </Link>
              ) : (
                body
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** One page of a ranked list as the API answers it. */
export interface RankedPage<R> {
  items: R[];
  total: number;
  totalIsCapped: boolean;
  pageSize: number;
}

export interface RankedPanelProps<R> {
  /** The query of the current page (kept while the next one loads). */
  list: UseQueryResult<RankedPage<R>>;
  /** The spinner's label while the first page loads. */
  loadingLabel: string;
  /** What stands instead of the list when nothing is ranked. */
  empty: ReactNode;
  page: number;
  onPageChange: (page: number) => void;
  /** The list itself (a summary line and a RankedTable) for the page's answer. */
  children: (page: RankedPage<R>) => ReactNode;
}

/**
 * A ranked result list's page with its states: a spinner, the error, `empty` when nothing is
 * ranked, else the list (dimmed while the next page loads) and the pager below it.
 */
export function RankedPanel<R>({ list, loadingLabel, empty, page, onPageChange, children }: RankedPanelProps<R>) {
  if (list.isPending) return <PageSpinner label={loadingLabel} />;
  if (list.isError) return <Alert tone="error">{errorMessage(list.error)}</Alert>;
  if (list.data.total === 0) return empty;
  return (
    <div className={cn(list.isPlaceholderData && 'opacity-60 transition-opacity')}>
      {children(list.data)}
      <Pagination className="mt-4" page={page} pageCount={getPageCount(list.data.total, list.data.pageSize)} onPageChange={onPageChange} />
    </div>
  );
}
