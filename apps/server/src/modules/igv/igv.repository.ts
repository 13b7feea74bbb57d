/** SQL for the IGV tracks: the stored variants of a run in a region. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { selectRankedVariants } from '../../db/run-variants.ts';
import { runVariants } from '../../db/schema/products.ts';

/** Variants overlapping a region (1-based inclusive), position order, at most `limit`. */
export async function variantsInRegion(
  db: Executor,
  runId: string,
  region: { chrom: string; start: number; end: number },
  limit: number,
) {
  return selectRankedVariants(db)
    .where(
      and(
        eq(runVariants.runId, runId),
        eq(runVariants.chrom, region.chrom),
        sql`${runVariants.pos} between ${region.start - 1000} and ${region.end}`,
      ),
    )
    .orderBy(asc(runVariants.pos), asc(runVariants.id))
    .limit(limit);
}
