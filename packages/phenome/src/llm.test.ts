import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractWithLlm, llmConfigFromEnv, type LlmConfig } from './llm.ts';
import { createPhenome } from './phenome.ts';
import { buildMiniHpo } from './testing/build-ontology.ts';

const ontology = buildMiniHpo();
const phenome = createPhenome(ontology);

interface Recorded {
  url: string;
  auth: string | undefined;
  body: { model?: string; messages?: { role: string; content: string }[] };
}

/** A local OpenAI-compatible stub: answers with whatever the current test sets. */
let reply: (req: Recorded, res: ServerResponse) => void = () => {};
let requests: Recorded[] = [];
let server: Server;
let baseUrl = '';

function answer(res: ServerResponse, content: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      const rec: Recorded = {
        url: req.url ?? '',
        auth: req.headers.authorization,
        body: JSON.parse(data) as Recorded['body'],
      };
      requests.push(rec);
      reply(rec, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
});

const config = (): LlmConfig => ({
  baseUrl,
  apiKey: 'test-key',
  model: 'stub-model',
  timeoutMs: 2000,
});

describe('extractWithLlm', () => {
  it('sends an OpenAI-compatible request with the offline candidates', async () => {
    reply = (_req, res) => answer(res, '{"terms": []}');
    const res = await extractWithLlm(phenome, ontology, 'The girl has seizures.', config());
    expect(requests).toHaveLength(1);
    const req = requests[0] as Recorded;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.auth).toBe('Bearer test-key');
    expect(req.body.model).toBe('stub-model');
    expect(req.body.messages?.[1]?.content).toContain('HP:0001250');
    expect(res.llm).toMatchObject({ used: true, proposed: 0, accepted: 0 });
    expect(res.terms.map((t) => t.id)).toEqual(['HP:0001250']);
  });

  it('accepts only grounded proposals and counts every dropped one', async () => {
    const text = 'The girl has seizures and a small thumb. She did not have odd kidneys.';
    reply = (_req, res) =>
      answer(
        res,
        '```json\n' +
          JSON.stringify({
            terms: [
              { id: 'HP:0009778', text: 'small thumb', confidence: 0.9 }, // grounded: accepted
              { id: 'HP:0001250', text: 'seizures', confidence: 0.5 }, // offline term: re-ranked
              { id: 'HP:1234567', text: 'seizures' }, // invented id
              { id: 'HP:0000099', text: 'seizures' }, // obsolete id
              { id: 'HP:0000006', text: 'girl' }, // not a phenotypic abnormality
              { id: 'HP:0000365', text: 'hearing loss' }, // span not in the text
              { id: 42, text: 'x' }, // malformed
              { id: 'HP:0000077', text: 'odd kidneys' }, // grounded but negated in context
            ],
          }) +
          '\n```',
      );
    const res = await extractWithLlm(phenome, ontology, text, config());
    expect(res.llm).toMatchObject({
      used: true,
      proposed: 8,
      accepted: 2,
      reranked: 1,
      dropped: { unknownId: 2, outsideRoots: 1, spanNotFound: 1, malformed: 1 },
    });
    const thumb = res.terms.find((t) => t.id === 'HP:0009778');
    expect(thumb).toMatchObject({ text: 'small thumb', negated: false, subject: 'patient' });
    expect(text.slice(thumb?.start, thumb?.end)).toBe('small thumb');
    expect(res.terms.find((t) => t.id === 'HP:0000077')?.negated).toBe(true);
    // Offline confidence 1 averaged with the model's 0.5.
    expect(res.terms.find((t) => t.id === 'HP:0001250')?.confidence).toBe(0.75);
  });

  it('keeps the clinical modifiers apart from the terms, with or without the model', async () => {
    const text = 'Seizures with childhood onset; autosomal dominant.';
    reply = (_req, res) => answer(res, '{"terms": []}');
    const used = await extractWithLlm(phenome, ontology, text, config());
    reply = () => {}; // never answers: the offline result
    const fallback = await extractWithLlm(phenome, ontology, text, { ...config(), timeoutMs: 150 });
    expect([used.llm.used, fallback.llm.used]).toEqual([true, false]);
    for (const res of [used, fallback]) {
      expect(res.terms.map((t) => t.id)).toEqual(['HP:0001250']);
      expect(res.modifiers.map((t) => t.id)).toEqual(['HP:0011463', 'HP:0000006']);
    }
  });

  it('falls back to the offline result on timeout', async () => {
    reply = () => {}; // never answers
    const res = await extractWithLlm(phenome, ontology, 'Seizures.', {
      ...config(),
      timeoutMs: 150,
    });
    expect(res.llm.used).toBe(false);
    expect(res.llm.error).toMatch(/timed out/);
    expect(res.terms.map((t) => t.id)).toEqual(['HP:0001250']);
  });

  it('falls back on an HTTP error and on an unparsable reply', async () => {
    reply = (_req, res) => {
      res.writeHead(500);
      res.end('boom');
    };
    const failed = await extractWithLlm(phenome, ontology, 'Seizures.', config());
    expect(failed.llm).toMatchObject({ used: false, error: 'LLM endpoint answered HTTP 500' });
    expect(failed.terms).toHaveLength(1);

    reply = (_req, res) => answer(res, 'I think the patient has seizures.');
    const garbled = await extractWithLlm(phenome, ontology, 'Seizures.', config());
    expect(garbled.llm.used).toBe(false);
    expect(garbled.llm.error).toMatch(/no JSON object/);
    expect(garbled.terms.map((t) => t.id)).toEqual(['HP:0001250']);
  });

  it('keeps texts over the size limit away from the model', async () => {
    const res = await extractWithLlm(phenome, ontology, 'Seizures. '.repeat(20), {
      ...config(),
      maxChars: 50,
    });
    expect(requests).toHaveLength(0);
    expect(res.llm.error).toMatch(/exceeds the LLM assist limit of 50/);
    expect(res.terms.length).toBeGreaterThan(0);
  });

  it('does not call the endpoint for empty text', async () => {
    const res = await extractWithLlm(phenome, ontology, '  ', config());
    expect(requests).toHaveLength(0);
    expect(res.terms).toEqual([]);
  });
});

describe('llmConfigFromEnv', () => {
  it('is undefined unless base URL, key and model are all set', () => {
    expect(llmConfigFromEnv({ LLM_BASE_URL: 'http://x', LLM_API_KEY: 'k' })).toBeUndefined();
    expect(
      llmConfigFromEnv({
        LLM_BASE_URL: 'http://x/v1',
        LLM_API_KEY: 'k',
        LLM_MODEL: 'm',
        LLM_TIMEOUT_MS: '500',
      }),
    ).toEqual({
      baseUrl: 'http://x/v1',
      apiKey: 'k',
      model: 'm',
      timeoutMs: 500,
    });
  });
});
