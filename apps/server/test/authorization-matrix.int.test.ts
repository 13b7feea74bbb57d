/**
 * Authorization matrix (issue 16, item 1): every route the server registers, called as every
 * actor, against a table of expected outcomes.
 *
 * The route list is read from the running app (`printRoutes`), so a route added without an entry
 * in POLICIES fails this test. Actors: the case owner, a user the case is shared with, another
 * signed-in user, anonymous, a user whose session was revoked (signed out), and a share-link
 * token holder (the real /shared/{token} token sent as a bearer token: it opens nothing).
 *
 * A leak is any of: a 2xx for an actor the policy does not allow; a 403 for someone who cannot see
 * the resource (403 confirms it exists: the answer must be 404); a response to a non-allowed actor
 * that carries the owner's data (case ID, e-mail, file name); any 5xx.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine } from '../src/jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../src/jobs/testing/fixture-vcf.ts';
import { signUpAndLogIn, uniqueEmail } from '../src/testing/helpers.ts';
import { multipartBody, waitForStatus } from '../src/testing/multipart.ts';
import { startSmtpInbox, type SmtpInbox } from '../src/testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../src/testing/test-app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Actor = 'owner' | 'shared' | 'other' | 'anonymous' | 'revoked' | 'holder';
const ACTORS: Actor[] = ['shared', 'other', 'anonymous', 'revoked', 'holder', 'owner'];

/**
 * - public: anyone (sign-up, health, price list…); only checked for 5xx.
 * - auth: any signed-in user, on their own data; anonymous/revoked get 401.
 * - case-read: owner and shared users; others 404 (anonymous/revoked 401).
 * - case-write: owner only; a shared user may get 403 (they know the case), others 404/401.
 * - case-owner-only: reading something only the owner may (original genome, share list);
 *   a shared user gets 403 or 404, others 404/401.
 * - own-resource: a resource of the signed-in user (their conversation, order): others 404/401.
 */
type Policy = 'public' | 'auth' | 'case-read' | 'case-write' | 'case-owner-only' | 'own-resource';

interface RouteCall {
  policy: Policy;
  /** Query string, with the leading '?'. */
  query?: () => string;
  payload?: () => unknown;
  /** Owner call changes state others depend on: run after every other call. */
  destructive?: boolean;
}

const OWNER_EMAIL = () => ctx.owner.email;
const SECRET_CASE_ID = 'MATRIX-SECRET-7731';
const SECRET_FILE = 'matrix-secret-genome.vcf';

