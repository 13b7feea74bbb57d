/**
 * A user's data as a whole (issue 16, item 8): the export holds everything kept about them, and
 * deleting the account removes it all — rows, shares, and the case files in storage.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine } from '../src/jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../src/jobs/testing/fixture-vcf.ts';
import { countOf, PASSWORD, readVerificationCode, registerBody, signUpAndLogIn } from '../src/testing/helpers.ts';
import { multipartBody, waitForStatus } from '../src/testing/multipart.ts';
import type { SmtpInbox } from '../src/testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../src/testing/test-app.ts';
import { bearer } from '../src/testing/helpers.ts';

let test: TestApp;
let app: FastifyInstance;
let inbox: SmtpInbox;
let alice: { email: string; token: string; userId: string };
let bob: { email: string; token: string };
let caseUuid: string;

beforeAll(async () => {
  const fixture = createFixtureEngine({ genePhenotypes: { TTN: ['HP:0001250'] } });
  test = await createTestApp({ cases: { engine: () => Promise.resolve(fixture), jobs: { inProcessWorker: true, pollMs: 100 } } });
  inbox = test.inbox;
  app = test.app;
  [alice, bob] = await Promise.all([signUpAndLogIn(app, inbox), signUpAndLogIn(app, inbox)]);
  const { body, contentType } = multipartBody(
    { caseId: 'MY-DATA-1', gender: 'female', symptoms: 'Seizures', hpoTerms: JSON.stringify(['HP:0001250']), assembly: 'GRCh38' },
    [{ field: 'genomeFile', name: 'mine.vcf', content: buildFixtureVcf(50, ['TTN']) }],
  );
  const created = await app.inject({ method: 'POST', url: '/api/products', headers: { ...bearer(alice), 'content-type': contentType }, payload: body });
  caseUuid = created.json<{ id: string }>().id;
  expect((await waitForStatus(app, bearer(alice), caseUuid, ['Completed', 'Error'], 60_000)).status).toBe('Completed');
  expect((await app.inject({ method: 'POST', url: `/api/products/${caseUuid}/shares`, headers: bearer(alice), payload: { email: bob.email } })).statusCode).toBeLessThan(300);
  const variant = (await app.inject({ method: 'GET', url: `/api/products/${caseUuid}/variants?pageSize=1`, headers: bearer(alice) })).json<{ items: { id: number }[] }>().items[0]!;
  expect((await app.inject({ method: 'POST', url: `/api/products/${caseUuid}/report-items`, headers: bearer(alice), payload: { variantId: variant.id } })).statusCode).toBe(201);
  expect((await app.inject({ method: 'POST', url: `/api/products/${caseUuid}/reports`, headers: bearer(alice), payload: {} })).statusCode).toBe(201);
  expect((await app.inject({ method: 'POST', url: '/api/orders', headers: bearer(alice), payload: { plan: 'basic', casesPerMonth: 1, addOns: [] } })).statusCode).toBe(201);
}, 120_000);

afterAll(async () => {
  await test?.close();
});

describe('account data', () => {
  it('exports everything kept about the user as one JSON document', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/account/export', headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="rarelens-account-\d{4}-\d{2}-\d{2}\.json"/);
    const data = res.json<{
      format: string;
      account: { email: string };
      cases: { caseId: string; files: { name: string; download: string }[]; sharedWith: { email: string }[]; reportingList: unknown[] }[];
      orders: { plan: string }[];
      activity: { kind: string }[];
    }>();
    expect(data.format).toBe('rarelens-account-export');
    expect(data.account.email).toBe(alice.email);
    expect(data.cases).toHaveLength(1);
    expect(data.cases[0]).toMatchObject({ caseId: 'MY-DATA-1', sharedWith: [{ email: bob.email }] });
    expect(data.cases[0]!.files[0]).toMatchObject({ name: 'mine.vcf', download: `http://rarelens.test/api/products/${caseUuid}/files/${(data.cases[0]!.files[0] as { id?: string }).id}` });
    expect(data.cases[0]!.reportingList).toHaveLength(1);
    expect(data.orders.map((o) => o.plan)).toEqual(['basic']);
    expect(data.activity.map((a) => a.kind)).toEqual(expect.arrayContaining(['sign_in', 'report_downloaded']));
    expect(res.body).not.toMatch(/password_hash|passwordHash|storage_key|storageKey/);
    // The export is itself recorded.
    const log = await app.inject({ method: 'GET', url: '/api/account/activity', headers: bearer(alice) });
    expect(log.json<{ events: { kind: string }[] }>().events.map((e) => e.kind)).toContain('data_exported');
  });

  it('deletes one case with its files and records it in the activity log', async () => {
    const { body, contentType } = multipartBody(
      { caseId: 'MY-DATA-GONE', gender: 'female', symptoms: 'Seizures', hpoTerms: JSON.stringify(['HP:0001250']), assembly: 'GRCh38' },
      [{ field: 'genomeFile', name: 'gone.vcf', content: buildFixtureVcf(20, ['TTN']) }],
    );
    const created = await app.inject({ method: 'POST', url: '/api/products', headers: { ...bearer(alice), 'content-type': contentType }, payload: body });
    const goneId = created.json<{ id: string }>().id;
    expect((await waitForStatus(app, bearer(alice), goneId, ['Completed', 'Error'], 60_000)).status).toBe('Completed');
    const files = path.join(test.dataDir, 'uploads', 'products', goneId);
    expect(existsSync(files)).toBe(true);
    // Bob (shared with another case, not this one) cannot delete it; Alice can.
    expect((await app.inject({ method: 'DELETE', url: `/api/products/${goneId}`, headers: bearer(bob) })).statusCode).toBe(404);
    const res = await app.inject({ method: 'DELETE', url: `/api/products/${goneId}`, headers: { ...bearer(alice), 'user-agent': 'case-deletion-test' } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/products/${goneId}`, headers: bearer(alice) })).statusCode).toBe(404);
    expect(await countOf(app, sql`select count(*)::int as n from products where id = ${goneId}`)).toBe(0);
    expect(existsSync(files)).toBe(false);
    const log = await app.inject({ method: 'GET', url: '/api/account/activity', headers: bearer(alice) });
    const events = log.json<{ events: { kind: string; detail: Record<string, unknown>; userAgent?: string | null }[] }>().events;
    expect(events.find((e) => e.kind === 'case_deleted')).toMatchObject({ detail: { caseId: 'MY-DATA-GONE' } });
    // The other case is untouched.
    expect((await app.inject({ method: 'GET', url: `/api/products/${caseUuid}`, headers: bearer(alice) })).statusCode).toBe(200);
  }, 120_000);

  it('refuses to delete the account with a wrong password and keeps everything', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/account', headers: bearer(alice), payload: { password: 'not-the-password' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ issues: { path: string[] }[] }>().issues[0]!.path).toEqual(['password']);
    expect((await app.inject({ method: 'GET', url: `/api/products/${caseUuid}`, headers: bearer(alice) })).statusCode).toBe(200);
  });

  it('deletes the account with its cases, shares and files', async () => {
    const uploads = path.join(test.dataDir, 'uploads', 'products', caseUuid);
    expect(existsSync(uploads)).toBe(true);
    // A case shared *with* alice by bob: that share goes too.
    const { body, contentType } = multipartBody(
      { caseId: 'BOBS-1', gender: 'male', symptoms: 'Seizures', hpoTerms: JSON.stringify(['HP:0001250']), assembly: 'GRCh38' },
      [{ field: 'genomeFile', name: 'bob.vcf', content: buildFixtureVcf(20, ['TTN']) }],
    );
    const bobs = (await app.inject({ method: 'POST', url: '/api/products', headers: { ...bearer(bob), 'content-type': contentType }, payload: body })).json<{ id: string }>().id;
    await app.inject({ method: 'POST', url: `/api/products/${bobs}/shares`, headers: bearer(bob), payload: { email: alice.email } });

    const res = await app.inject({ method: 'DELETE', url: '/api/account', headers: bearer(alice), payload: { password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your account and all its data were deleted.' });
    expect(existsSync(uploads)).toBe(false);
    const count = (q: ReturnType<typeof sql>) => countOf(app, q);
    expect(await count(sql`select count(*)::int as n from users where id = ${alice.userId}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from products where id = ${caseUuid}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from product_shares where email = ${alice.email}`)).toBe(0);
    // The old session is dead, the password no longer signs in, the shared user no longer sees the case.
    expect((await app.inject({ method: 'GET', url: '/api/account', headers: bearer(alice) })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: alice.email, password: PASSWORD } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: `/api/products/${caseUuid}`, headers: bearer(bob) })).statusCode).toBe(404);
    // A new account on the same address starts empty: bob's old share does not come back.
    expect((await app.inject({ method: 'POST', url: '/api/auth/register', payload: registerBody(alice.email) })).statusCode).toBe(201);
    const code = await readVerificationCode(inbox, alice.email, 2);
    expect((await app.inject({ method: 'POST', url: '/api/auth/verify', payload: { email: alice.email, code } })).statusCode).toBe(200);
    const again = (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: alice.email, password: PASSWORD } })).json<{ token: string }>();
    const list = await app.inject({ method: 'GET', url: '/api/products', headers: bearer(again) });
    expect(list.json<{ items: unknown[] }>().items).toEqual([]);
  });
});
