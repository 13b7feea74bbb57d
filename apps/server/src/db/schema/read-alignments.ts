import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn } from './columns.ts';
import { caseRef, analysisRuns } from './products.ts';

/**
 * What the raw data analysis of a FASTQ case produced, kept with its run: the aligned reads
 * (BAM + index) and the called VCF (+ index) in the upload storage, the QC figures, the reference
 * used, the tool versions and the command lines (the report's method section).
 */
export const readAlignments = pgTable('read_alignments', {
  runId: uuid('run_id')
    .primaryKey()
    .references(() => analysisRuns.id, { onDelete: 'cascade' }),
  productId: caseRef(),
  layout: text('layout', { enum: ['single', 'paired', 'interleaved'] }).notNull(),
  reference: jsonb('reference').$type<{ label: string; assembly: string; demo: boolean; contigs?: { name: string; length: number }[] }>().notNull(),
  qc: jsonb('qc').$type<Record<string, number | null>>().notNull(),
  tools: jsonb('tools').$type<Record<string, string>>().notNull(),
  commands: jsonb('commands').$type<string[]>().notNull(),
  bamKey: text('bam_key').notNull(),
  baiKey: text('bai_key').notNull(),
  vcfKey: text('vcf_key').notNull(),
  tbiKey: text('tbi_key').notNull(),
  bamBytes: bigint('bam_bytes', { mode: 'number' }).notNull(),
  vcfBytes: bigint('vcf_bytes', { mode: 'number' }).notNull(),
  createdAt: createdAtColumn(),
}, (t) => [
  index('read_alignments_product_idx').on(t.productId),
  check('read_alignments_layout', sql`${t.layout} in ('single', 'paired', 'interleaved')`),
]);

export type ReadAlignmentRow = typeof readAlignments.$inferSelect;
