/** SQL for the reporting list, stored reports and the exports' variant reads. */
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { findOne } from '../../db/find-one.ts';
import { deleteWhere } from '../../db/delete-where.ts';
import { runGenes, runPhenotypes, runVariantRanks, runVariants, type RunPhenotypeRow, type RunVariantRow } from '../../db/schema/products.ts';
import { reportItems, reports, type ReportItemRow, type ReportRow } from '../../db/schema/reports.ts';
import { users } from '../../db/schema/users.ts';
import { matchesUnranked, RANK_OF_VARIANT, RANKED_VARIANT_COLUMNS, UNRANKED_ORDER, variantWhere, type VariantFilters } from '../../db/run-variants.ts';
import { insertOne } from '../../db/insert-one.ts';

export interface ItemWithVariant {
  item: ReportItemRow;
  addedByEmail: string | null;
  /** The variant in the current run (matched by allele), or null. */
  variant: RunVariantRow | null;
}

/** The reporting list in the order variants were added, each joined to the current run by allele. */
export async function listItems(db: Executor, productId: string, runId: string | null): Promise<ItemWithVariant[]> {
  const rows = await db
    .select({ item: reportItems, addedByEmail: users.email, variant: runVariants, rank: runVariantRanks.rank })
    .from(reportItems)
    .leftJoin(users, eq(users.id, reportItems.addedBy))
    .leftJoin(
      runVariants,
      and(
        // No current run: join nothing (a comparison with null is never true).
        sql`${runVariants.runId} = ${runId}::uuid`,
        eq(runVariants.chrom, reportItems.chrom),
        eq(runVariants.pos, reportItems.pos),
        eq(runVariants.ref, reportItems.ref),
        eq(runVariants.alt, reportItems.alt),
      ),
    )
    .leftJoin(runVariantRanks, RANK_OF_VARIANT)
    .where(eq(reportItems.productId, productId))
    .orderBy(asc(reportItems.createdAt), asc(reportItems.id));
  return rows.map(({ variant, rank, ...r }) => ({ ...r, variant: variant && { ...variant, rank } }));
}

export type NewReportItem = typeof reportItems.$inferInsert;

/** Inserts the item; null when the allele is already in the list (unique per case). */
export async function insertItem(db: Executor, item: NewReportItem): Promise<ReportItemRow | null> {
  const [row] = await db.insert(reportItems).values(item).onConflictDoNothing().returning();
  return row ?? null;
}

export function deleteItem(db: Executor, productId: string, itemId: string): Promise<boolean> {
  return deleteWhere(db, reportItems, and(eq(reportItems.productId, productId), eq(reportItems.id, itemId)));
}

/** Removes every item of the case; answers how many there were. */
export async function clearItems(db: Executor, productId: string): Promise<number> {
  const rows = await db.delete(reportItems).where(eq(reportItems.productId, productId)).returning({ id: reportItems.id });
  return rows.length;
}

/** The ranking of `genes` in the run (rank, score, post-test probability), best first; genes the ranking left out are absent. */
export async function rankedGenes(db: Executor, runId: string, genes: string[]): Promise<{ symbol: string; rank: number; score: number; probability: number | null }[]> {
  if (genes.length === 0) return [];
  return db
    .select({ symbol: runGenes.symbol, rank: runGenes.rank, score: runGenes.score, probability: runGenes.probability })
    .from(runGenes)
    .where(and(eq(runGenes.runId, runId), inArray(runGenes.symbol, genes)))
    .orderBy(asc(runGenes.rank));
}

/**
 * Ranked diseases of the run involving any of `genes`, best first: the first `limit`, and the
 * best-ranked disease of every gene that has none among them (the draft judges each selected
 * gene's fit to the phenotype on its own best disease, not on whether another gene's filled the list).
 */