/** One entry per route, `METHOD path` as the router declares it. */
const POLICIES: Record<string, RouteCall> = {
  'GET /api/health': { policy: 'public' },
  'GET /api/hpo/terms': { policy: 'auth', query: () => '?q=seizure' },
  'GET /api/raw-data/reference': { policy: 'auth' },
  'POST /api/auth/register': { policy: 'public', payload: () => ({}) },
  'POST /api/auth/resend-code': { policy: 'public', payload: () => ({ email: uniqueEmail('nobody') }) },
  'POST /api/auth/refresh': { policy: 'public', payload: () => ({}) },
  'POST /api/auth/verify': { policy: 'public', payload: () => ({ email: uniqueEmail('nobody'), code: '000000' }) },
  'POST /api/auth/login': { policy: 'public', payload: () => ({ email: uniqueEmail('nobody'), password: 'x' }) },
  'POST /api/auth/logout': { policy: 'public', payload: () => ({}) },
  'GET /api/auth/session': { policy: 'public' },
  'POST /api/auth/password-reset': { policy: 'public', payload: () => ({ email: uniqueEmail('nobody') }) },
  'GET /api/auth/password-reset/:token': { policy: 'public' },
  'POST /api/auth/password-reset/:token': { policy: 'public', payload: () => ({ password: 'Corr3ctHorse!x' }) },
  'GET /api/account': { policy: 'auth' },
  'PUT /api/account': { policy: 'auth', payload: () => ({}) },
  'PUT /api/account/password': { policy: 'auth', payload: () => ({}) },
  'GET /api/account/activity': { policy: 'auth' },
  'GET /api/account/export': { policy: 'auth' },
  // A wrong password: the call is checked for access without deleting anyone.
  'DELETE /api/account': { policy: 'auth', payload: () => ({ password: 'not-the-password' }) },
  'POST /api/demo-requests': { policy: 'public', payload: () => ({}) },
  'POST /api/contact': { policy: 'public', payload: () => ({}) },
  'POST /api/phenome/extract': { policy: 'auth', payload: () => ({ text: 'The child had seizures.' }) },
  'GET /api/plans': { policy: 'public' },
  'GET /api/billing': { policy: 'auth' },
  'GET /api/orders': { policy: 'auth' },
  'POST /api/orders': { policy: 'auth', payload: () => ({}) },
  'GET /api/orders/:id': { policy: 'own-resource' },
  'GET /api/orders/:id/invoice.pdf': { policy: 'own-resource' },
  'POST /api/orders/:id/cancel': { policy: 'own-resource', destructive: true },

  'GET /api/products': { policy: 'auth' },
  'POST /api/products': { policy: 'auth', payload: () => ({}) },
  'GET /api/products/:id': { policy: 'case-read' },
  // The owner's retry of a completed case is refused (409): only a failed analysis is retried.
  'POST /api/products/:id/retry': { policy: 'case-write' },
  'DELETE /api/products/:id': { policy: 'case-write', destructive: true },
  'PUT /api/products/:id/phenotype-terms': {
    policy: 'case-write',
    payload: () => ({ hpoTerms: ['HP:0001250'], excludedTerms: [] }),
  },
  'GET /api/products/:id/phenotypes': { policy: 'case-read' },
  'GET /api/products/:id/phenotypes/:phenotypeId': { policy: 'case-read' },
  'GET /api/products/:id/phenopacket': { policy: 'case-read' },
  'GET /api/products/:id/files/:fileId': { policy: 'case-owner-only' },
  'GET /api/products/:id/genes': { policy: 'case-read' },
  'GET /api/products/:id/genes/:geneId': { policy: 'case-read' },
  'GET /api/products/:id/variants': { policy: 'case-read' },
  'GET /api/products/:id/variants/:variantId': { policy: 'case-read' },
  'PUT /api/products/:id/variants/:variantId/classification': {
    policy: 'case-write',
    payload: () => ({ classification: 'Likely pathogenic', reason: 'matrix check' }),
  },
  'DELETE /api/products/:id/variants/:variantId/classification': { policy: 'case-write', destructive: true },
  'GET /api/products/:id/family': { policy: 'case-read' },
  'GET /api/products/:id/family.ped': { policy: 'case-read' },
  'GET /api/products/:id/variants.tsv': { policy: 'case-read' },
  'GET /api/products/:id/shares': { policy: 'case-owner-only' },
  'GET /api/shares': { policy: 'auth' },
  'GET /api/shared/:token': { policy: 'public' },
  'POST /api/products/:id/shares': { policy: 'case-write', payload: () => ({ email: uniqueEmail('colleague') }) },
  'DELETE /api/products/:id/shares/:email': { policy: 'case-write', destructive: true },
  'GET /api/products/:id/igv/variants.vcf': { policy: 'case-read', query: () => '?region=chr1:1-300000000' },
  'GET /api/products/:id/igv/genes.bed': { policy: 'case-read', query: () => '?region=chr1:1-300000000' },
  'GET /api/products/:id/igv/clinvar.bed': { policy: 'case-read', query: () => '?region=chr1:1-300000000' },
  // Raw data analysis outputs, on the matrix's FASTQ case (fill() maps :id to it).
  'GET /api/products/:id/raw-data': { policy: 'case-read' },
  'GET /api/products/:id/raw-data/alignments.bam': { policy: 'case-read' },
  'GET /api/products/:id/raw-data/alignments.bam.bai': { policy: 'case-read' },
  'GET /api/products/:id/raw-data/reference.fa': { policy: 'case-read' },
  'GET /api/products/:id/raw-data/reference.fa.fai': { policy: 'case-read' },
  'GET /api/products/:id/raw-data/files/:name': { policy: 'case-owner-only' },
  'GET /api/products/:id/report-items': { policy: 'case-read' },
  'POST /api/products/:id/report-items': { policy: 'case-write', payload: () => ({ variantId: ctx.ids.variantId2 }) },
  'DELETE /api/products/:id/report-items': { policy: 'case-write', destructive: true },
  'DELETE /api/products/:id/report-items/:itemId': { policy: 'case-write', destructive: true },
  'POST /api/products/:id/reports': { policy: 'case-write', payload: () => ({}) },
  'GET /api/products/:id/reports': { policy: 'case-read' },
  'GET /api/products/:id/reports/:reportId': { policy: 'case-read' },
  'POST /api/products/:id/chat': { policy: 'case-read', payload: () => ({ message: 'Which gene is most likely?' }) },
  'GET /api/products/:id/chat': { policy: 'case-read' },
  'GET /api/products/:id/chat/:conversationId': { policy: 'own-resource' },
  'DELETE /api/products/:id/chat/:conversationId': { policy: 'own-resource', destructive: true },
};

