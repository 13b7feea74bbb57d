/**
 * Auth hardening that the other suites do not already prove (issue 16, item 7): cross-site
 * requests riding on the session cookie are refused, cookies carry HttpOnly/SameSite (and Secure
 * in production), the security headers and a strict Content-Security-Policy are sent, and no
 * secret reaches the logs.
 */
import { Writable } from 'node:stream';
import { cookieNames } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/app.ts';
import { PASSWORD, signUpAndLogIn } from '../src/testing/helpers.ts';
import type { SmtpInbox } from '../src/testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../src/testing/test-app.ts';

const names = cookieNames('test');
let test: TestApp;
let app: FastifyInstance;
let inbox: SmtpInbox;
let user: { email: string; token: string; refreshToken: string };

beforeAll(async () => {
  test = await createTestApp();
  inbox = test.inbox;
  app = test.app;
  user = await signUpAndLogIn(app, inbox);
}, 60_000);
afterAll(async () => {
  await test?.close();
});

describe('cross-site request refusal', () => {
  const update = (headers: Record<string, string>, cookies?: Record<string, string>) =>
    app.inject({ method: 'PUT', url: '/api/account', headers, ...(cookies ? { cookies } : {}), payload: { name: 'Ada', surname: 'Byron', birthDate: '1985-12-10' } });

  it('refuses a cookie-authenticated change without an origin or from another site', async () => {
    const cookies = { [names.access]: user.token };
    const none = await update({}, cookies);
    expect(none.statusCode).toBe(403);
    expect(none.json<{ message: string }>().message).toMatch(/^Cross-site request refused/);
    const evil = await update({ origin: 'https://evil.example' }, cookies);
    expect(evil.statusCode).toBe(403);
    expect(evil.json<{ message: string }>().message).toBe('Cross-site request refused: https://evil.example is not this application.');
    const byReferer = await update({ referer: 'https://evil.example/page' }, cookies);
    expect(byReferer.statusCode).toBe(403);
    // The account is unchanged.
    const account = await app.inject({ method: 'GET', url: '/api/account', headers: { authorization: `Bearer ${user.token}` } });
    expect(account.json<{ surname: string }>().surname).not.toBe('Byron');
  });

  it('lets the app itself, and bearer-token clients, through', async () => {
    const cookies = { [names.access]: user.token };
    expect((await update({ origin: 'http://rarelens.test' }, cookies)).statusCode).toBe(200);
    expect((await update({ referer: 'http://rarelens.test/account/profile' }, cookies)).statusCode).toBe(200);
    expect((await update({ authorization: `Bearer ${user.token}` })).statusCode).toBe(200);
    // Reads are not changes.
    const read = await app.inject({ method: 'GET', url: '/api/account', cookies });
    expect(read.statusCode).toBe(200);
  });

  it('refuses a cross-site refresh that rides on the refresh cookie', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { origin: 'https://evil.example' }, cookies: { [names.refresh]: user.refreshToken } });
    expect(res.statusCode).toBe(403);
  });
});

describe('cookies and headers', () => {
  it('sets HttpOnly, SameSite=Lax session cookies (Secure in production)', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: PASSWORD } });
    const setCookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []);
    // The two session cookies, and beside them the readable marker that tells a page a session
    // may exist (its value is a time, never a token).
    expect(setCookie).toHaveLength(3);
    const [session, marker] = [setCookie.filter((c) => !c.startsWith(`${names.refreshedAt}=`)), setCookie.filter((c) => c.startsWith(`${names.refreshedAt}=`))];
    expect(session).toHaveLength(2);
    for (const c of session) expect(c).toMatch(/; HttpOnly/);
    expect(marker).toHaveLength(1);
    expect(marker[0]).not.toMatch(/; HttpOnly/);
    expect(marker[0]).toMatch(new RegExp(`^${names.refreshedAt.replace(/[.]/g, '\\.')}=\\d+;`));
    for (const c of setCookie) {
      expect(c).toMatch(/; SameSite=Lax/);
      expect(c).not.toMatch(/; Secure/);
    }
    const prod = await createTestApp({ env: { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), TOKEN_HASH_SECRET: 'y'.repeat(40) } });
    try {
      const res = await prod.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: PASSWORD } });
      // Another database user set: the answer is a refusal, but the headers are the production ones.
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain('upgrade-insecure-requests');
    } finally {
      await prod.close();
    }
  });

  it('sends a strict Content-Security-Policy and the usual security headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBeDefined();
  });

  it('sends exactly these security headers on every answer, found or not (no HSTS outside production)', async () => {
    const expected = {
      'content-security-policy':
        "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self' blob: data:;worker-src 'self' blob:;media-src 'self' blob:;object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    for (const url of ['/api/health', '/api/no-such-route']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(url === '/api/health' ? 200 : 404);
      expect(res.headers).toMatchObject(expected);
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });
});

describe('request log', () => {
  it('is one line per request at info: method, url without its secrets, status, time and request id', async () => {
    const lines: string[] = [];
    const logged = await createTestApp({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void lines.push(line) } });
    try {
      lines.length = 0;
      const res = await logged.app.inject({ method: 'GET', url: '/api/health?access_token=querysecret&page=2', headers: { 'x-request-id': 'log-line-1' } });
      expect(res.statusCode).toBe(200);
      await logged.app.inject({ method: 'GET', url: '/api/auth/password-reset/resetsecret', headers: { 'x-request-id': 'log-line-2' } });
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const first = entries.filter((e) => e.reqId === 'log-line-1');
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', url: '/api/health?access_token=[redacted]&page=2', statusCode: 200 });
      expect(first[0]!.responseTime).toEqual(expect.any(Number));
      const second = entries.filter((e) => e.reqId === 'log-line-2');
      expect(second).toHaveLength(1);
      expect(second[0]!.url).toBe('/api/auth/password-reset/[redacted]');
      expect(lines.join('')).not.toMatch(/querysecret|resetsecret|incoming request/);
    } finally {
      await logged.close();
    }
  });
});

describe('logs', () => {
  it('never carry passwords, tokens, cookies or the secret of a reset or share link', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const options = loggerOptions({ logLevel: 'info' }) as object;
    const logger = pino(options, sink);
    const secrets = ['Bearer eyJsecret', 'rl.access-token=cookiesecret', 'refreshsecret', 'pw-secret', 'resetsecret', 'sharesecret'];
    logger.info({ req: { method: 'GET', url: '/api/auth/password-reset/resetsecret', headers: { authorization: secrets[0], cookie: secrets[1] } } }, 'request');
    logger.info({ req: { method: 'GET', url: '/api/shared/sharesecret', headers: {} } }, 'request');
    logger.info({ body: { refreshToken: secrets[2], password: secrets[3], token: 'tok' } }, 'body');
    const text = lines.join('');
    expect(text).toContain('/api/auth/password-reset/[redacted]');
    expect(text).toContain('/api/shared/[redacted]');
    for (const s of secrets) expect(text).not.toContain(s.replace(/^Bearer /, ''));
  });
});
