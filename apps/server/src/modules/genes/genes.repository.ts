/** SQL for the ranked genes of a case's run. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import type { Page } from '../../db/run-variants.ts';
import { runGenes } from '../../db/schema/products.ts';

export async function listGenes(db: Executor, runId: string, p: Page) {
  const [items, total] = await Promise.all([
    db
      .select()
      .from(runGenes)
      .where(eq(runGenes.runId, runId))
      .orderBy(asc(runGenes.rank))
      .limit(p.pageSize)
      .offset((p.page - 1) * p.pageSize),
    db.$count(runGenes, eq(runGenes.runId, runId)),
  ]);
  return { items, total: Number(total) };
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

