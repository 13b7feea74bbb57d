import { z } from 'zod';
import { isCommonPassword } from './common-passwords.ts';
import { Constants, Messages } from './messages.ts';

/** Password rules of §5, each with its own message. */
export const Password = z
  .string({ error: Messages.mandatory })
  .min(1, Messages.mandatory)
  .min(Constants.minPasswordLength, Messages.passwordMin)
  .regex(/[a-z]/, Messages.passwordLower)
  .regex(/[A-Z]/, Messages.passwordUpper)
  .regex(/[0-9]/, Messages.passwordNumber)
  .max(Constants.maxPasswordLength, Messages.passwordMax)
  .refine((p) => !isCommonPassword(p), Messages.passwordCommon);

/** RFC 5321 §4.5.3.1: at most 64 octets before the @ and 254 in all (a path's 256 minus <>). */
/** A phone number as people write one: digits, spaces, +, ( ) and -, 5 to 30 characters. */
export const PHONE_NUMBER = /^[+0-9 ()-]{5,30}$/;

export const Email = z
  .string({ error: Messages.mandatory })
  .trim()
  .min(1, Messages.mandatory)
  .max(254, Messages.emailTooLong)
  .refine((e) => e.length > 254 || e.lastIndexOf('@') <= 64, Messages.emailLocalTooLong)
  .pipe(z.email(Messages.invalidEmail))
  .transform((e) => e.toLowerCase());

const Required = z.string({ error: Messages.mandatory }).trim().min(1, Messages.mandatory);

/** ISO calendar date (YYYY-MM-DD) in the past. */
export const BirthDate = Required.regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a valid date').refine(
  (d) => !Number.isNaN(Date.parse(d)) && Date.parse(d) < Date.now(),
  'Please enter a valid date',
);

export const PublicUser = z.object({
  id: z.string(),
  name: z.string(),
  surname: z.string(),
  email: z.string(),
  birthDate: z.string(),
  address: z.string().nullable(),
  country: z.string().nullable(),
  state: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  language: z.enum(['en', 'tr']),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** Server side of registration: the confirmation fields are checked by the form. */
export const RegisterBody = z.object({
  name: Required,
  surname: Required,
  birthDate: BirthDate,
  email: Email,
  password: Password,
  termsAccepted: z.literal(true, { error: Messages.confirmToContinue }),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

/** The registration form: body plus password confirmation. */
export const RegisterForm = z
  .object({
    name: Required,
    surname: Required,
    birthDate: BirthDate,
    email: Email,
    password: Password,
    passwordConfirmation: z.string().min(1, Messages.mandatory),
    termsAccepted: z.boolean().refine((v) => v, Messages.confirmToContinue),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: Messages.passwordsMismatch,
    path: ['passwordConfirmation'],
  });
export type RegisterForm = z.infer<typeof RegisterForm>;

export const RegisterResponse = z.object({ user: PublicUser });

export const VerifyBody = z.object({
  email: Email,
  code: z.string().regex(/^\d{6}$/, 'The code has 6 digits'),
});
export const ResendCodeBody = z.object({ email: Email });

export const LoginBody = z.object({
  email: Email,
  password: z.string({ error: Messages.mandatory }).min(1, Messages.mandatory),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const TokenPair = z.object({ token: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof TokenPair>;
export const LoginResponse = TokenPair.extend({ user: PublicUser });
export type LoginResponse = z.infer<typeof LoginResponse>;
export const SessionResponse = z.object({ user: PublicUser });

export const RefreshBody = z.object({ refreshToken: z.string().min(1) });
export const LogoutBody = z.object({ refreshToken: z.string().optional() });

export const PasswordResetRequestBody = z.object({ email: Email });
export const PasswordResetBody = z.object({ password: Password });
export const PasswordResetForm = z
  .object({ password: Password, passwordConfirmation: z.string().min(1, Messages.mandatory) })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: Messages.passwordsMismatch,
    path: ['passwordConfirmation'],
  });

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** Answer of a successful verification: the verified user (log in next). */
export const VerifyResponse = z.object({ user: PublicUser, message: z.string() });
export type VerifyResponse = z.infer<typeof VerifyResponse>;

/** Answer of GET /api/auth/password-reset/:token when the link is still usable. */
export const PasswordResetTokenResponse = z.object({ email: z.string() });
export type PasswordResetTokenResponse = z.infer<typeof PasswordResetTokenResponse>;

/** A reset token as sent in the e-mailed link: 32 random bytes, base64url. */
export const ResetTokenParam = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,128}$/, 'Malformed reset token'),
});

/**
 * Cookie names of the session (spec §3): an environment prefix (development, test, or the
 * fallback `rarelens`) plus the access/refresh suffix. The refresh cookie is scoped to /api/auth.
 */
export function cookieNames(nodeEnv: string | undefined): {
  access: string;
  refresh: string;
  refreshedAt: string;
} {
  const prefix =
    nodeEnv === 'development' ? 'development' : nodeEnv === 'test' ? 'test' : 'rarelens';
  return {
    access: `${prefix}.access-token`,
    refresh: `${prefix}.refresh-token`,
    refreshedAt: `${prefix}.${REFRESHED_AT_COOKIE_SUFFIX}`,
  };
}

/**
 * Suffix of the readable (not httpOnly) cookie holding the last-refreshed time (ms since epoch,
 * spec §3 "a last-refreshed timestamp is kept"). It lives as long as the refresh token and holds
 * no secret: the web app reads it to know that a session may exist, so a visitor's page does not
 * ask for a session it does not have (§4: "fetching the session without a token does nothing").
 */
export const REFRESHED_AT_COOKIE_SUFFIX = 'refreshed-at';
