/** SQL for the ranked phenotypes (diseases) of a case's run. */
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import type { Page } from '../../db/run-variants.ts';
import { runPhenotypes } from '../../db/schema/products.ts';

export async function listPhenotypes(db: Executor, runId: string, p: Page) {
  const [items, total] = await Promise.all([
    db
      .select()
      .from(runPhenotypes)
      .where(eq(runPhenotypes.runId, runId))
      .orderBy(asc(runPhenotypes.rank))
      .limit(p.pageSize)
      .offset((p.page - 1) * p.pageSize),
    db.$count(runPhenotypes, eq(runPhenotypes.runId, runId)),
  ]);
  return { items, total: Number(total) };
}

export async function findPhenotype(db: Executor, runId: string, diseaseId: string) {
  const [row] = await db
    .select()
    .from(runPhenotypes)
    .where(and(eq(runPhenotypes.runId, runId), eq(runPhenotypes.diseaseId, diseaseId)));
  return row ?? null;
}

