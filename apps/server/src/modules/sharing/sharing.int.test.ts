/**
 * Sharing over the API (issue 18): the e-mailed /shared/{token} link, what the owner, a shared
 * user, a token holder, another user and an anonymous caller may do, expiry and revocation.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityResponse, SharedProductResponse, ShareSettingsResponse } from '@rarelens/contract';
import { rowsOf } from '../../db/database.ts';
import { createFixtureEngine } from '../../jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../../jobs/testing/fixture-vcf.ts';
import { signUpAndLogIn, uniqueEmail } from '../../testing/helpers.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

type User = { email: string; token: string };
let test: TestApp;
let app: FastifyInstance;
let inbox: SmtpInbox;
let owner: User;
let colleague: User;
let other: User;
let caseUuid: string;
const CASE_ID = 'SHARE-CASE-42';

const bearer = (u: User) => ({ authorization: `Bearer ${u.token}` });

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as?: User, payload?: object) {
  return app.inject({ method, url, headers: as ? bearer(as) : {}, ...(payload ? { payload } : {}) });
}

/** Shares the case with `email` and returns the token of the link in the e-mail it received. */
async function shareAndReadLink(email: string): Promise<string> {
  const before = inbox.messages.length;
  const res = await call('POST', `/api/products/${caseUuid}/shares`, owner, { email });
  expect(res.statusCode, res.body).toBe(200);
  const mail = await inbox.waitFor(email, (m) => inbox.messages.indexOf(m) >= before && m.subject.includes(CASE_ID));
  const match = /http:\/\/rarelens\.test\/shared\/([A-Za-z0-9_-]+)/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  return match![1]!;
}

async function settings(): Promise<ShareSettingsResponse['items']> {
  const res = await call('GET', '/api/shares', owner);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ShareSettingsResponse>().items;
}

async function activityKinds(user: User): Promise<string[]> {
  const res = await call('GET', '/api/account/activity', user);
  expect(res.statusCode).toBe(200);
  return res.json<ActivityResponse>().events.map((e) => e.kind);
}

beforeAll(async () => {
  const fixture = createFixtureEngine({ genePhenotypes: { FGFR2: ['HP:0000244'], BRCA1: ['HP:0003002'], TTN: [] } });
  test = await createTestApp({ cases: { engine: () => Promise.resolve(fixture), jobs: { inProcessWorker: true, pollMs: 100 } } });
  inbox = test.inbox;
  app = test.app;
  [owner, colleague, other] = await Promise.all([signUpAndLogIn(app, inbox), signUpAndLogIn(app, inbox), signUpAndLogIn(app, inbox)]);
  const { body, contentType } = multipartBody(
    { caseId: CASE_ID, gender: 'female', symptoms: 'Craniosynostosis', hpoTerms: JSON.stringify(['HP:0000244']), assembly: 'GRCh38' },
    [{ field: 'genomeFile', name: 'share.vcf', content: buildFixtureVcf(200, ['TTN', 'BRCA1', 'FGFR2']) }],
  );
  const created = await app.inject({ method: 'POST', url: '/api/products', headers: { ...bearer(owner), 'content-type': contentType }, payload: body });
  expect(created.statusCode, created.body).toBe(202);
  caseUuid = created.json<{ id: string }>().id;
  const done = await waitForStatus(app, bearer(owner), caseUuid, ['Completed', 'Error'], 120_000);
  expect(done.status).toBe('Completed');
}, 180_000);

afterAll(async () => {
  await test?.close();
});

