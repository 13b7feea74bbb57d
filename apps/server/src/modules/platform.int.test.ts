/** Health, request ids, security headers, demo/contact forms, and serving the built web app. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Messages } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBody, uniqueEmail } from '../testing/helpers.ts';
import type { SmtpInbox } from '../testing/smtp-inbox.ts';
import { createTestApp, useTestApp, type TestApp } from '../testing/test-app.ts';

let inbox: SmtpInbox;
let app: FastifyInstance;
useTestApp({}, (test) => void ({ app, inbox } = test));

describe('platform', () => {
  it('reports health with the PostgreSQL database and the server version', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'postgres', version: '0.1.0' });
  });

  it('echoes a safe incoming x-request-id and generates one otherwise', async () => {
    const kept = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'proxy-42' },
    });
    expect(kept.headers['x-request-id']).toBe('proxy-42');
    const replaced = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id\n' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers with a self-only script policy', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain('blob:');
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers unknown API paths with 404 not_found JSON', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('stores a demo request and e-mails the sales inbox', async () => {
    const email = uniqueEmail('lab');
    const res = await app.inject({
      method: 'POST',
      url: '/api/demo-requests',
      payload: {
        email,
        name: 'Rosalind',
        surname: 'Franklin',
        jobTitle: 'Lab director',
        companyName: 'Helix <Labs>',
        phone: '+44 20 7946 0000',
        country: 'United Kingdom',
        yearlySampleCount: '201-1000',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: Messages.demoRequestSent });
    const mail = await inbox.waitFor('no-reply@rarelens.local', (m) => m.text.includes(email));
    expect(mail.subject).toBe('Demo request from Helix <Labs>');
    expect(mail.text).toContain('Yearly sample count: 201-1000');
    expect(mail.raw).toMatch(new RegExp(`Reply-To: ${email}`, 'i'));
    expect(mail.raw).toContain('Helix &lt;Labs&gt;');
    const rows = await app.database.executeSql(
      'select company_name from demo_requests where email = $1',
      [email],
    );
    expect(rows.rows).toEqual([{ company_name: 'Helix <Labs>' }]);
  });

  it('stores a contact message and forwards it', async () => {
    const email = uniqueEmail('contact');
    const res = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { email, name: 'Barbara', surname: 'McClintock', message: 'Do you support GRCh37?' },
    });
    expect(res.statusCode).toBe(201);
    const mail = await inbox.waitFor('no-reply@rarelens.local', (m) => m.text.includes(email));
    expect(mail.text).toContain('Do you support GRCh37?');
    const rows = await app.database.executeSql(
      'select message from contact_messages where email = $1',
      [email],
    );
    expect(rows.rows).toHaveLength(1);
  });
});

describe('when the mail server is down', () => {
  it('answers 500 with the request id and does not create the account', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lines: string[] = [];
    const down = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}`, env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void lines.push(line) } });
    try {
      const email = uniqueEmail('nomail');
      const res = await down.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'x-request-id': 'req-mail-down' },
        payload: registerBody(email),
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        code: 'internal_error',
        message: Messages.somethingWentWrong,
        requestId: 'req-mail-down',
      });
      const rows = await down.app.database.executeSql('select id from users where email = $1', [
        email,
      ]);
      expect(rows.rows).toHaveLength(0);
      // The error is logged with its stack, and the request's one line says 500; both carry the request id.
      const entries = lines.map((line) => JSON.parse(line) as { reqId?: string; msg: string; err?: { stack?: string }; statusCode?: number });
      const ofRequest = entries.filter((e) => e.reqId === 'req-mail-down');
      const error = ofRequest.find((e) => e.msg === 'unhandled error');
      expect(error?.err?.stack).toMatch(/\n\s+at /);
      expect(ofRequest.filter((e) => e.msg === 'request completed').map((e) => e.statusCode)).toEqual([500]);
    } finally {
      await down.close();
    }
  });
});

describe('serving the built web app', () => {
  let dist: string;
  let web: TestApp;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'rarelens-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><title>RareLens</title><div id="root"></div>',
    );
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
    writeFileSync(path.join(dist, 'version.json'), '{"buildId":"b1"}');
    web = await createTestApp({ inbox, env: { RARELENS_WEB_DIST: dist } });
  });

  afterAll(async () => {
    await web.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html for client routes (SPA fallback) without caching', async () => {
    for (const url of ['/', '/login', '/my-product/123/genes', '/my-product/123/genes/FGFR2', '/home/', '/reset-password/abc?x=1']) {
      const res = await web.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers a path no page has with status 404 and the app, which shows its error page (§8)', async () => {
    for (const url of ['/no/such/page?x=1', '/homes', '/my-product/123/variants', '/my-account/orders']) {
      const res = await web.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets as immutable and version.json without caching', async () => {
    const asset = await web.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const version = await web.app.inject({ method: 'GET', url: '/version.json' });
    expect(version.json()).toEqual({ buildId: 'b1' });
    expect(version.headers['cache-control']).toBe('no-cache');
  });

  it('keeps 404 JSON for unknown API paths and missing files', async () => {
    const api = await web.app.inject({ method: 'GET', url: '/api/nothing' });
    expect(api.statusCode).toBe(404);
    expect(api.json<{ code: string }>().code).toBe('not_found');
    const file = await web.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(file.statusCode).toBe(404);
    const post = await web.app.inject({ method: 'POST', url: '/login' });
    expect(post.statusCode).toBe(404);
  });
});
