/**
 * Reads of a run's result tables: a page of its ranked list (genes or phenotypes), in rank
 * order, and how many the run has; one row of a run's genes, phenotypes or variants.
 */
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { Executor } from './database.ts';
import { findOne } from './find-one.ts';
import type { Page } from './run-variants.ts';
import type { runGenes, runPhenotypes, runVariants } from './schema/products.ts';

export async function rankedPage<T extends typeof runGenes | typeof runPhenotypes>(db: Executor, table: T, runId: string, p: Page): Promise<{ items: T['$inferSelect'][]; total: number }> {
  const t = table as typeof runGenes; // both tables have run_id and rank; the rows are T's
  const [items, total] = await Promise.all([
    db.select().from(t).where(eq(t.runId, runId)).orderBy(asc(t.rank)).limit(p.pageSize).offset((p.page - 1) * p.pageSize),
    db.$count(t, eq(t.runId, runId)),
  ]);
  return { items, total: Number(total) };
}

/** The row of the run that `match` picks (a key of the table), or null when the run has none. */
export function findInRun<T extends typeof runGenes | typeof runPhenotypes | typeof runVariants>(
  db: Executor,
  table: T,
  runId: string,
  match: SQL,
): Promise<T['$inferSelect'] | null> {
  const t = table as typeof runGenes; // every run table has run_id
  return findOne(db, table, and(eq(t.runId, runId), match));
}