describe('sharing with a link', () => {
  it('e-mails a 256-bit link whose token is stored only as its sha256, and the link opens the phenotypes without login', async () => {
    const email = uniqueEmail('nobody-yet');
    const token = await shareAndReadLink(email);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(token).toHaveLength(43);

    const stored = rowsOf(await app.database.db.execute(sql`select token_hash, expires_at from share_links where email = ${email}`));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const days = (new Date(String(stored[0]!.expires_at)).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const everywhere = rowsOf(await app.database.db.execute(sql`select count(*)::int as n from share_links where token_hash = ${token}`));
    expect(Number(everywhere[0]!.n)).toBe(0);

    const opened = await call('GET', `/api/shared/${token}`);
    expect(opened.statusCode, opened.body).toBe(200);
    const shared = opened.json<SharedProductResponse>();
    expect(shared.product).toMatchObject({ id: caseUuid, caseId: CASE_ID, sharedBy: owner.email, sharedByName: 'Ada Lovelace', sharedWith: email, status: 'Completed' });
    expect(shared.product.hpoTerms.map((t) => t.id)).toEqual(['HP:0000244']);
    expect(shared.phenotypes.length).toBeGreaterThan(0);
    const ownerView = await call('GET', `/api/products/${caseUuid}/phenotypes?pageSize=100`, owner);
    expect(shared.phenotypes.map((p) => p.id)).toEqual(ownerView.json<{ items: { id: string }[] }>().items.map((p) => p.id));

    // The owner sees who opened what and when.
    const row = (await settings()).find((s) => s.email === email)!;
    expect(row).toMatchObject({ productId: caseUuid, caseId: CASE_ID, status: 'active', openCount: 1 });
    expect(row.lastOpenedAt).not.toBeNull();
    const kinds = await activityKinds(owner);
    expect(kinds).toContain('share_created');
    expect(kinds).toContain('share_opened');
  });

  it('lets a token holder read only: the token is no credential for any case route', async () => {
    const token = await shareAndReadLink(uniqueEmail('holder'));
    const asBearer = { authorization: `Bearer ${token}` };
    for (const [method, url] of [
      ['GET', `/api/products/${caseUuid}`],
      ['GET', `/api/products/${caseUuid}/phenotypes`],
      ['POST', `/api/products/${caseUuid}/shares`],
      ['PUT', `/api/products/${caseUuid}/phenotype-terms`],
      ['GET', `/api/products/${caseUuid}/files/x`],
      ['GET', '/api/shares'],
    ] as const) {
      const res = await app.inject({ method, url, headers: asBearer, payload: method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('names the sender in the e-mail by their account name (as the profile says it now) with their address, and greets a recipient with an account by name', async () => {
    const profile = (await call('GET', '/api/account', owner)).json<{ user: Record<string, unknown> }>().user;
    const renamed = await call('PUT', '/api/account', owner, { name: 'Rosalind', surname: "O'Franklin", birthDate: profile.birthDate, language: 'en' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    try {
      const stranger = uniqueEmail('named');
      await shareAndReadLink(stranger);
      const mail = inbox.messages.filter((m) => m.to.includes(stranger)).at(-1)!;
      expect(mail.subject).toBe(`Rosalind O'Franklin shared the phenotypes of case ${CASE_ID} with you on RareLens`);
      expect(mail.text).toMatch(/^Hello,\n/);
      expect(mail.text).toContain(`Rosalind O'Franklin (${owner.email}) shared the ranked phenotypes of case ${CASE_ID} with you (read only).`);
      expect(mail.text).toContain("unless Rosalind O'Franklin unshares it before.");
      expect(mail.text).toContain(`Reply to Rosalind O'Franklin at ${owner.email}.`);
      expect(mail.html).toContain(`<strong>Rosalind O&#39;Franklin</strong> (<a href="mailto:${owner.email}">${owner.email}</a>) shared the ranked phenotypes`);
      expect(mail.raw).toMatch(new RegExp(`^Reply-To: ${owner.email.replace(/[.+]/g, '\\$&')}`, 'mi'));

      await shareAndReadLink(colleague.email);
      const toColleague = inbox.messages.filter((m) => m.to.includes(colleague.email)).at(-1)!;
      expect(toColleague.text).toMatch(/^Hello Ada,\n/);
      expect(toColleague.html).toContain('<p>Hello Ada,</p>');
    } finally {
      await call('PUT', '/api/account', owner, { name: profile.name, surname: profile.surname, birthDate: profile.birthDate, language: 'en' });
    }
  });

  it('lets a shared user with an account read the case under "Shared with me", never change, re-share or download the original', async () => {
    await shareAndReadLink(colleague.email);
    const list = await call('GET', '/api/products', colleague);
    const item = list.json<{ items: { id: string; isOwner: boolean; sharedBy: string | null; sharedByName: string | null }[] }>().items.find((p) => p.id === caseUuid);
    expect(item).toMatchObject({ isOwner: false, sharedBy: owner.email, sharedByName: 'Ada Lovelace' });
    // The case itself names its owner the same way; the owner's own list names no sharer.
    expect((await call('GET', `/api/products/${caseUuid}`, colleague)).json()).toMatchObject({ sharedBy: owner.email, sharedByName: 'Ada Lovelace' });
    const own = (await call('GET', '/api/products', owner)).json<{ items: { id: string; sharedBy: string | null; sharedByName: string | null }[] }>().items.find((p) => p.id === caseUuid);
    expect(own).toMatchObject({ sharedBy: null, sharedByName: null });
    expect((await call('GET', `/api/products/${caseUuid}/phenotypes`, colleague)).statusCode).toBe(200);

    const detail = await call('GET', `/api/products/${caseUuid}`, owner);
    const fileId = detail.json<{ files: { id: string }[] }>().files[0]!.id;
    const refused = [
      await call('POST', `/api/products/${caseUuid}/shares`, colleague, { email: uniqueEmail('reshare') }),
      await call('DELETE', `/api/products/${caseUuid}/shares/${encodeURIComponent(colleague.email)}`, colleague),
      await call('GET', `/api/products/${caseUuid}/shares`, colleague),
      await call('PUT', `/api/products/${caseUuid}/phenotype-terms`, colleague, { hpoTerms: ['HP:0001250'], excludedTerms: [] }),
      await call('GET', `/api/products/${caseUuid}/files/${fileId}`, colleague),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403]);
    // Their own share settings list nothing of the owner's.
    const theirs = await call('GET', '/api/shares', colleague);
    expect(theirs.json<ShareSettingsResponse>().items).toEqual([]);
  });

  it('shows another user and anonymous callers nothing, and refuses unknown tokens', async () => {
    expect((await call('GET', `/api/products/${caseUuid}`, other)).statusCode).toBe(404);
    expect((await call('POST', `/api/products/${caseUuid}/shares`, other, { email: uniqueEmail('x') })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/products/${caseUuid}/shares/${encodeURIComponent(colleague.email)}`, other)).statusCode).toBe(404);
    const otherSettings = await call('GET', '/api/shares', other);
    expect(otherSettings.body).not.toContain(CASE_ID);
    expect((await call('GET', '/api/shares')).statusCode).toBe(401);
    expect((await call('GET', `/api/products/${caseUuid}`)).statusCode).toBe(401);
    const unknown = await call('GET', `/api/shared/${'A'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).not.toContain(CASE_ID);
  });

  it('kills every link of an e-mail and the account access at once when the owner unshares', async () => {
    const email = uniqueEmail('revoked');
    const first = await shareAndReadLink(email);
    const second = await shareAndReadLink(email);
    expect((await call('GET', `/api/shared/${first}`)).statusCode).toBe(200);
    const del = await call('DELETE', `/api/products/${caseUuid}/shares/${encodeURIComponent(email)}`, owner);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json<{ emails: string[] }>().emails).not.toContain(email);
    expect((await call('GET', `/api/shared/${first}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/shared/${second}`)).statusCode).toBe(404);
    expect((await settings()).find((s) => s.email === email)).toMatchObject({ status: 'revoked' });
    expect(await activityKinds(owner)).toContain('share_revoked');
    // Unsharing twice is a 404; sharing again sends a new link that works, the old ones stay dead.
    expect((await call('DELETE', `/api/products/${caseUuid}/shares/${encodeURIComponent(email)}`, owner)).statusCode).toBe(404);
    const third = await shareAndReadLink(email);
    expect((await call('GET', `/api/shared/${third}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/shared/${first}`)).statusCode).toBe(404);

    // An account recipient loses the case at once.
    const del2 = await call('DELETE', `/api/products/${caseUuid}/shares/${encodeURIComponent(colleague.email)}`, owner);
    expect(del2.statusCode).toBe(200);
    expect((await call('GET', `/api/products/${caseUuid}`, colleague)).statusCode).toBe(404);
    const list = await call('GET', '/api/products', colleague);
    expect(list.body).not.toContain(caseUuid);
  });

  it('refuses an expired link and says so in the share settings', async () => {
    const email = uniqueEmail('expired');
    const token = await shareAndReadLink(email);
    await app.database.db.execute(sql`update share_links set expires_at = now() - interval '1 second' where email = ${email}`);
    const res = await call('GET', `/api/shared/${token}`);
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toMatch(/expired/);
    expect((await settings()).find((s) => s.email === email)).toMatchObject({ status: 'expired', openCount: 0, lastOpenedAt: null });
  });

  it('takes the link lifetime from RARELENS_SHARE_LINK_DAYS', async () => {
    const { loadConfig } = await import('../../env.ts');
    expect(loadConfig({ RARELENS_DATA_DIR: test.dataDir, RARELENS_SHARE_LINK_DAYS: '7', JWT_SECRET: 'x'.repeat(32), TOKEN_HASH_SECRET: 'y'.repeat(32) }).shareLinkTtlDays).toBe(7);
    expect(() => loadConfig({ RARELENS_DATA_DIR: test.dataDir, RARELENS_SHARE_LINK_DAYS: '0', JWT_SECRET: 'x'.repeat(32), TOKEN_HASH_SECRET: 'y'.repeat(32) })).toThrow(/RARELENS_SHARE_LINK_DAYS/);
  });
});