interface Ctx {
  test: TestApp;
  app: FastifyInstance;
  inbox: SmtpInbox;
  owner: { email: string; token: string };
  shared: { email: string; token: string };
  other: { email: string; token: string };
  revoked: { email: string; token: string };
  /** The token of the /shared/{token} link e-mailed to the shared user. */
  shareToken: string;
  ids: Record<string, string | number>;
}
let ctx: Ctx;

/** Every `METHOD path` the router holds (HEAD and trailing-slash twins folded in). */
function routeTable(app: FastifyInstance): string[] {
  const out = new Set<string>();
  const stack: { depth: number; path: string }[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)/.exec(line);
    if (m === null) continue;
    const depth = m[1]!.length / 4;
    while (stack.length > depth) stack.pop();
    const full = (stack.at(-1)?.path ?? '') + m[2]!;
    stack.push({ depth, path: full });
    const normalised = full.length > 1 ? full.replace(/\/$/, '') : full;
    for (const method of m[3]!.split(', ')) if (method !== 'HEAD') out.add(`${method} ${normalised}`);
  }
  return [...out].sort();
}

function fill(path: string): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const key = path.startsWith('/api/orders') && name === 'id' ? 'orderId' : path.includes('/raw-data') && name === 'id' ? 'rawId' : name;
    const value = ctx.ids[key];
    if (value === undefined) throw new Error(`no id for :${name} in ${path}`);
    return encodeURIComponent(String(value));
  });
}

function headersOf(actor: Actor): Record<string, string> {
  if (actor === 'anonymous') return {};
  // A share-link token is no credential: sent as a bearer token it must open nothing.
  if (actor === 'holder') return { authorization: `Bearer ${ctx.shareToken}` };
  return { authorization: `Bearer ${ctx[actor].token}` };
}

interface Finding {
  route: string;
  actor: Actor;
  status: number;
  why: string;
}

/** Why this answer is a leak or a wrong outcome, or null when it is as the policy says. */
function judge(policy: Policy, actor: Actor, res: LightMyRequestResponse): string | null {
  const s = res.statusCode;
  if (s >= 500) return `server error ${s}`;
  if (policy === 'public') return null;
  const signedOut = actor === 'anonymous' || actor === 'revoked' || actor === 'holder';
  if (signedOut) return s === 401 ? null : `expected 401 for a signed-out caller, got ${s}`;
  if (policy === 'auth') return s === 401 || s === 403 || s === 404 ? `signed-in user refused (${s})` : null;
  const allowed =
    actor === 'owner' || (actor === 'shared' && policy === 'case-read');
  if (allowed) return s === 401 || s === 403 || s === 404 ? `allowed actor refused (${s})` : null;
  const body = res.body;
  if (body.includes(SECRET_CASE_ID) || body.includes(SECRET_FILE) || body.includes(OWNER_EMAIL())) {
    return `response carries the owner's data (${s})`;
  }
  if (s >= 200 && s < 300) return `non-allowed actor got ${s}`;
  // A shared user knows the case exists: 403 is honest for them. Anyone else must get 404.
  if (actor === 'shared' && (policy === 'case-write' || policy === 'case-owner-only')) {
    return s === 403 || s === 404 ? null : `expected 403/404, got ${s}`;
  }
  return s === 404 ? null : `expected 404 (never confirm existence), got ${s}`;
}

