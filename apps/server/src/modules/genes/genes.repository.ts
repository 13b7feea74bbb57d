/** SQL for the ranked genes of a case's run. */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { rankedPage } from '../../db/ranked-page.ts';
import type { Page } from '../../db/run-variants.ts';
import { runGenes } from '../../db/schema/products.ts';

export function listGenes(db: Executor, runId: string, p: Page) {
  return rankedPage(db, runGenes, runId, p);
}

/** A gene of the run by symbol (case-insensitive) or HGNC id. */
export async function findGene(db: Executor, runId: string, geneId: string) {
  const [row] = await db
    .select()
    .from(runGenes)
    .where(
      and(
        eq(runGenes.runId, runId),
        /^HGNC:\d+$/i.test(geneId) ? eq(runGenes.hgncId, geneId.toUpperCase()) : sql`upper(${runGenes.symbol}) = upper(${geneId})`,
      ),
    );
  return row ?? null;
}