export async function diseasesForGenes(db: Executor, runId: string, genes: string[], limit: number): Promise<RunPhenotypeRow[]> {
  if (genes.length === 0) return [];
  const list = sql`array[${sql.join(
    genes.map((g) => sql`${g}`),
    sql`, `,
  )}]::text[]`;
  const top = await db
    .select()
    .from(runPhenotypes)
    .where(and(eq(runPhenotypes.runId, runId), sql`${runPhenotypes.genes} ?| ${list}`))
    .orderBy(asc(runPhenotypes.rank))
    .limit(limit);
  const absent = genes.filter((g) => !top.some((d) => d.genes.includes(g)));
  const best = await Promise.all(
    absent.map((g) =>
      db
        .select()
        .from(runPhenotypes)
        .where(and(eq(runPhenotypes.runId, runId), sql`${runPhenotypes.genes} ? ${g}`))
        .orderBy(asc(runPhenotypes.rank))
        .limit(1),
    ),
  );
  const rows = new Map(top.map((d) => [d.diseaseId, d]));
  for (const d of best.flat()) rows.set(d.diseaseId, d);
  return [...rows.values()].sort((a, b) => a.rank - b.rank);
}

/** Where a keyset page of variants resumes: after a ranked candidate, or after an unranked variant. */
export type VariantCursor = { rank: number } | { score: number; id: number } | null;

/**
 * One batch of filtered variants in list order (ranked candidates by rank, then the others by
 * score desc, id) after `cursor` — keyset paging, so exporting a whole genome stays linear.
 */
export async function variantsAfter(
  db: Executor,
  runId: string,
  filters: VariantFilters,
  cursor: VariantCursor,
  limit: number,
): Promise<RunVariantRow[]> {
  // Candidates from run_variant_ranks in rank order (each joined to its row), then the other
  // variants from run_variants' list-order indexes (non-candidates only).
  const ranked = (after: number) =>
    db
      .select(RANKED_VARIANT_COLUMNS)
      .from(runVariantRanks)
      .innerJoin(runVariants, RANK_OF_VARIANT)
      .where(and(variantWhere(runId, filters, 'ranked'), gt(runVariantRanks.rank, after)))
      .orderBy(asc(runVariantRanks.rank))
      .limit(limit);
  const unranked = async (after: { score: number; id: number } | null, n: number): Promise<RunVariantRow[]> => {
    if (!matchesUnranked(filters)) return [];
    const rows = await db
      .select()
      .from(runVariants)
      .where(
        and(
          variantWhere(runId, filters, 'unranked'),
          // `score <= s` bounds the (score desc, id) index scan so each batch starts where the
          // last ended; the param is cast to real so the float4 column keeps its index.
          after
            ? sql`${runVariants.score} <= ${after.score}::real and (${runVariants.score} < ${after.score}::real or ${runVariants.id} > ${after.id})`
            : undefined,
        ),
      )
      .orderBy(...UNRANKED_ORDER)
      .limit(n);
    return rows.map((r) => ({ ...r, rank: null }));
  };
  if (cursor === null || 'rank' in cursor) {
    const rows = await ranked(cursor?.rank ?? 0);
    if (rows.length === limit) return rows;
    return [...rows, ...(await unranked(null, limit - rows.length))];
  }
  return unranked(cursor, limit);
}

/** The cursor after `row`. */
export function cursorAfter(row: RunVariantRow): VariantCursor {
  return row.rank != null ? { rank: row.rank } : { score: row.score, id: row.id };
}

export type NewReport = typeof reports.$inferInsert;

export async function insertReport(db: Executor, report: NewReport): Promise<ReportRow> {
  return insertOne(db, reports, report);
}

export async function listReports(db: Executor, productId: string): Promise<{ report: ReportRow; createdByEmail: string | null }[]> {
  return db
    .select({ report: reports, createdByEmail: users.email })
    .from(reports)
    .leftJoin(users, eq(users.id, reports.createdBy))
    .where(eq(reports.productId, productId))
    .orderBy(desc(reports.createdAt), desc(reports.id));
}

export function findReport(db: Executor, productId: string, reportId: string): Promise<ReportRow | null> {
  return findOne(db, reports, and(eq(reports.productId, productId), eq(reports.id, reportId)));
}
