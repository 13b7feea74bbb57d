import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex, uuid, check } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn } from './columns.ts';
import { caseRef } from './products.ts';
import { users } from './users.ts';

/**
 * The reporting list of a case (spec §3): variants picked for the report, shared by everyone
 * who can read the case. A variant is identified by its GRCh38 allele (chrom, 1-based pos,
 * ref, alt) so the list survives re-ranking and re-analysis; `variant_id` is its id in the run
 * it was picked from (a fast path while that run is current).
 */
export const reportItems = pgTable(
  'report_items',
  {
    id: idColumn(),
    productId: caseRef(),
    variantId: integer('variant_id').notNull(),
    chrom: text('chrom').notNull(),
    /** 1-based VCF position on GRCh38. */
    pos: integer('pos').notNull(),
    ref: text('ref').notNull(),
    alt: text('alt').notNull(),
    gene: text('gene'),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex('report_items_allele_uq').on(t.productId, t.chrom, t.pos, t.ref, t.alt),
    index('report_items_product_created_idx').on(t.productId, t.createdAt),
  ],
);

/** A generated clinical report: the PDF lives in object storage under `storage_key`. */
export const reports = pgTable(
  'reports',
  {
    id: idColumn(),
    productId: caseRef(),
    runId: uuid('run_id'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    pageCount: integer('page_count').notNull(),
    variantCount: integer('variant_count').notNull(),
    interpretation: text('interpretation').notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [
    index('reports_product_created_idx').on(t.productId, t.createdAt),
    check('reports_size_positive', sql`${t.sizeBytes} > 0`),
  ],
);

export type ReportItemRow = typeof reportItems.$inferSelect;
export type ReportRow = typeof reports.$inferSelect;
