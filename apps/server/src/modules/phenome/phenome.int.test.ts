/**
 * PhenomeAI over HTTP against a real PostgreSQL: POST /api/phenome/extract needs a session,
 * validates its body and returns terms with spans, negation and experiencer. The HPO comes
 * from RARELENS_SOURCES (no knowledge base is built in this test).
 */
import { existsSync } from 'node:fs';
import { PHENOME_MAX_TEXT, type PhenomeExtractResponse } from '@rarelens/contract';
import { defaultHpoPath } from '@rarelens/phenome';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUpAndLogIn } from '../../testing/helpers.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

const hasHpo = existsSync(defaultHpoPath());
const LLM_VARS = ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL'] as const;
const savedLlmEnv = LLM_VARS.map((k) => [k, process.env[k]] as const);

let testApp: TestApp;
let inbox: SmtpInbox;
let app: FastifyInstance;
let alice: { token: string; email: string };
/** POST /api/phenome/extract as alice. */
const extract = (payload: unknown) => app.inject({ method: 'POST', url: '/api/phenome/extract', headers: bearer(alice), payload: payload as object });

beforeAll(async () => {
  // The offline extractor only: an LLM configured in the developer's shell must not be called.
  for (const k of LLM_VARS) delete process.env[k];
  testApp = await createTestApp({ name: 'phenome', kb: 'none', cases: { jobs: { inProcessWorker: false } } });
  ({ app, inbox } = testApp);
  alice = await signUpAndLogIn(app, inbox);
});

afterAll(async () => {
  await testApp.close();
  for (const [k, v] of savedLlmEnv) if (v !== undefined) process.env[k] = v;
});

describe('POST /api/phenome/extract', () => {
  it('answers 401 without a session', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/phenome/extract',
      payload: { text: 'Seizures.' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('answers 400 on a missing, non-string or too long text', async () => {
    for (const payload of [{}, { text: 42 }, { text: 'x'.repeat(PHENOME_MAX_TEXT + 1) }]) {
      const res = await extract(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ code: string }>().code).toBe('validation_failed');
    }
  });

  it.skipIf(!hasHpo)('returns the terms with spans, negation and family history', async () => {
    const text =
      'Floppy infant with seizures and microcephaly. No cataracts. His mother has hearing loss. ' +
      'The disorder is inherited in an autosomal dominant manner.';
    const res = await extract({ text });
    expect(res.statusCode).toBe(200);
    const body = res.json<PhenomeExtractResponse>();
    expect(body.llmUsed).toBe(false);
    expect(body.hpoVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const byId = new Map(body.terms.map((t) => [t.id, t]));
    expect(byId.get('HP:0008947')).toMatchObject({
      label: 'Floppy infant',
      negated: false,
      subject: 'patient',
    });
    expect(byId.get('HP:0001250')?.negated).toBe(false);
    expect(byId.get('HP:0000252')?.negated).toBe(false);
    expect(byId.get('HP:0000518')?.negated).toBe(true);
    expect(byId.get('HP:0000365')?.subject).toBe('family');
    // The inheritance mode is a clinical modifier, returned apart with the same evidence.
    expect(byId.has('HP:0000006')).toBe(false);
    expect(body.modifiers).toEqual([
      expect.objectContaining({
        id: 'HP:0000006',
        category: 'inheritance',
        text: 'autosomal dominant',
        negated: false,
        subject: 'patient',
      }),
    ]);
    for (const t of [...body.terms, ...body.modifiers]) {
      expect(text.slice(t.start, t.end)).toBe(t.text);
      expect(t.category).toBe(t.id === 'HP:0000006' ? 'inheritance' : 'phenotype');
      expect(Object.keys(t).sort()).toEqual(
        [
          'category',
          'confidence',
          'end',
          'id',
          'label',
          'negated',
          'start',
          'subject',
          'text',
          ...(t.uncertain ? ['uncertain'] : []),
        ].sort(),
      );
    }
  });

  it.skipIf(!hasHpo)('returns no terms for empty or nonsense text', async () => {
    for (const text of ['', 'Blorf wuzzle kranth snorp.']) {
      const res = await extract({ text });
      expect(res.statusCode).toBe(200);
      expect(res.json<PhenomeExtractResponse>()).toMatchObject({ terms: [], modifiers: [] });
    }
  });
});
