/**
 * A case's HPO terms are always checked against the knowledge base's ontology: when the
 * ontology is not built or fails to load, the upload is refused (503 kb_unavailable, with a
 * message saying why) and nothing is kept; the check is never skipped.
 */
import { ErrorCode } from '@rarelens/contract';
import type { Ontology } from '@rarelens/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine } from '../src/jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../src/jobs/testing/fixture-vcf.ts';
import { signUpAndLogIn } from '../src/testing/helpers.ts';
import { multipartBody } from '../src/testing/multipart.ts';
import type { SmtpInbox } from '../src/testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../src/testing/test-app.ts';

let inbox: SmtpInbox;
let ontology: () => Promise<Ontology | null> = () => Promise.resolve(null);
let test: TestApp;

beforeAll(async () => {
  const fixture = createFixtureEngine({ genePhenotypes: {} });
  test = await createTestApp({ cases: { engine: () => Promise.resolve(fixture), ontology: () => ontology(), jobs: { inProcessWorker: false } } });
  inbox = test.inbox;
}, 120_000);

afterAll(async () => {
  await test?.close();
});

async function uploadAndList() {
  const user = await signUpAndLogIn(test.app, inbox);
  const headers = { authorization: `Bearer ${user.token}` };
  const { body, contentType } = multipartBody(
    { caseId: 'NO-HPO', gender: 'male', symptoms: 'Seizures', hpoTerms: JSON.stringify(['HP:0001250']), assembly: 'GRCh38' },
    [{ field: 'genomeFile', name: 'case.vcf', content: buildFixtureVcf(20, ['TTN']) }],
  );
  const res = await test.app.inject({ method: 'POST', url: '/api/products', headers: { ...headers, 'content-type': contentType }, payload: body });
  const list = await test.app.inject({ method: 'GET', url: '/api/products', headers });
  return { res, items: list.json<{ items: unknown[] }>().items };
}

describe('the HPO check of an upload needs the ontology', () => {
  it('refuses the case when the knowledge base has no ontology', async () => {
    ontology = () => Promise.resolve(null);
    const { res, items } = await uploadAndList();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: ErrorCode.kbUnavailable,
      message: 'The knowledge base has no HPO ontology (build it with `rarelens kb build`), so HPO terms cannot be checked.',
    });
    expect(items).toEqual([]);
  });

  it('refuses the case, naming the cause, when the ontology fails to load', async () => {
    ontology = () => Promise.reject(new Error('hpo-kb.json: unexpected end of JSON input'));
    const { res, items } = await uploadAndList();
    expect(res.statusCode).toBe(503);
    expect(res.json<{ code: string; message: string }>()).toEqual({
      code: ErrorCode.kbUnavailable,
      message: 'The HPO ontology of the knowledge base failed to load, so HPO terms cannot be checked: hpo-kb.json: unexpected end of JSON input',
    });
    expect(items).toEqual([]);
  });
});
