import { cookieNames, Messages } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { deleteExpiredAuthRecords } from './auth.repository.ts';
import { ACCOUNT_RATE_LIMIT } from './auth.routes.ts';
import { createTestApp, useTestApp } from '../../testing/test-app.ts';
import {
  cookieOf,
  getSession,
  logIn,
  PASSWORD,
  readVerificationCode,
  refreshWith,
  registerBody,
  signUpAndLogIn,
  uniqueEmail,
} from '../../testing/helpers.ts';

const names = cookieNames('test');

let inbox: SmtpInbox;
let app: FastifyInstance;
useTestApp({}, (test) => void ({ app, inbox } = test));

async function sql<T = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const result = await app.database.executeSql(text, values);
  return result.rows as T[];
}

/** POSTs `{ email }` to an auth route that mails the address and expects 200 with `message`. */
async function postEmailExpecting(url: string, email: string, message: string): Promise<void> {
  const res = await app.inject({ method: 'POST', url, payload: { email } });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ message });
}

describe('sign-up, verification, login, session, refresh, logout', () => {
  it('runs the whole account life cycle with the code from a real SMTP server', async () => {
    const email = uniqueEmail('Flow').toUpperCase().replace('@EXAMPLE.ORG', '@Example.org');
    const lower = email.toLowerCase();

    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registerBody(email),
    });
    expect(reg.statusCode).toBe(201);
    const regUser = reg.json<{ user: Record<string, unknown> }>().user;
    expect(regUser).toMatchObject({
      email: lower,
      name: 'Ada',
      surname: 'Lovelace',
      emailVerified: false,
    });
    expect(regUser).not.toHaveProperty('passwordHash');

    const code = await readVerificationCode(inbox, lower);
    expect(code).toMatch(/^\d{6}$/);
    const [stored] = await sql<{ code_hash: string }>(
      'select c.code_hash from email_verification_codes c join users u on u.id = c.user_id where u.email = $1',
      [lower],
    );
    expect(stored?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.code_hash).not.toContain(code);

    const early = await logIn(app, lower, PASSWORD);
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({
      code: 'email_not_verified',
      message: Messages.emailNotVerified,
    });

    const wrong = code === '000000' ? '000001' : '000000';
    const bad = await app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { email: lower, code: wrong },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      code: 'invalid_verification_code',
      message: Messages.invalidVerificationCode,
    });

    const verified = await app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { email, code },
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ user: { email: lower, emailVerified: true } });

    const again = await app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { email, code },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ code: string }>().code).toBe('email_already_verified');

    const login = await logIn(app, email);
    expect(login.statusCode).toBe(200);
    const first = login.json<{ token: string; refreshToken: string; user: { email: string } }>();
    expect(first.user.email).toBe(lower);
    expect(first.token.split('.')).toHaveLength(3);
    expect(first.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const access = cookieOf(login, names.access);
    const refresh = cookieOf(login, names.refresh);
    expect(access).toMatchObject({
      value: first.token,
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      maxAge: 1800,
    });
    expect(access?.secure).toBeFalsy();
    expect(refresh).toMatchObject({
      value: first.refreshToken,
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'Lax',
    });
    const [tokenRow] = await sql<{ token_hash: string }>(
      "select token_hash from refresh_tokens where token_hash = encode(sha256($1::bytea), 'hex')",
      [first.refreshToken],
    );
    expect(tokenRow?.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const byBearer = await getSession(app, first.token);
    expect(byBearer.statusCode).toBe(200);
    expect(byBearer.json()).toMatchObject({ user: { email: lower } });
    const byCookie = await app.inject({
      method: 'GET',
      url: '/api/auth/session',
      cookies: { [names.access]: first.token },
    });
    expect(byCookie.statusCode).toBe(200);

    // Rotation: body token -> second pair; cookie token -> third pair.
    const r1 = await refreshWith(app, first.refreshToken);
    expect(r1.statusCode).toBe(200);
    const second = r1.json<{ token: string; refreshToken: string }>();
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(cookieOf(r1, names.refresh)?.value).toBe(second.refreshToken);
    const r2 = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { origin: 'http://rarelens.test' },
      cookies: { [names.refresh]: second.refreshToken },
    });
    expect(r2.statusCode).toBe(200);
    const third = r2.json<{ token: string; refreshToken: string }>();

    // Reusing a rotated token revokes the whole family, including the newest tokens.
    const reuse = await refreshWith(app, first.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json<{ code: string }>().code).toBe('invalid_refresh_token');
    const afterReuse = await refreshWith(app, third.refreshToken);
    expect(afterReuse.statusCode).toBe(401);
    const sessionAfterReuse = await getSession(app, third.token);
    expect(sessionAfterReuse.statusCode).toBe(401);
    expect(sessionAfterReuse.json<{ code: string }>().code).toBe('unauthorized');

    // A new login, then logout with cookies: both cookies cleared, refresh token revoked.
    const login2 = await logIn(app, email);
    const fresh = login2.json<{ token: string; refreshToken: string }>();
    const logout = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'http://rarelens.test' },
      cookies: { [names.access]: fresh.token, [names.refresh]: fresh.refreshToken },
    });
    expect(logout.statusCode).toBe(200);
    expect(cookieOf(logout, names.access)).toMatchObject({ value: '', path: '/' });
    expect(cookieOf(logout, names.refresh)).toMatchObject({ value: '', path: '/api/auth' });
    expect(new Date(cookieOf(logout, names.access)!.expires!).getTime()).toBeLessThan(Date.now());
    const [revoked] = await sql<{ revoked: boolean }>(
      "select revoked_at is not null as revoked from refresh_tokens where token_hash = encode(sha256($1::bytea), 'hex')",
      [fresh.refreshToken],
    );
    expect(revoked?.revoked).toBe(true);
    const refreshAfterLogout = await refreshWith(app, fresh.refreshToken);
    expect(refreshAfterLogout.statusCode).toBe(401);
    const sessionAfterLogout = await getSession(app, fresh.token);
    expect(sessionAfterLogout.statusCode).toBe(401);
  });

  it('logs out with only an expired access token, ending its session', async () => {
    const { userId, token, refreshToken } = await signUpAndLogIn(app, inbox);
    const { sessionId } = await app.tokens.verifyAccessToken(token);
    const expired = await app.tokens.signAccessToken(
      { userId, sessionId },
      Date.now() - 2 * 3600_000,
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${expired}` },
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    const refresh = await refreshWith(app, refreshToken);
    expect(refresh.statusCode).toBe(401);
  });

  it('refuses a second account with the same address in any letter case', async () => {
    const email = uniqueEmail('dup');
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registerBody(email),
        })
      ).statusCode,
    ).toBe(201);
    const dup = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registerBody(email.toUpperCase()),
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ code: 'email_taken', message: Messages.emailTaken });
  });

  it('answers wrong passwords and unknown addresses alike, in similar time', async () => {
    const { email } = await signUpAndLogIn(app, inbox);
    const time = async (payload: object) => {
      const started = performance.now();
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload });
      return { ms: performance.now() - started, res };
    };
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      const w = await time({ email, password: 'Wr0ngPassword' });
      const u = await time({ email: uniqueEmail('ghost'), password: 'Wr0ngPassword' });
      expect(w.res.statusCode).toBe(401);
      expect(u.res.statusCode).toBe(401);
      expect(w.res.json()).toEqual({
        code: 'invalid_credentials',
        message: 'Incorrect email or password',
      });
      expect(u.res.json()).toEqual(w.res.json());
      wrong.push(w.ms);
      unknown.push(u.ms);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    // Both pay for one argon2id verification; without the dummy hash the unknown case is ~100x faster.
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.4);
  });

  it('answers an expired access token with 401 "jwt expired" and a forged one with 401 unauthorized', async () => {
    const { userId, token } = await signUpAndLogIn(app, inbox);
    const claims = await app.tokens.verifyAccessToken(token);
    const expired = await app.tokens.signAccessToken(
      { userId, sessionId: claims.sessionId },
      Date.now() - 2 * 3600_000,
    );
    const res = await getSession(app, expired);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'token_expired', message: 'jwt expired' });

    const [head, payload] = token.split('.');
    const forged = `${head}.${payload}.${'A'.repeat(43)}`;
    const bad = await getSession(app, forged);
    expect(bad.statusCode).toBe(401);
    expect(bad.json<{ code: string }>().code).toBe('unauthorized');
  });
});

describe('verification codes', () => {
  const verify = (email: string, code: string) => app.inject({ method: 'POST', url: '/api/auth/verify', payload: { email, code } });
  const resend = (email: string) => app.inject({ method: 'POST', url: '/api/auth/resend-code', payload: { email } });

  it('allows five attempts per account and hour; a resend does not buy more, the lock says so and ends after the hour', async () => {
    const email = uniqueEmail('attempts');
    await app.inject({ method: 'POST', url: '/api/auth/register', payload: registerBody(email) });
    const code = await readVerificationCode(inbox, email);
    const wrong = code === '111111' ? '222222' : '111111';
    // Three wrong guesses on the first code, then a new code: only two guesses are left.
    for (let i = 0; i < 3; i++) expect((await verify(email, wrong)).statusCode).toBe(400);
    expect((await resend(email)).statusCode).toBe(200);
    const second = await readVerificationCode(inbox, email, 2);
    const wrong2 = second === '111111' ? '222222' : '111111';
    for (let i = 0; i < 2; i++) {
      const res = await verify(email, wrong2);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(Messages.invalidVerificationCode);
    }
    // The budget is spent: the right code is refused with a message that says why.
    const late = await verify(email, second);
    expect(late.statusCode).toBe(429);
    expect(late.json<{ message: string }>().message).toBe(Messages.verificationLocked);
    // Another resend inside the hour does not unlock it.
    expect((await resend(email)).statusCode).toBe(200);
    const third = await readVerificationCode(inbox, email, 3);
    expect((await verify(email, third)).statusCode).toBe(429);

    // An hour later (the codes' creation moved back), a new code has the whole budget again.
    await sql("update email_verification_codes set created_at = created_at - interval '61 minutes' where user_id = (select id from users where email = $1)", [email]);
    expect((await resend(email)).statusCode).toBe(200);
    const fourth = await readVerificationCode(inbox, email, 4);
    expect((await verify(email, fourth)).statusCode).toBe(200);
  });

  it('refuses an expired code and the older code after a resend', async () => {
    const email = uniqueEmail('expiry');
    await app.inject({ method: 'POST', url: '/api/auth/register', payload: registerBody(email) });
    const first = await readVerificationCode(inbox, email);
    await sql(
      "update email_verification_codes set expires_at = now() - interval '1 second' where user_id = (select id from users where email = $1)",
      [email],
    );
    const expired = await app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { email, code: first },
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json<{ message: string }>().message).toBe(Messages.invalidVerificationCode);

    await app.inject({ method: 'POST', url: '/api/auth/resend-code', payload: { email } });
    const second = await readVerificationCode(inbox, email, 2);
    await app.inject({ method: 'POST', url: '/api/auth/resend-code', payload: { email } });
    const third = await readVerificationCode(inbox, email, 3);
    if (second !== third) {
      const stale = await app.inject({
        method: 'POST',
        url: '/api/auth/verify',
        payload: { email, code: second },
      });
      expect(stale.statusCode).toBe(400);
    }
    const ok = await app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { email, code: third },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('gives the same answer to resend for an unknown address and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    await postEmailExpecting('/api/auth/resend-code', email, Messages.codeSent);
    await new Promise((r) => setTimeout(r, 200));
    expect(inbox.messages.some((m) => m.to.includes(email))).toBe(false);
  });
});

describe('password reset', () => {
  async function requestLink(email: string, nth: number): Promise<string> {
    await postEmailExpecting('/api/auth/password-reset', email, Messages.emailSent);
    await inbox.waitFor(
      email,
      () =>
        inbox.messages.filter((m) => m.to.includes(email) && m.subject.includes('Reset')).length >=
        nth,
    );
    const mail = inbox.messages.filter((m) => m.to.includes(email) && m.subject.includes('Reset'))[
      nth - 1
    ]!;
    const token = /http:\/\/rarelens\.test\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    return token!;
  }

  /** GET /api/auth/password-reset/:token: whether the link is live. */
  const openLink = (token: string) => app.inject({ method: 'GET', url: `/api/auth/password-reset/${token}` });
  /** POST /api/auth/password-reset/:token: sets `password` with the link. */
  const resetWith = (token: string, password: string) =>
    app.inject({ method: 'POST', url: `/api/auth/password-reset/${token}`, payload: { password } });

  /** A dead link: opening it answers 410 "Reset link expired", and so does setting a password with it. */
  async function expectDeadLink(token: string, password: string) {
    const opened = await openLink(token);
    expect(opened.statusCode).toBe(410);
    expect(opened.json()).toEqual({ code: 'reset_link_expired', message: 'Reset link expired' });
    expect((await resetWith(token, password)).statusCode).toBe(410);
  }

  it('rejects an unknown address with the spec text', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: uniqueEmail('nobody') },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 'unknown_email',
      message: 'This email does not correspond to a user',
    });
  });

  it('sets a new password once, ends the old sessions, then the link is expired', async () => {
    const session = await signUpAndLogIn(app, inbox);
    const token = await requestLink(session.email, 1);

    const check = await openLink(token);
    expect(check.statusCode).toBe(200);
    expect(check.json()).toEqual({ email: session.email });

    const weak = await resetWith(token, 'short');
    expect(weak.statusCode).toBe(400);

    const reset = await resetWith(token, 'N3wPassword');
    expect(reset.statusCode).toBe(200);

    const oldPassword = await logIn(app, session.email, PASSWORD);
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await logIn(app, session.email, 'N3wPassword');
    expect(newPassword.statusCode).toBe(200);
    const oldRefresh = await refreshWith(app, session.refreshToken);
    expect(oldRefresh.statusCode).toBe(401);

    await expectDeadLink(token, 'An0therPassword');
  });

  it('expires a link after its 20 minutes and when a newer link is requested', async () => {
    const { email } = await signUpAndLogIn(app, inbox);
    const first = await requestLink(email, 1);
    const [row] = await sql<{ minutes: number }>(
      "select round(extract(epoch from (expires_at - created_at)) / 60)::int as minutes from password_reset_tokens where token_hash = encode(sha256($1::bytea), 'hex')",
      [first],
    );
    expect(row?.minutes).toBe(20);
    await sql(
      "update password_reset_tokens set expires_at = now() - interval '1 second' where token_hash = encode(sha256($1::bytea), 'hex')",
      [first],
    );
    await expectDeadLink(first, 'N3wPassword');

    const second = await requestLink(email, 2);
    const third = await requestLink(email, 3);
    expect((await openLink(second)).statusCode).toBe(410);
    expect((await openLink(third)).statusCode).toBe(200);
  });
});

describe('production cookies', () => {
  it('names cookies with the rarelens prefix and marks them Secure', async () => {
    const prod = await createTestApp({ inbox, env: { NODE_ENV: 'production' } });
    try {
      const { email } = await signUpAndLogIn(prod.app, inbox);
      const login = await logIn(prod.app, email);
      expect(cookieOf(login, 'rarelens.access-token')).toMatchObject({
        secure: true,
        httpOnly: true,
        sameSite: 'Lax',
      });
      expect(cookieOf(login, 'rarelens.refresh-token')).toMatchObject({
        secure: true,
        path: '/api/auth',
      });
      expect(login.headers['strict-transport-security']).toBeDefined();
    } finally {
      await prod.close();
    }
  });
});

describe('housekeeping', () => {
  it('deletes records expired for more than the grace period and keeps live ones', async () => {
    const email = uniqueEmail('house');
    await app.inject({ method: 'POST', url: '/api/auth/register', payload: registerBody(email) });
    await readVerificationCode(inbox, email);
    await app.inject({ method: 'POST', url: '/api/auth/resend-code', payload: { email } });
    await readVerificationCode(inbox, email, 2);
    const userFilter = '(select id from users where email = $1)';
    await sql(
      `update email_verification_codes set expires_at = now() - interval '3 days' where user_id = ${userFilter} and created_at = (select min(created_at) from email_verification_codes where user_id = ${userFilter})`,
      [email],
    );
    const removed = await deleteExpiredAuthRecords(app.database.db, 1);
    expect(removed.codes).toBeGreaterThanOrEqual(1);
    const left = await sql<{ n: number }>(
      `select count(*)::int as n from email_verification_codes where user_id = ${userFilter}`,
      [email],
    );
    expect(left[0]?.n).toBe(1);
  });
});

describe('rate limits', () => {
  it('answers 429 rate_limited past the per-minute limit on auth routes', async () => {
    const limited = await createTestApp({
      inbox,
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' },
    });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await logIn(limited.app, 'x@example.org', 'y');
        codes.push(res.statusCode);
        if (i === 3) expect(res.json<{ code: string }>().code).toBe('rate_limited');
      }
      expect(codes).toEqual([401, 401, 401, 429]);
      const health = await limited.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('limits sign-in, code and reset requests per account too, whatever the address they come from', async () => {
    const target = uniqueEmail('target');
    const other = uniqueEmail('other');
    const codes: number[] = [];
    for (let i = 0; i < ACCOUNT_RATE_LIMIT.max + 1; i++) {
      // A different client address each time: the per-IP limit never sees a repeat.
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: `198.51.100.${i + 1}`,
        payload: { email: target.toUpperCase(), password: 'Wr0ngPassword' },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, ACCOUNT_RATE_LIMIT.max).every((c) => c === 401)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    // The same account's reset and code routes share the budget; another account is untouched.
    const reset = await app.inject({ method: 'POST', url: '/api/auth/password-reset', remoteAddress: '203.0.113.9', payload: { email: target } });
    expect(reset.statusCode).toBe(429);
    expect(reset.json<{ message: string }>().message).toBe(Messages.tooManyRequests);
    const fine = await logIn(app, other, 'Wr0ngPassword');
    expect(fine.statusCode).toBe(401);
  });
});
