/** Whitelists of what the sharing API returns: the share settings and the case behind a link. */
import type { PhenotypeRow, SharedProductResponse, ShareSettingsResponse, ShareStatus } from '@rarelens/contract';
import { displayName } from './sharing.mails.ts';
import type { LinkWithCase, OwnerShareRow } from './sharing.repository.ts';

function statusOf(share: { revokedAt: Date | null; expiresAt: Date }, now: Date): ShareStatus {
  if (share.revokedAt !== null) return 'revoked';
  return share.expiresAt <= now ? 'expired' : 'active';
}

export function presentShareSettings(rows: OwnerShareRow[], now: Date): ShareSettingsResponse {
  return {
    items: rows.map((r) => ({
      productId: r.productId,
      caseId: r.caseId,
      email: r.email,
      sharedAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      revokedAt: r.revokedAt?.toISOString() ?? null,
      lastOpenedAt: r.lastOpenedAt?.toISOString() ?? null,
      openCount: r.openCount,
      status: statusOf(r, now),
    })),
  };
}

export function presentSharedProduct(
  found: LinkWithCase,
  phenotypes: PhenotypeRow[],
  label: (termId: string) => string,
): SharedProductResponse {
  const { caseRow, link } = found;
  return {
    product: {
      id: caseRow.id,
      caseId: caseRow.caseId,
      name: caseRow.caseId,
      status: caseRow.status,
      createdAt: caseRow.createdAt.toISOString(),
      sharedBy: found.ownerEmail,
      sharedByName: displayName({ name: found.ownerName, surname: found.ownerSurname }) || null,
      sharedWith: link.email,
      expiresAt: link.expiresAt.toISOString(),
      hpoTerms: caseRow.hpoTerms.map((id) => ({ id, label: label(id) })),
    },
    phenotypes,
  };
}
