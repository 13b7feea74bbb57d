/**
 * Every route: a 401 case (or proof that it is public) and a 400 case, with the error shape
 * `{ code, message }` (+ `issues` on validation failures).
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { signUpAndLogIn, uniqueEmail } from '../testing/helpers.ts';
import type { SmtpInbox } from '../testing/smtp-inbox.ts';
import { useTestApp } from '../testing/test-app.ts';

let inbox: SmtpInbox;
let app: FastifyInstance;
let token: string;
useTestApp({}, async (test) => {
  ({ app, inbox } = test);
  token = (await signUpAndLogIn(app, inbox)).token;
});

const validResetToken = 'A'.repeat(43);

describe('401 on every route that needs a session or credentials', () => {
  const protectedRoutes: InjectOptions[] = [
    { method: 'GET', url: '/api/auth/session' },
    { method: 'GET', url: '/api/account' },
    { method: 'PUT', url: '/api/account', payload: {} },
    { method: 'PUT', url: '/api/account/password', payload: {} },
    { method: 'POST', url: '/api/auth/refresh', payload: {} },
    { method: 'POST', url: '/api/auth/logout', payload: {} },
  ];

  it.each(protectedRoutes)(
    '$method $url without credentials -> 401 unauthorized',
    async (route) => {
      const res = await app.inject(route);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'unauthorized', message: 'Authentication required' });
    },
  );

  it.each(protectedRoutes.filter((r) => r.url !== '/api/auth/refresh'))(
    '$method $url with a malformed bearer token -> 401',
    async (route) => {
      const res = await app.inject({ ...route, headers: { authorization: 'Bearer not-a-jwt' } });
      expect(res.statusCode).toBe(401);
      expect(res.json<{ code: string }>().code).toBe('unauthorized');
    },
  );

  it('POST /api/auth/refresh with an unknown refresh token -> 401', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: 'x'.repeat(43) },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json<{ code: string }>().code).toBe('invalid_refresh_token');
  });

  it('POST /api/auth/login with wrong credentials -> 401', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: uniqueEmail(), password: 'Whatever1' },
    });
    expect(res.statusCode).toBe(401);
  });

  it.each<InjectOptions>([
    { method: 'POST', url: '/api/auth/register', payload: { email: 'not-an-email' } },
    { method: 'POST', url: '/api/auth/verify', payload: { email: uniqueEmail(), code: '123456' } },
    { method: 'POST', url: '/api/auth/resend-code', payload: { email: uniqueEmail() } },
    { method: 'POST', url: '/api/auth/password-reset', payload: { email: uniqueEmail() } },
    { method: 'GET', url: `/api/auth/password-reset/${validResetToken}` },
    {
      method: 'POST',
      url: `/api/auth/password-reset/${validResetToken}`,
      payload: { password: 'Val1dPassword' },
    },
    { method: 'POST', url: '/api/demo-requests', payload: {} },
    { method: 'POST', url: '/api/contact', payload: {} },
    { method: 'GET', url: '/api/health' },
  ])('$method $url is public: never 401 without credentials', async (route) => {
    const res = await app.inject(route);
    expect(res.statusCode).not.toBe(401);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('400 validation_failed on every route that takes input', () => {
  const auth = () => ({ authorization: `Bearer ${token}` });
  /** A registration that is valid but for `change`. */
  const register = (change: Record<string, unknown>): InjectOptions => ({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      name: 'A',
      surname: 'B',
      birthDate: '1990-01-01',
      email: 'a@b.org',
      password: 'Chromatin77',
      termsAccepted: true,
      ...change,
    },
  });
  const cases: { route: () => InjectOptions; path: (string | number)[]; message?: string }[] = [
    {
      route: () => register({ password: 'password' }),
      path: ['password'],
      message: 'At least 1 uppercase character.',
    },
    {
      route: () => register({ termsAccepted: false }),
      path: ['termsAccepted'],
      message: 'Please confirm to continue',
    },
    {
      route: () => ({
        method: 'POST',
        url: '/api/auth/verify',
        payload: { email: 'a@b.org', code: '12a456' },
      }),
      path: ['code'],
    },
    {
      route: () => ({ method: 'POST', url: '/api/auth/resend-code', payload: { email: 'nope' } }),
      path: ['email'],
      message: 'Please write a valid email',
    },
    {
      route: () => ({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'a@b.org', password: '' },
      }),
      path: ['password'],
      message: 'This field is mandatory',
    },
    {
      route: () => ({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: '' } }),
      path: ['refreshToken'],
    },
    {
      route: () => ({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: 42 } }),
      path: ['refreshToken'],
    },
    {
      route: () => ({ method: 'POST', url: '/api/auth/password-reset', payload: { email: '' } }),
      path: ['email'],
      message: 'This field is mandatory',
    },
    {
      route: () => ({ method: 'GET', url: '/api/auth/password-reset/bad%20token' }),
      path: ['token'],
    },
    {
      route: () => ({
        method: 'POST',
        url: `/api/auth/password-reset/${validResetToken}`,
        payload: { password: 'Sh0rt' },
      }),
      path: ['password'],
      message: 'At least 8 characters.',
    },
    {
      route: () => ({
        method: 'PUT',
        url: '/api/account',
        headers: auth(),
        payload: { name: 'A', surname: '', birthDate: '1990-01-01' },
      }),
      path: ['surname'],
      message: 'This field is mandatory',
    },
    {
      route: () => ({
        method: 'PUT',
        url: '/api/account/password',
        headers: auth(),
        payload: { currentPassword: 'x', password: 'NoDigitsHere' },
      }),
      path: ['password'],
      message: 'At least 1 number.',
    },
    {
      route: () => ({
        method: 'POST',
        url: '/api/demo-requests',
        payload: {
          email: 'a@b.org',
          name: 'A',
          surname: 'B',
          jobTitle: 'CTO',
          companyName: 'Lab',
          phone: '+1 555 0100',
          country: 'US',
          yearlySampleCount: 'lots',
        },
      }),
      path: ['yearlySampleCount'],
    },
    {
      route: () => ({
        method: 'POST',
        url: '/api/contact',
        payload: { email: 'a@b.org', name: 'A', surname: 'B', message: '' },
      }),
      path: ['message'],
      message: 'This field is mandatory',
    },
  ];

  const titled = cases.map((c) => {
    const { method, url } = c.route();
    return { ...c, title: `${String(method)} ${url as string} -> ${c.path.join('.')}` };
  });

  it.each(titled)('$title', async ({ route, path, message }) => {
    const res = await app.inject(route());
    expect(res.statusCode).toBe(400);
    const body = res.json<{
      code: string;
      message: string;
      issues: { path: unknown[]; message: string }[];
    }>();
    expect(body.code).toBe('validation_failed');
    const issue = body.issues.find((i) => JSON.stringify(i.path) === JSON.stringify(path));
    expect(issue, JSON.stringify(body.issues)).toBeDefined();
    if (message !== undefined) expect(issue?.message).toBe(message);
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: string }>().code).toBe('bad_request');
  });
});
