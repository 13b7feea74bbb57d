/** SQL for the ranked phenotypes (diseases) of a case's run. */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { rankedPage } from '../../db/ranked-page.ts';
import type { Page } from '../../db/run-variants.ts';
import { runPhenotypes } from '../../db/schema/products.ts';

export function listPhenotypes(db: Executor, runId: string, p: Page) {
  return rankedPage(db, runPhenotypes, runId, p);
}

export async function findPhenotype(db: Executor, runId: string, diseaseId: string) {
  const [row] = await db
    .select()
    .from(runPhenotypes)
    .where(and(eq(runPhenotypes.runId, runId), eq(runPhenotypes.diseaseId, diseaseId)));
  return row ?? null;
}

