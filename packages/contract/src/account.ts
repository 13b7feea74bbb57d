import { z } from 'zod';
import { Messages } from './messages.ts';
import { BirthDate, Password, PublicUser } from './auth.ts';

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
  phoneNumber: Optional,
  language: z.enum(['en', 'tr']).default('en'),
});
export type UpdateAccountBody = z.infer<typeof UpdateAccountBody>;

export const ChangePasswordBody = z.object({
  currentPassword: z.string().min(1, Messages.mandatory),
  password: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const AccountResponse = z.object({ user: PublicUser });
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
