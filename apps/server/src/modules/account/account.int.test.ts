import { Messages } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { getSession, logIn, PASSWORD, refreshWith, signUpAndLogIn } from '../../testing/helpers.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { useTestApp } from '../../testing/test-app.ts';

let inbox: SmtpInbox;
let app: FastifyInstance;
useTestApp({}, (test) => void ({ app, inbox } = test));

const profile = {
  name: 'Grace',
  surname: 'Hopper',
  birthDate: '1970-06-01',
  address: '1 Main Street',
  country: 'Türkiye',
  state: 'Istanbul',
  phoneNumber: '+90 555 000 00 00',
  language: 'tr',
};

describe('account information', () => {
  it('reads and updates the signed-in user, answering "Updated"', async () => {
    const { token, email } = await signUpAndLogIn(app, inbox);
    const auth = { authorization: `Bearer ${token}` };

    const before = await app.inject({ method: 'GET', url: '/api/account', headers: auth });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({
      user: { email, name: 'Ada', address: null, language: 'en' },
    });

    const put = await app.inject({
      method: 'PUT',
      url: '/api/account',
      headers: auth,
      payload: profile,
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ message: 'Updated', user: { ...profile, email } });

    const after = await app.inject({ method: 'GET', url: '/api/account', headers: auth });
    expect(after.json()).toMatchObject({ user: profile });

    const cleared = await app.inject({
      method: 'PUT',
      url: '/api/account',
      headers: auth,
      payload: { ...profile, address: '' },
    });
    expect(cleared.json()).toMatchObject({ user: { address: null } });
  });

  it('rejects invalid fields with the spec messages', async () => {
    const { token } = await signUpAndLogIn(app, inbox);
    const res = await app.inject({
      method: 'PUT',
      url: '/api/account',
      headers: { authorization: `Bearer ${token}` },
      payload: { ...profile, name: '  ', birthDate: '2999-01-01', language: 'fr' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: string; issues: { path: string[]; message: string }[] }>();
    expect(body.code).toBe('validation_failed');
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: ['name'], message: Messages.mandatory },
        expect.objectContaining({ path: ['birthDate'] }),
        expect.objectContaining({ path: ['language'] }),
      ]),
    );
  });
});

/** PUT /api/account/password as the holder of `token` (the raw answer). */
const changePassword = (token: string, currentPassword: string, password: string) =>
  app.inject({ method: 'PUT', url: '/api/account/password', headers: { authorization: `Bearer ${token}` }, payload: { currentPassword, password } });

describe('change password', () => {
  it('refuses a wrong current password without touching the session', async () => {
    const { token } = await signUpAndLogIn(app, inbox);
    const res = await changePassword(token, 'Wr0ngPassword', 'N3wPassword');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'wrong_current_password',
      message: Messages.wrongCurrentPassword,
    });
    const session = await getSession(app, token);
    expect(session.statusCode).toBe(200);
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const current = await signUpAndLogIn(app, inbox);
    const other = await logIn(app, current.email, PASSWORD);
    const otherTokens = other.json<{ token: string; refreshToken: string }>();

    const res = await changePassword(current.token, PASSWORD, 'N3wPassword');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Updated' });

    expect((await getSession(app, current.token)).statusCode).toBe(200);
    expect((await getSession(app, otherTokens.token)).statusCode).toBe(401);
    expect((await refreshWith(app, otherTokens.refreshToken)).statusCode).toBe(401);

    const oldLogin = await logIn(app, current.email, PASSWORD);
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await logIn(app, current.email, 'N3wPassword');
    expect(newLogin.statusCode).toBe(200);
  });
});

describe('account activity', () => {
  it('records sign-ins, failed sign-ins and password changes with where they came from, shows them to the user only, newest first, in pages', async () => {
    const { token, email } = await signUpAndLogIn(app, inbox);
    const other = await signUpAndLogIn(app, inbox);
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '198.51.100.7',
      headers: { 'user-agent': 'Mallory/1.0' },
      payload: { email, password: 'Wr0ngPassword' },
    });
    expect(wrong.statusCode).toBe(401);
    const change = await changePassword(token, PASSWORD, 'Chromatin-2026');
    expect(change.statusCode).toBe(200);

    const res = await app.inject({ method: 'GET', url: '/api/account/activity', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    const { events, nextCursor } = res.json<{ events: { kind: string; ip: string | null; userAgent: string | null; detail: Record<string, unknown> }[]; nextCursor: string | null }>();
    expect(events.map((e) => e.kind)).toEqual(['password_changed', 'sign_in_failed', 'sign_in']);
    expect(events[1]).toMatchObject({ ip: '198.51.100.7', userAgent: 'Mallory/1.0', detail: { reason: 'wrong password' } });
    expect(nextCursor).toBeNull();
    // No password, token or hash is ever stored with an event.
    expect(JSON.stringify(events)).not.toMatch(/Wr0ngPassword|Chromatin-2026|\$argon2/);

    // The other user sees only their own sign-in.
    const theirs = await app.inject({ method: 'GET', url: '/api/account/activity', headers: { authorization: `Bearer ${other.token}` } });
    expect(theirs.json<{ events: { kind: string }[] }>().events.map((e) => e.kind)).toEqual(['sign_in']);

    // Keyset pages: one event per page walks the same three events.
    const page = async (cursor: string | null): Promise<{ events: { kind: string }[]; nextCursor: string | null }> =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/account/activity?limit=1${cursor === null ? '' : `&cursor=${cursor}`}`,
          headers: { authorization: `Bearer ${token}` },
        })
      ).json();
    const kinds: string[] = [];
    let cursor: string | null = null;
    do {
      const body = await page(cursor);
      kinds.push(...body.events.map((e) => e.kind));
      cursor = body.nextCursor;
    } while (cursor !== null && kinds.length < 10);
    expect(kinds).toEqual(['password_changed', 'sign_in_failed', 'sign_in']);

    const bad = await app.inject({ method: 'GET', url: '/api/account/activity?cursor=nonsense', headers: { authorization: `Bearer ${token}` } });
    expect(bad.statusCode).toBe(400);
    const anonymous = await app.inject({ method: 'GET', url: '/api/account/activity' });
    expect(anonymous.statusCode).toBe(401);
  });
});
