/** Whitelists of what the reporting API returns (CONVENTIONS §2). */
import type { ReportItem, ReportSummary } from '@rarelens/contract';
import type { ReportRow } from '../../db/schema/reports.ts';
import { presentVariant } from '../variants/variants.service.ts';
import type { ReviewerClassifications } from '../variants/index.ts';
import type { ItemWithVariant } from './reports.repository.ts';

export function presentReportItem(row: ItemWithVariant, reviews?: ReviewerClassifications): ReportItem {
  const { item } = row;
  return {
    id: item.id,
    addedAt: item.createdAt.toISOString(),
    addedBy: row.addedByEmail,
    variant: row.variant ? presentVariant(row.variant, reviews) : null,
    locus: { chrom: item.chrom, pos: item.pos, ref: item.ref, alt: item.alt, gene: item.gene },
  };
}

export function presentReport(r: ReportRow, createdByEmail: string | null): ReportSummary {
  return {
    id: r.id,
    fileName: r.fileName,
    createdAt: r.createdAt.toISOString(),
    createdBy: createdByEmail,
    sizeBytes: r.sizeBytes,
    variantCount: r.variantCount,
    pageCount: r.pageCount,
  };
}
