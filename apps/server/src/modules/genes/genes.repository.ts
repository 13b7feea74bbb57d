/** SQL for the ranked genes of a case's run. */
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { findInRun, rankedPage } from '../../db/ranked-page.ts';
import type { Page } from '../../db/run-variants.ts';
import { runGenes } from '../../db/schema/products.ts';

export function listGenes(db: Executor, runId: string, p: Page) {
  return rankedPage(db, runGenes, runId, p);
}

/** A gene of the run by symbol (case-insensitive) or HGNC id. */
export function findGene(db: Executor, runId: string, geneId: string) {
  return findInRun(
    db,
    runGenes,
    runId,
    /^HGNC:\d+$/i.test(geneId) ? eq(runGenes.hgncId, geneId.toUpperCase()) : sql`upper(${runGenes.symbol}) = upper(${geneId})`,
  );
}
