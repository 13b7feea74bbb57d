/** Sharing a case (issue 18): by e-mail, with a `/shared/{token}` link that works without an account. */
import { z } from 'zod';
import { PhenotypeRow, ProductStatusSchema, TermRef } from './products.ts';

/** Where a share stands: usable, link past its expiry, or unshared by the owner. */
export const ShareStatus = z.enum(['active', 'expired', 'revoked']);
export type ShareStatus = z.infer<typeof ShareStatus>;

/** One share of one of the caller's cases (GET /api/shares, /my-product/share-settings). */
export const ShareSettingsItem = z.object({
  /** The case (route parameter of /my-product/{id}). */
  productId: z.string(),
  caseId: z.string(),
  email: z.string(),
  sharedAt: z.string(),
  /** When the e-mailed link stops working. */
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  /** Last time the link was opened, null when never. */
  lastOpenedAt: z.string().nullable(),
  openCount: z.number(),
  status: ShareStatus,
});
export type ShareSettingsItem = z.infer<typeof ShareSettingsItem>;

export const ShareSettingsResponse = z.object({ items: z.array(ShareSettingsItem) });
export type ShareSettingsResponse = z.infer<typeof ShareSettingsResponse>;

/** Phenotypes shown on /shared/{token} (the best-ranked ones). */
export const SHARED_PHENOTYPES_LIMIT = 100;

/** GET /api/shared/:token: the shared case read-only, without login. */
export const SharedProductResponse = z.object({
  product: z.object({
    /** The case's id: a signed-in recipient is taken to /my-product/{id}. */
    id: z.string(),
    caseId: z.string(),
    name: z.string(),
    status: ProductStatusSchema,
    createdAt: z.string(),
    /** The owner's e-mail. */
    sharedBy: z.string(),
    /** The owner's name as their account profile gives it ("Lena Labworth"); null when it has none. */
    sharedByName: z.string().nullable(),
    /** The recipient the link was sent to. */
    sharedWith: z.string(),
    expiresAt: z.string(),
    hpoTerms: z.array(TermRef),
  }),
  phenotypes: z.array(PhenotypeRow),
});
export type SharedProductResponse = z.infer<typeof SharedProductResponse>;
