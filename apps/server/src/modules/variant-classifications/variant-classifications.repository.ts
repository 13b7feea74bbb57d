/** SQL for reviewer classifications: by case, by allele; one row per case and GRCh38 allele. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deleteWhere } from '../../db/delete-where.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { variantClassifications, type VariantClassificationRow } from '../../db/schema/variant-classifications.ts';

export interface Allele {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
}

const byAllele = (caseId: string, a: Allele) =>
  and(
    eq(variantClassifications.productId, caseId),
    eq(variantClassifications.chrom, a.chrom),
    eq(variantClassifications.pos, a.pos),
    eq(variantClassifications.ref, a.ref),
    eq(variantClassifications.alt, a.alt),
  );

const caseClassifications = preparedPerDb((db) =>
  db
    .select()
    .from(variantClassifications)
    .where(eq(variantClassifications.productId, sql.placeholder('caseId')))
    .orderBy(asc(variantClassifications.chrom), asc(variantClassifications.pos), asc(variantClassifications.ref), asc(variantClassifications.alt))
    .prepare('variant_classifications_of_case'),
);

/** Every variant list request reads them: a prepared statement (preparedPerDb). */
export function listForCase(db: Executor, caseId: string): Promise<VariantClassificationRow[]> {
  return caseClassifications(db).execute({ caseId });
}

/** Sets (inserts or replaces) the classification of an allele; the row as stored. */
export async function upsert(
  db: Executor,
  v: Allele & {
    caseId: string;
    classification: string;
    reason: string;
    automaticClass: string;
    reviewerId: string;
    reviewerName: string | null;
    reviewerEmail: string;
  },
): Promise<VariantClassificationRow> {
  const now = new Date();
  const values = {
    classification: v.classification,
    reason: v.reason,
    automaticClass: v.automaticClass,
    reviewerId: v.reviewerId,
    reviewerName: v.reviewerName,
    reviewerEmail: v.reviewerEmail,
    updatedAt: now,
  };
  const rows = await db
    .insert(variantClassifications)
    .values({ productId: v.caseId, chrom: v.chrom, pos: v.pos, ref: v.ref, alt: v.alt, ...values, createdAt: now })
    .onConflictDoUpdate({
      target: [variantClassifications.productId, variantClassifications.chrom, variantClassifications.pos, variantClassifications.ref, variantClassifications.alt],
      set: values,
    })
    .returning();
  return rows[0]!;
}

/** Removes the classification of an allele; whether there was one. */
export function remove(db: Executor, caseId: string, a: Allele): Promise<boolean> {
  return deleteWhere(db, variantClassifications, byAllele(caseId, a));
}
