import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGenomeTalks } from './genometalks.ts';
import { unsupportedIdentifiers, writeWithLlm } from './llm.ts';
import { buildCase, buildKnowledge } from './testing/build-case.ts';

const knowledge = buildKnowledge();
const ctx = buildCase(knowledge);
const built = createGenomeTalks(knowledge).answer('Why is this gene first?', ctx);

/** A local OpenAI-compatible stub: answers with the next queued reply and records each request. */
let server: Server;
let baseUrl: string;
const replies: { status: number; content: string }[] = [];
const requests: { url: string; auth: string | undefined; body: { model: string; messages: { role: string; content: string }[] } }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw) as (typeof requests)[number]['body'] });
      const next = replies.shift() ?? { status: 500, content: '' };
      res.writeHead(next.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: next.content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const config = () => ({ baseUrl, apiKey: 'test-key', model: 'stub-model', timeoutMs: 2000 });

describe('LLM prose over the retrieved evidence', () => {
  it('uses the model’s prose when it names only what the evidence holds, and sends only that evidence', async () => {
    replies.push({ status: 200, content: 'FGFR2 comes first: its variant c.755C>G p.(Ser252Trp) is Pathogenic and Pfeiffer syndrome (OMIM:101600) matches Broad thumb (HP:0011304).' });
    const out = await writeWithLlm(config(), 'Why is this gene first?', built, knowledge);
    expect(out.used).toBe(true);
    expect(out.answer.text).toMatch(/^FGFR2 comes first/);
    expect(out.answer.citations).toEqual(built.citations);
    const req = requests.at(-1)!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.auth).toBe('Bearer test-key');
    expect(req.body.model).toBe('stub-model');
    expect(req.body.messages[1]?.content).toContain(built.text);
  });

  it('rejects a reply that names a gene, disease or HPO term outside the evidence and keeps the built-in answer', async () => {
    replies.push({ status: 200, content: 'The cause is ALDH7A1, as in OMIM:266100 with Hypotonia (HP:0001252).' });
    const out = await writeWithLlm(config(), 'Why is this gene first?', built, knowledge);
    expect(out.used).toBe(false);
    expect(out.rejected).toEqual(expect.arrayContaining(['ALDH7A1', 'OMIM:266100', 'HP:0001252']));
    expect(out.answer).toEqual(built);
  });

  it('rejects an invented HGVS expression', () => {
    expect(unsupportedIdentifiers('The variant c.756C>T is causal.', built, knowledge)).toEqual(['c.756C>T']);
    expect(unsupportedIdentifiers('The variant c.755C>G is causal; AD inheritance, PM2 met.', built, knowledge)).toEqual([]);
  });

  it('falls back to the built-in answer when the endpoint fails', async () => {
    replies.push({ status: 503, content: '' });
    const out = await writeWithLlm(config(), 'Why is this gene first?', built, knowledge);
    expect(out.used).toBe(false);
    expect(out.error).toBe('LLM endpoint answered HTTP 503');
    expect(out.answer).toEqual(built);
  });
});