beforeAll(async () => {
  const inbox = await startSmtpInbox();
  const fixture = createFixtureEngine({ genePhenotypes: { FGFR2: ['HP:0000244'], BRCA1: ['HP:0003002'], TTN: [] } });
  const test = await createTestApp({
    inbox,
    // GenomeTalks answers from the knowledge base.
    // The FASTQ case is aligned on the demo reference (RARELENS_SOURCES).
    env: {
      ...(process.env.RARELENS_KB === undefined ? {} : { RARELENS_KB: process.env.RARELENS_KB }),
      ...(process.env.RARELENS_SOURCES === undefined ? {} : { RARELENS_SOURCES: process.env.RARELENS_SOURCES }),
    },
    cases: { engine: () => Promise.resolve(fixture), jobs: { inProcessWorker: true, pollMs: 100 } },
  });
  const app = test.app;
  const [owner, shared, other, revoked] = await Promise.all([
    signUpAndLogIn(app, inbox),
    signUpAndLogIn(app, inbox),
    signUpAndLogIn(app, inbox),
    signUpAndLogIn(app, inbox),
  ]);
  const out = await app.inject({
    method: 'POST',
    url: '/api/auth/logout',
    headers: { authorization: `Bearer ${revoked.token}` },
    payload: { refreshToken: revoked.refreshToken },
  });
  expect(out.statusCode).toBeLessThan(300);
  ctx = { test, app, inbox, owner, shared, other, revoked, shareToken: '', ids: {} };
  const auth = headersOf('owner');

  const { body, contentType } = multipartBody(
    { caseId: SECRET_CASE_ID, gender: 'female', symptoms: 'Craniosynostosis', hpoTerms: JSON.stringify(['HP:0000244']), assembly: 'GRCh38' },
    [{ field: 'genomeFile', name: SECRET_FILE, content: buildFixtureVcf(200, ['TTN', 'BRCA1', 'FGFR2']) }],
  );
  const created = await app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': contentType }, payload: body });
  expect(created.statusCode, created.body).toBe(202);
  const id = created.json<{ id: string }>().id;
  const done = await waitForStatus(app, auth, id, ['Completed', 'Error'], 120_000);
  expect(done.status, JSON.stringify(done)).toBe('Completed');
  ctx.ids.id = id;

  // A FASTQ case (raw data analysis): the demo reads, shared like the VCF case.
  const sources = process.env.RARELENS_SOURCES ?? path.resolve(import.meta.dirname, '../../../../shared/data');
  const reads = multipartBody(
    { caseId: `${SECRET_CASE_ID}-RAW`, gender: 'female', symptoms: 'Lactic acidosis', hpoTerms: JSON.stringify(['HP:0003128']) },
    [{ field: 'genomeFile', name: SECRET_FILE.replace('.vcf', '.fastq.gz'), content: readFileSync(path.join(sources, 'reads/NA12878.chrM_hg19.reads.fastq.gz')) }],
  );
  const rawCreated = await app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': reads.contentType }, payload: reads.body });
  expect(rawCreated.statusCode, rawCreated.body).toBe(202);
  ctx.ids.rawId = rawCreated.json<{ id: string }>().id;
  const rawDone = await waitForStatus(app, auth, String(ctx.ids.rawId), ['Completed', 'Error'], 180_000);
  expect(rawDone.status, JSON.stringify(rawDone)).toBe('Completed');
  ctx.ids.name = 'calls.vcf.gz';

  const get = async <T>(url: string): Promise<T> => {
    const res = await app.inject({ method: 'GET', url, headers: auth });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json<T>();
  };
  const detail = await get<{ files: { id: string }[] }>(`/api/products/${id}`);
  ctx.ids.fileId = detail.files[0]!.id;
  ctx.ids.phenotypeId = (await get<{ items: { id: string }[] }>(`/api/products/${id}/phenotypes`)).items[0]!.id;
  ctx.ids.geneId = (await get<{ items: { symbol: string }[] }>(`/api/products/${id}/genes`)).items[0]!.symbol;
  const variants = (await get<{ items: { id: number }[] }>(`/api/products/${id}/variants?pageSize=3`)).items;
  ctx.ids.variantId = variants[0]!.id;
  ctx.ids.variantId2 = variants[1]!.id;

  const send = async (url: string, payload: unknown): Promise<LightMyRequestResponse> => {
    const res = await app.inject({ method: 'POST', url, headers: auth, payload: payload as object });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
    return res;
  };
  const post = async <T>(url: string, payload: unknown): Promise<T> => (await send(url, payload)).json<T>();
  await post(`/api/products/${id}/shares`, { email: shared.email });
  await post(`/api/products/${String(ctx.ids.rawId)}/shares`, { email: shared.email });
  ctx.ids.email = shared.email;
  const shareMail = await inbox.waitFor(shared.email, (m) => m.text.includes('/shared/'));
  ctx.shareToken = /\/shared\/([A-Za-z0-9_-]+)/.exec(shareMail.text)![1]!;
  // The real link opens the case read-only without a session.
  const opened = await app.inject({ method: 'GET', url: `/api/shared/${ctx.shareToken}` });
  expect(opened.statusCode, opened.body).toBe(200);
  const added = await post<{ item: { id: string } }>(`/api/products/${id}/report-items`, { variantId: variants[0]!.id });
  ctx.ids.itemId = added.item.id;
  const report = await send(`/api/products/${id}/reports`, {});
  expect(report.headers['content-type']).toContain('application/pdf');
  ctx.ids.reportId = (await get<{ items: { id: string }[] }>(`/api/products/${id}/reports`)).items[0]!.id;
  ctx.ids.conversationId = (await post<{ conversationId: string }>(`/api/products/${id}/chat`, { message: 'Which gene is first?' })).conversationId;
  const order = await post<{ id?: string; order?: { id: string } }>('/api/orders', { plan: 'basic', casesPerMonth: 1, addOns: [] });
  ctx.ids.orderId = order.id ?? order.order!.id;
  ctx.ids.token = 'a'.repeat(43);
}, 240_000);

