/**
 * Per-user quotas (issue 16, item 5): a user may have only RARELENS_MAX_ACTIVE_ANALYSES cases
 * queued or running at once (more are refused before a byte is stored, with a message that says
 * why), and a genome may hold at most RARELENS_MAX_RECORDS variants (more ends in an input Error
 * naming the limit, never retried).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine } from '../src/jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../src/jobs/testing/fixture-vcf.ts';
import { signUpAndLogIn } from '../src/testing/helpers.ts';
import { multipartBody, waitForStatus } from '../src/testing/multipart.ts';
import type { SmtpInbox } from '../src/testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../src/testing/test-app.ts';

let test: TestApp;
let app: FastifyInstance;
let inbox: SmtpInbox;

beforeAll(async () => {
  // 40 ms per variant: a 60-variant case stays "Processing" for a few seconds.
  const fixture = createFixtureEngine({ genePhenotypes: {}, delayMs: 40 });
  test = await createTestApp({
    env: { RARELENS_MAX_ACTIVE_ANALYSES: '2', RARELENS_MAX_RECORDS: '100' },
    cases: { engine: () => Promise.resolve(fixture), jobs: { inProcessWorker: true, pollMs: 100, concurrency: 1 } },
  });
  inbox = test.inbox;
  app = test.app;
}, 120_000);

afterAll(async () => {
  await test?.close();
});

async function upload(token: string, caseId: string, records: number) {
  const { body, contentType } = multipartBody(
    { caseId, gender: 'male', symptoms: 'Seizures', hpoTerms: JSON.stringify(['HP:0001250']), assembly: 'GRCh38' },
    [{ field: 'genomeFile', name: `${caseId}.vcf`, content: buildFixtureVcf(records, ['TTN']) }],
  );
  return app.inject({ method: 'POST', url: '/api/products', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload: body });
}

describe('per-user quotas', () => {
  it('refuses a third concurrent analysis of one user, with a message, and accepts it once one has finished', async () => {
    const alice = await signUpAndLogIn(app, inbox);
    const bob = await signUpAndLogIn(app, inbox);
    const auth = { authorization: `Bearer ${alice.token}` };
    const first = await upload(alice.token, 'Q-1', 60);
    const second = await upload(alice.token, 'Q-2', 60);
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    const third = await upload(alice.token, 'Q-3', 60);
    expect(third.statusCode).toBe(429);
    expect(third.json<{ message: string }>().message).toBe(
      'You already have 2 analyses queued or running (the limit is 2); upload this case when one of them has finished.',
    );
    // Another user is not limited by alice's analyses.
    expect((await upload(bob.token, 'B-1', 20)).statusCode).toBe(202);
    const list = await app.inject({ method: 'GET', url: '/api/products', headers: auth });
    expect(list.json<{ items: { caseId: string }[] }>().items.map((i) => i.caseId).sort()).toEqual(['Q-1', 'Q-2']);

    await waitForStatus(app, auth, first.json<{ id: string }>().id, ['Completed', 'Error'], 60_000);
    expect((await upload(alice.token, 'Q-3', 20)).statusCode).toBe(202);
  }, 120_000);

  it('ends a genome with more variants than RARELENS_MAX_RECORDS in an Error naming the limit', async () => {
    const carol = await signUpAndLogIn(app, inbox);
    const auth = { authorization: `Bearer ${carol.token}` };
    const res = await upload(carol.token, 'BIG-1', 150);
    expect(res.statusCode).toBe(202);
    const done = await waitForStatus(app, auth, res.json<{ id: string }>().id, ['Completed', 'Error'], 60_000);
    expect(done.status).toBe('Error');
    expect(done.error?.reason).toBe('BIG-1.vcf holds more than 100 variants, the most this server analyses in one case (RARELENS_MAX_RECORDS).');
  }, 120_000);
});
