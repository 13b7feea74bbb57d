import type { ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import { Card } from './card.tsx';

/** A column heading: its text, or its content (e.g. an sr-only name) with any extra classes (e.g. 'text-right'). */
export type TableHeader = string | { label: ReactNode; className?: string };

export interface TableCardProps {
  testId: string;
  headers: TableHeader[];
  /** Side padding of the heading cells, the same as the body cells'. */
  padding?: 'px-3' | 'px-4';
  /** Classes of the card; default: scrolls sideways when narrow. */
  className?: string;
  /** Classes of the table; default 'w-full text-sm'. */
  tableClassName?: string;
  /** The body rows. */
  children: ReactNode;
}

/** The app's data tables: a card holding a table with small uppercase column headings. */
export function TableCard({ testId, headers, padding = 'px-4', className = 'overflow-x-auto', tableClassName = 'w-full text-sm', children }: TableCardProps) {
  return (
    <Card className={className}>
      <table className={tableClassName} data-testid={testId}>
        <thead className="bg-ink-50/70">
          <tr>
            {headers.map((header, i) => {
              const h = typeof header === 'string' ? { label: header } : header;
              return (
                <th
                  key={i}
                  scope="col"
                  className={cn(padding, 'py-2.5 text-left text-[11px] font-semibold tracking-wide text-ink-500 uppercase whitespace-nowrap', h.className)}
                >
                  {h.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </Card>
  );
}