afterAll(async () => {
  await ctx?.test.close();
  await ctx?.inbox.close();
});

describe('authorization matrix', () => {
  it('scopes every list to its caller and hands out unguessable ids', async () => {
    const id = String(ctx.ids.id);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const otherCases = await ctx.app.inject({ method: 'GET', url: '/api/products', headers: headersOf('other') });
    expect(otherCases.statusCode).toBe(200);
    expect(otherCases.body).not.toContain(id);
    expect(otherCases.body).not.toContain(SECRET_CASE_ID);
    const sharedCase = await ctx.app.inject({ method: 'GET', url: `/api/products/${id}`, headers: headersOf('shared') });
    expect(sharedCase.statusCode).toBe(200);
    const otherOrders = await ctx.app.inject({ method: 'GET', url: '/api/orders', headers: headersOf('other') });
    expect(otherOrders.statusCode).toBe(200);
    expect(otherOrders.body).not.toContain(String(ctx.ids.orderId));
    const otherChats = await ctx.app.inject({ method: 'GET', url: `/api/products/${id}/chat`, headers: headersOf('shared') });
    expect(otherChats.statusCode).toBe(200);
    expect(otherChats.body).not.toContain(String(ctx.ids.conversationId));
  });

  it('has an expected outcome for every route the server registers', () => {
    const missing = routeTable(ctx.app).filter((r) => POLICIES[r] === undefined);
    expect(missing, 'routes without an entry in POLICIES').toEqual([]);
  });

  it('answers every route as each actor as the policy says, with no leak', async () => {
    const routes = routeTable(ctx.app).filter((r) => POLICIES[r] !== undefined);
    // Non-owners first, then the owner; the owner's destructive calls come last of all.
    const calls: { route: string; actor: Actor }[] = [];
    for (const actor of ACTORS) for (const route of routes) if (!(actor === 'owner' && POLICIES[route]!.destructive)) calls.push({ route, actor });
    // Most specific first, so deleting one report item runs before clearing the list.
    const destructive = routes.filter((r) => POLICIES[r]!.destructive).sort((a, b) => b.split('/').length - a.split('/').length);
    for (const route of destructive) calls.push({ route, actor: 'owner' });

    const findings: Finding[] = [];
    let leaks = 0;
    for (const { route, actor } of calls) {
      const entry = POLICIES[route]!;
      const [method, path] = route.split(' ') as [Method, string];
      const payload = entry.payload?.();
      const res = await ctx.app.inject({
        method,
        url: fill(path) + (entry.query?.() ?? ''),
        // Public routes are called without credentials (a signed-in logout would end the actor's session).
        headers: entry.policy === 'public' ? {} : headersOf(actor),
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      const why = judge(entry.policy, actor, res);
      if (why !== null) {
        findings.push({ route, actor, status: res.statusCode, why });
        if (actor !== 'owner' && !(actor === 'shared' && entry.policy === 'case-read')) leaks += 1;
      }
    }
    process.stdout.write(
      `authorization matrix: ${routes.length} routes x ${ACTORS.length} actors, ${calls.length} requests, ` +
        `${findings.length} unexpected, ${leaks} leaks\n`,
    );
    expect(findings).toEqual([]);
    expect(leaks).toBe(0);
  }, 240_000);

});
