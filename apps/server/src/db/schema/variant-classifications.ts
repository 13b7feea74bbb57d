import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn, updatedAtColumn } from './columns.ts';
import { caseRef } from './products.ts';
import { users } from './users.ts';

/**
 * A reviewer's classification of a variant in a case (issue 17), beside the automatic ACMG class.
 * Keyed by the GRCh38 allele like the reporting list, so it survives re-ranking and re-analysis.
 * Who set it is kept as the account id and a copy of the name and e-mail at the time, so a
 * report still says who classified the variant after the account is gone.
 */
export const variantClassifications = pgTable(
  'variant_classifications',
  {
    id: idColumn(),
    productId: caseRef(),
    chrom: text('chrom').notNull(),
    /** 1-based VCF position on GRCh38. */
    pos: integer('pos').notNull(),
    ref: text('ref').notNull(),
    alt: text('alt').notNull(),
    classification: text('classification').notNull(),
    reason: text('reason').notNull(),
    /** The automatic ACMG class of the variant when the reviewer set this one. */
    automaticClass: text('automatic_class').notNull(),
    reviewerId: uuid('reviewer_id').references(() => users.id, { onDelete: 'set null' }),
    reviewerName: text('reviewer_name'),
    reviewerEmail: text('reviewer_email').notNull(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [
    uniqueIndex('variant_classifications_allele_uq').on(t.productId, t.chrom, t.pos, t.ref, t.alt),
    check(
      'variant_classifications_class',
      sql`${t.classification} in ('Pathogenic', 'Likely pathogenic', 'Uncertain significance', 'Likely benign', 'Benign')`,
    ),
    check('variant_classifications_reason_given', sql`length(btrim(${t.reason})) > 0`),
  ],
);

export type VariantClassificationRow = typeof variantClassifications.$inferSelect;
