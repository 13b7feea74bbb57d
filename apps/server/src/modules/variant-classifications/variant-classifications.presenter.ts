/** What the API returns of a reviewer classification (CONVENTIONS §2: a whitelist). */
import { AcmgClassName, type ReviewerClassification } from '@rarelens/contract';
import type { VariantClassificationRow } from '../../db/schema/variant-classifications.ts';
import { alleleKey, type ReviewerClassifications } from '../variants/index.ts';

export function presentClassification(r: VariantClassificationRow): ReviewerClassification {
  return {
    // The column's CHECK constraint holds the same five names.
    classification: AcmgClassName.parse(r.classification),
    reason: r.reason,
    reviewer: { id: r.reviewerId ?? '', name: r.reviewerName, email: r.reviewerEmail },
    updatedAt: r.updatedAt.toISOString(),
    automaticClass: r.automaticClass,
  };
}

/** A case's classifications by allele key, as the variant presenters look them up. */
export function presentClassificationMap(rows: VariantClassificationRow[]): ReviewerClassifications {
  return new Map(rows.map((r) => [alleleKey(r), presentClassification(r)]));
}
