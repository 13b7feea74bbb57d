/**
 * Reading the ranked results of a case's current run, as the genes, phenotypes and variants
 * services do: the caller's read access is checked first; before the first run a list is empty
 * and an item is not found.
 */
import { ErrorCode, type PageQuery } from '@rarelens/contract';
import type { ProductRow } from '../../db/schema/products.ts';
import { AppError } from '../../errors.ts';
import type { CaseAccess, Caller } from './cases.service.ts';

/** A page of a ranked list of the current run (`list` reads the run's rows), or an empty page. */
export async function pageOfCurrentRun<Row, Item>(
  access: CaseAccess,
  user: Caller,
  caseId: string,
  page: PageQuery,
  list: (runId: string) => Promise<{ items: Row[]; total: number }>,
  present: (row: Row) => Item,
): Promise<{ items: Item[]; page: number; pageSize: number; total: number; totalIsCapped: false }> {
  const { caseRow } = await access.check(user, caseId, 'read');
  if (!caseRow.currentRunId) return { items: [], ...page, total: 0, totalIsCapped: false };
  const r = await list(caseRow.currentRunId);
  return { items: r.items.map(present), ...page, total: r.total, totalIsCapped: false };
}

/** One row of the current run (`find` looks it up), or 404 `notFound`. */
export async function itemOfCurrentRun<Row>(
  access: CaseAccess,
  user: Caller,
  caseId: string,
  find: (runId: string) => Promise<Row | null | undefined>,
  notFound: string,
): Promise<{ caseRow: ProductRow; runId: string; row: Row }> {
  const { caseRow } = await access.check(user, caseId, 'read');
  const runId = caseRow.currentRunId;
  const row = runId ? await find(runId) : null;
  if (!row || !runId) throw new AppError(404, ErrorCode.notFound, notFound);
  return { caseRow, runId, row };
}
