/** Small helpers shared by the server's integration tests. */
import { randomBytes } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import type { SmtpInbox } from './smtp-inbox.ts';

export const PASSWORD = 'Corr3ctHorse';

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.org`;
}

export function registerBody(email: string, password = PASSWORD) {
  return {
    name: 'Ada',
    surname: 'Lovelace',
    birthDate: '1985-12-10',
    email,
    password,
    termsAccepted: true,
  };
}

/** Verification mails received for `email`, oldest first. */
export function verificationMails(inbox: SmtpInbox, email: string) {
  return inbox.messages.filter(
    (m) => m.to.includes(email) && m.subject.includes('verification code'),
  );
}

/** The 6-digit code of the `nth` (1-based) verification mail to `email`, waiting for it. */
export async function readVerificationCode(
  inbox: SmtpInbox,
  email: string,
  nth = 1,
): Promise<string> {
  await inbox.waitFor(email, () => verificationMails(inbox, email).length >= nth);
  const mail = verificationMails(inbox, email)[nth - 1]!;
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (code === undefined) throw new Error(`no 6-digit code in mail: ${mail.text}`);
  return code;
}

/** POST /api/auth/login with `email` and `password` (the raw answer, for status checks). */
export function logIn(app: FastifyInstance, email: string, password = PASSWORD): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
}

/** The Authorization header of a signed-in user. */
export function bearer(user: { token: string }): { authorization: string } {
  return { authorization: `Bearer ${user.token}` };
}

/** GET /api/auth/session with `token` as the bearer (the raw answer, for status checks). */
export function getSession(app: FastifyInstance, token: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: '/api/auth/session', headers: { authorization: `Bearer ${token}` } });
}

/** POST /api/auth/refresh with `refreshToken` in the body (the raw answer, for status checks). */
export function refreshWith(app: FastifyInstance, refreshToken: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
}

/** Registers, verifies through the real e-mail, and logs in; returns the login answer. */
export async function signUpAndLogIn(
  app: FastifyInstance,
  inbox: SmtpInbox,
  email = uniqueEmail(),
  password = PASSWORD,
): Promise<{ email: string; token: string; refreshToken: string; userId: string }> {
  const reg = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: registerBody(email, password),
  });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  const code = await readVerificationCode(inbox, email);
  const verify = await app.inject({
    method: 'POST',
    url: '/api/auth/verify',
    payload: { email, code },
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  const login = await logIn(app, email, password);
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const body = login.json<{ token: string; refreshToken: string; user: { id: string } }>();
  return { email, token: body.token, refreshToken: body.refreshToken, userId: body.user.id };
}

export function cookieOf(response: LightMyRequestResponse, name: string) {
  return response.cookies.find((c) => c.name === name);
}

/** The `n` column of a `select count(*)::int as n …` query, on the app's database. */
export async function countOf(app: FastifyInstance, query: SQL): Promise<number> {
  const result: unknown = await app.database.db.execute(query);
  return Number((result as { rows: { n: number }[] }).rows[0]!.n);
}

export { freePort } from './free-port.ts';
