/**
 * Embedded mode: the same upload -> queue -> analysis -> results path on PGlite, with the
 * worker running inside the server process (the default when DATABASE_URL is unset).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine } from '../../jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../../jobs/testing/fixture-vcf.ts';
import { signUpAndLogIn } from '../../testing/helpers.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';
import { testOntology } from '../../testing/test-ontology.ts';

let testApp: TestApp;
let inbox: SmtpInbox;
let app: FastifyInstance;
let auth: Record<string, string>;

beforeAll(async () => {
  const engine = createFixtureEngine({ genePhenotypes: { FGFR2: ['HP:0000244'] }, diseaseSources: { FGFR2: 'disease-name' } });
  // No `jobs` override: on PGlite the in-process worker is the default.
  testApp = await createTestApp({ name: 'pglite-cases', pglite: true, kb: 'none', cases: { engine: () => Promise.resolve(engine), ontology: testOntology, jobs: { pollMs: 100 } } });
  ({ app, inbox } = testApp);
  const user = await signUpAndLogIn(app, inbox);
  auth = { authorization: `Bearer ${user.token}` };
});

afterAll(async () => {
  await testApp.close();
});

describe('cases on the embedded database', () => {
  it('runs the analysis in-process on PGlite and serves ranked genes and variants', async () => {
    expect(app.database.kind).toBe('pglite');
    const { body, contentType } = multipartBody(
      { caseId: 'EMBEDDED', gender: 'female', symptoms: 'Brachyturricephaly', hpoTerms: 'HP:0000244' },
      [{ field: 'genomeFile', name: 'embedded.vcf', content: buildFixtureVcf(1500, ['TTN', 'FGFR2']) }],
    );
    const res = await app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': contentType }, payload: body });
    expect(res.statusCode).toBe(202);
    const id = res.json<{ id: string }>().id;
    const done = await waitForStatus(app, auth, id, ['Completed', 'Error'], 60_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('Completed');
    const genes = await app.inject({ method: 'GET', url: `/api/products/${id}/genes`, headers: auth });
    expect(genes.json<{ items: { symbol: string; rank: number }[] }>().items.map((g) => [g.symbol, g.rank])).toEqual([
      ['FGFR2', 1],
      ['TTN', 2],
    ]);
    // A ranked disease keeps where its phenotype comes from (here one known only by its name).
    const disease = await app.inject({ method: 'GET', url: `/api/products/${id}/phenotypes/${encodeURIComponent('FIXTURE:FGFR2')}`, headers: auth });
    expect(disease.statusCode).toBe(200);
    expect(disease.json<{ phenotypeSource: string | null }>().phenotypeSource).toBe('disease-name');
    // The list says it too, so the phenotypes screen can mark the row.
    const list = await app.inject({ method: 'GET', url: `/api/products/${id}/phenotypes?page=1&pageSize=5`, headers: auth });
    expect(list.json<{ items: { id: string; phenotypeSource: string | null }[] }>().items.find((d) => d.id === 'FIXTURE:FGFR2')?.phenotypeSource).toBe('disease-name');
    const variants = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?mode=filtered&zygosity=homozygous&pageSize=5`, headers: auth });
    const v = variants.json<{ items: { zygosity: string }[]; total: number }>();
    expect(v.total).toBe(375);
    expect(v.items.every((x) => x.zygosity === 'homozygous')).toBe(true);
    // The unfiltered list and the access check run as prepared statements.
    for (const page of [1, 2]) {
      const all = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?page=${page}`, headers: auth });
      expect(all.json<{ items: { id: number }[]; total: number }>()).toMatchObject({ total: 1500 });
      expect(all.json<{ items: unknown[] }>().items).toHaveLength(10);
    }
  });
});
