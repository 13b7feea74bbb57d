/** A page of a run's ranked list (genes or phenotypes), in rank order, and how many the run has. */
import { asc, eq } from 'drizzle-orm';
import type { Executor } from './database.ts';
import type { Page } from './run-variants.ts';
import type { runGenes, runPhenotypes } from './schema/products.ts';

export async function rankedPage<T extends typeof runGenes | typeof runPhenotypes>(db: Executor, table: T, runId: string, p: Page): Promise<{ items: T['$inferSelect'][]; total: number }> {
  const t = table as typeof runGenes; // both tables have run_id and rank; the rows are T's
  const [items, total] = await Promise.all([
    db.select().from(t).where(eq(t.runId, runId)).orderBy(asc(t.rank)).limit(p.pageSize).offset((p.page - 1) * p.pageSize),
    db.$count(t, eq(t.runId, runId)),
  ]);
  return { items, total: Number(total) };
}
