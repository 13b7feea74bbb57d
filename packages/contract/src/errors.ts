import { z } from 'zod';

/** Every error response body: a stable machine code and a user-facing message. */
export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  issues: z
    .array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }))
    .optional(),
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Stable error codes shared by server and web. */
export const ErrorCode = {
  validationFailed: 'validation_failed',
  badRequest: 'bad_request',
  payloadTooLarge: 'payload_too_large',
  uploadStalled: 'upload_stalled',
  unsupportedMediaType: 'unsupported_media_type',
  unauthorized: 'unauthorized',
  tokenExpired: 'token_expired',
  forbidden: 'forbidden',
  notFound: 'not_found',
  rateLimited: 'rate_limited',
  internal: 'internal_error',
  databaseUnavailable: 'database_unavailable',
  invalidCredentials: 'invalid_credentials',
  emailNotVerified: 'email_not_verified',
  emailAlreadyVerified: 'email_already_verified',
  emailTaken: 'email_taken',
  invalidCode: 'invalid_verification_code',
  unknownEmail: 'unknown_email',
  resetLinkExpired: 'reset_link_expired',
  invalidRefreshToken: 'invalid_refresh_token',
  wrongPassword: 'wrong_current_password',
  productNotFound: 'product_not_found',
  variantAlreadyInReport: 'variant_already_in_report',
  invalidUpload: 'invalid_upload',
  tooManyFiles: 'too_many_files',
  storageFull: 'storage_full',
  storageUnavailable: 'storage_unavailable',
  kbUnavailable: 'kb_unavailable',
  conversationNotFound: 'conversation_not_found',
  chatUnavailable: 'chat_unavailable',
  orderNotFound: 'order_not_found',
  orderNotCancellable: 'order_not_cancellable',
  noActivePlan: 'no_active_plan',
  planLimitReached: 'plan_limit_reached',
  addOnRequired: 'add_on_required',
  orderNotPending: 'order_not_pending',
  noPedigree: 'no_pedigree',
  caseBusy: 'case_busy',
  caseNotFailed: 'case_not_failed',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
