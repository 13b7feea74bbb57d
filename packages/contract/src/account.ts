import { z } from 'zod';
import { Messages } from './messages.ts';
import { BirthDate, Password, PHONE_NUMBER, PublicUser } from './auth.ts';

const Required = z.string({ error: Messages.mandatory }).trim().min(1, Messages.mandatory);
const Optional = z
  .string()
  .trim()
  .max(200)
  .nullable()
  .optional()
  .transform((v) => (v === '' ? null : v));

export const UpdateAccountBody = z.object({
  name: Required,
  surname: Required,
  birthDate: BirthDate,
  address: Optional,
  country: Optional,
  state: Optional,
  phoneNumber: Optional.refine((v) => v == null || PHONE_NUMBER.test(v), Messages.invalidPhone),
  language: z.enum(['en', 'tr']).default('en'),
});
export type UpdateAccountBody = z.infer<typeof UpdateAccountBody>;

export const ChangePasswordBody = z.object({
  currentPassword: z.string().min(1, Messages.mandatory),
  password: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const AccountResponse = z.object({ user: PublicUser });
/** Deleting the account asks for the password again. */
export const DeleteAccountBody = z.object({ password: z.string().min(1, Messages.mandatory).max(1024) });
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;
export const UpdateAccountResponse = z.object({ user: PublicUser, message: z.string() });

export const ChangePasswordForm = z
  .object({
    currentPassword: z.string().min(1, Messages.mandatory),
    password: Password,
    passwordConfirmation: z.string().min(1, Messages.mandatory),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: Messages.passwordsMismatch,
    path: ['passwordConfirmation'],
  });

/** Kinds of account activity shown to the user (issue 16 item 8). */
export const ActivityKind = z.enum([
  'sign_in',
  'sign_in_failed',
  'password_changed',
  'password_reset',
  'share_created',
  'share_revoked',
  'share_opened',
  'report_downloaded',
  'case_deleted',
  'data_exported',
]);
export type ActivityKind = z.infer<typeof ActivityKind>;

export const ActivityEvent = z.object({
  id: z.string(),
  kind: ActivityKind,
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
});
export type ActivityEvent = z.infer<typeof ActivityEvent>;

export const ActivityQuery = z.object({
  /** Keyset cursor: the `nextCursor` of the previous page. */
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const ActivityResponse = z.object({ events: z.array(ActivityEvent), nextCursor: z.string().nullable() });
export type ActivityResponse = z.infer<typeof ActivityResponse>;
