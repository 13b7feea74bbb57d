/**
 * Embedded mode: the same upload -> queue -> analysis -> results path on PGlite, with the
 * worker running inside the server process (the default when DATABASE_URL is unset).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../env.ts';
import { createFixtureEngine } from '../../jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../../jobs/testing/fixture-vcf.ts';
import { signUpAndLogIn } from '../../testing/helpers.ts';
import { startSmtpInbox, type SmtpInbox } from '../../testing/smtp-inbox.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';
import { testOntology } from '../../testing/test-ontology.ts';

let inbox: SmtpInbox;
let app: FastifyInstance;
let dataDir: string;
let auth: Record<string, string>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'rarelens-pglite-cases-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RARELENS_DATA_DIR: dataDir,
    RARELENS_KB: path.join(dataDir, 'no-kb'),
    RARELENS_WEB_DIST: path.join(dataDir, 'no-web-build'),
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    SMTP_URL: inbox.url,
  });
  const engine = createFixtureEngine({ genePhenotypes: { FGFR2: ['HP:0000244'] } });
  // No `jobs` override: on PGlite the in-process worker is the default.
  app = await buildApp({ config, cases: { engine: () => Promise.resolve(engine), ontology: testOntology, jobs: { pollMs: 100 } } });
  await app.ready();
  const user = await signUpAndLogIn(app, inbox);
  auth = { authorization: `Bearer ${user.token}` };
});

afterAll(async () => {
  await app.close();
  await inbox.close();
  rmSync(dataDir, { recursive: true, force: true });
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
