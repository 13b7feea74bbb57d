/** SQL for the ranked phenotypes (diseases) of a case's run. */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { findInRun, rankedPage } from '../../db/ranked-page.ts';
import type { Page } from '../../db/run-variants.ts';
import { runPhenotypes } from '../../db/schema/products.ts';

export function listPhenotypes(db: Executor, runId: string, p: Page) {
  return rankedPage(db, runPhenotypes, runId, p);
}

export function findPhenotype(db: Executor, runId: string, diseaseId: string) {
  return findInRun(db, runPhenotypes, runId, eq(runPhenotypes.diseaseId, diseaseId));
}
