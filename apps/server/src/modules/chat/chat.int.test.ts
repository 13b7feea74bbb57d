/**
 * GenomeTalks over HTTP against a real PostgreSQL, on a case analysed by the real engine (a
 * small cut of the Pfeiffer exome): cited answers whose every citation opens in the case API,
 * conversations kept and deleted, streaming, access (404 for anyone who may not read the case),
 * validation, the failure path, the per-user rate limit, and a language model behind a local
 * stub (accepted prose, and a reply naming a gene outside the evidence that is rejected).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatMessages, ErrorCode, Messages, type ChatConversation, type ChatConversationList, type ChatResponse, type GeneRow } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUpAndLogIn } from '../../testing/helpers.ts';
import { hasRealEngine, kbDir, smallPfeifferVcf } from '../../testing/pfeiffer-vcf.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';
import { createChatKnowledgeSource } from './chat.knowledge.ts';

const TERMS = ['HP:0000244', 'HP:0011304', 'HP:0001770'];
const someUuid = '00000000-0000-4000-8000-000000000000';

let inbox: SmtpInbox;
let app: FastifyInstance;
/** Same database and secrets, a failing-on-demand KB, an LLM stub and a rate limit of 6 per minute. */
let app2: FastifyInstance;
let llm: Server;
const llmReplies: string[] = [];
let failKnowledge = false;
let knowledge: ReturnType<typeof createChatKnowledgeSource>;
let first: TestApp | undefined;
let second: TestApp | undefined;
let alice: { token: string; email: string };
let bob: { token: string; email: string };
let productId: string;
let topGene: GeneRow;
const base = () => `/api/products/${productId}/chat`;

describe.skipIf(!hasRealEngine)('GenomeTalks API', () => {
  beforeAll(async () => {
    llm = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: llmReplies.shift() ?? '' } }] }));
      });
    });
    await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
    knowledge = createChatKnowledgeSource(kbDir);
    first = await createTestApp({ name: 'chat', kb: kbDir, env: { CHAT_RATE_LIMIT_PER_MINUTE: '10000' }, cases: { jobs: { inProcessWorker: true, pollMs: 100 } }, chat: { knowledge, env: {} } });
    ({ app, inbox } = first);
    // A second app on the same database, data directory (secrets) and inbox: a low chat rate limit, a stub LLM.
    second = await createTestApp({
      dataDir: first.dataDir,
      inbox,
      kb: kbDir,
      env: { CHAT_RATE_LIMIT_PER_MINUTE: '6' },
      cases: { jobs: { inProcessWorker: false } },
      chat: {
        knowledge: () => (failKnowledge ? Promise.reject(new Error('knowledge base unreadable')) : knowledge()),
        env: { LLM_BASE_URL: `http://127.0.0.1:${(llm.address() as AddressInfo).port}`, LLM_API_KEY: 'k', LLM_MODEL: 'stub' },
      },
    });
    app2 = second.app;
    [alice, bob] = await Promise.all([signUpAndLogIn(app, inbox), signUpAndLogIn(app, inbox)]);
    const { body, contentType } = multipartBody(
      { caseId: 'CHAT-001', gender: 'male', symptoms: 'Tower-shaped skull, broad thumbs', hpoTerms: JSON.stringify(TERMS), assembly: 'auto' },
      [{ field: 'genomeFile', name: 'pfeiffer-small.vcf', content: smallPfeifferVcf() }],
    );
    const res = await app.inject({ method: 'POST', url: '/api/products', headers: { ...bearer(alice), 'content-type': contentType }, payload: body });
    if (res.statusCode !== 202) throw new Error(`upload failed: ${res.body}`);
    productId = res.json<{ id: string }>().id;
    const done = await waitForStatus(app, bearer(alice), productId, ['Completed', 'Error'], 240_000);
    if (done.status !== 'Completed') throw new Error(`analysis ended ${done.status}: ${JSON.stringify(done.error)}`);
    const genes = await app.inject({ method: 'GET', url: `/api/products/${productId}/genes`, headers: bearer(alice) });
    topGene = genes.json<{ items: GeneRow[] }>().items[0]!;
  }, 300_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await new Promise<void>((resolve) => (llm ? llm.close(() => resolve()) : resolve()));
  });

  const ask = (message: string, user = alice, conversationId?: string, target = app) =>
    target.inject({ method: 'POST', url: base(), headers: bearer(user), payload: { message, ...(conversationId ? { conversationId } : {}) } });

  /** Every citation opens in the case API: the gene, disease and variant screens exist for this case. */
  async function expectCitationsOpen(answer: ChatResponse['answer']): Promise<void> {
    expect(answer.citations.length).toBeGreaterThan(0);
    for (const c of answer.citations) {
      expect(c.href.startsWith(`/my-product/${productId}/`), c.href).toBe(true);
      const url =
        c.kind === 'gene'
          ? `/api/products/${productId}/genes/${encodeURIComponent(c.id)}`
          : c.kind === 'disease'
            ? `/api/products/${productId}/phenotypes/${encodeURIComponent(c.id)}`
            : c.kind === 'variant'
              ? `/api/products/${productId}/variants/${c.id}`
              : c.kind === 'acmg'
                ? `/api/products/${productId}/variants/${c.id.split(':')[0]}`
                : null;
      if (url) expect((await app.inject({ method: 'GET', url, headers: bearer(alice) })).statusCode, url).toBe(200);
      else expect(c.kind === 'hpo' ? c.id : c.label).toMatch(c.kind === 'hpo' ? /^HP:\d{7}$/ : /^ClinVar /);
    }
  }

  it('loads its knowledge when the server is ready (warm), before any question', async () => {
    let loads = 0;
    const third = await createTestApp({
      dataDir: first!.dataDir,
      inbox,
      kb: kbDir,
      cases: { jobs: { inProcessWorker: false } },
      chat: {
        knowledge: () => {
          loads++;
          return knowledge();
        },
        warm: true,
        env: {},
      },
    });
    try {
      expect(loads).toBe(1);
      // The question reuses the load.
      expect((await ask('Why is this gene first?', alice, undefined, third.app)).statusCode).toBe(200);
    } finally {
      await third.close();
    }
  });

  it('answers "why is this gene first?" for a completed case with the top gene and evidence that opens', async () => {
    const res = await ask('Why is this gene first?');
    expect(res.statusCode).toBe(200);
    const body = res.json<ChatResponse>();
    expect(body.answer.text).toContain(`The most likely candidate is ${topGene.symbol}`);
    expect(body.answer.citations).toContainEqual(expect.objectContaining({ kind: 'gene', id: topGene.symbol, href: `/my-product/${productId}/genes/${topGene.symbol}` }));
    await expectCitationsOpen(body.answer);

    const next = await ask('what should I examine next?', alice, body.conversationId);
    expect(next.statusCode).toBe(200);
    expect(next.json<ChatResponse>().conversationId).toBe(body.conversationId);
    expect(next.json<ChatResponse>().answer.text).toMatch(/examine or ask for these next|already recorded/);
    await expectCitationsOpen(next.json<ChatResponse>().answer);

    const conv = await app.inject({ method: 'GET', url: `${base()}/${body.conversationId}`, headers: bearer(alice) });
    expect(conv.statusCode).toBe(200);
    const c = conv.json<ChatConversation>();
    expect(c.title).toBe('Why is this gene first?');
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(c.messages[1]?.citations).toEqual(body.answer.citations);
    const list = await app.inject({ method: 'GET', url: base(), headers: bearer(alice) });
    const l = list.json<ChatConversationList>();
    expect(l.items.find((i) => i.id === body.conversationId)?.messageCount).toBe(4);
    expect(l.suggestions).toContain('Why is this gene first?');
  });

  it("follows the reviewer's class of a variant as soon as it is set, although the case's answers are cached", async () => {
    const question = `What is the top variant in ${topGene.symbol}?`;
    const before = (await ask(question)).json<ChatResponse>();
    expect(before.answer.text).not.toContain('reviewer');
    const variantId = before.answer.citations.find((c) => c.kind === 'variant')!.id;
    const put = await app.inject({
      method: 'PUT',
      url: `/api/products/${productId}/variants/${variantId}/classification`,
      headers: bearer(alice),
      payload: { classification: 'Pathogenic', reason: 'Recurrent allele, phenotype specific.' },
    });
    expect(put.statusCode).toBe(200);
    const after = (await ask(question)).json<ChatResponse>();
    expect(after.answer.text).toMatch(/reviewer Pathogenic|classified Pathogenic by the reviewer/);
    expect((await app.inject({ method: 'DELETE', url: `/api/products/${productId}/variants/${variantId}/classification`, headers: bearer(alice) })).statusCode).toBe(200);
    expect((await ask(question)).json<ChatResponse>().answer.text).not.toContain('reviewer');
  });

  it('streams the answer as server-sent events when asked to', async () => {
    const res = await app.inject({ method: 'POST', url: base(), headers: { ...bearer(alice), accept: 'text/event-stream' }, payload: { message: `What is the top variant in ${topGene.symbol}?` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = res.body
      .trim()
      .split('\n\n')
      .map((block) => {
        const [event, data] = block.split('\n');
        return { event: event?.replace('event: ', ''), data: JSON.parse(data?.replace('data: ', '') ?? 'null') as unknown };
      });
    expect(events[0]?.event).toBe('conversation');
    expect(events.at(-1)?.event).toBe('done');
    const done = events.at(-1)!.data as ChatResponse;
    const streamed = events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text).join('');
    expect(streamed).toBe(done.answer.text);
    expect(done.answer.text).toContain(topGene.symbol);
  });

  it('answers 404 for a user who may not read the case, and lets a user it is shared with ask', async () => {
    const own = await ask('Why is this gene first?');
    const conversationId = own.json<ChatResponse>().conversationId;
    for (const r of [
      { method: 'POST' as const, url: base(), payload: { message: 'Why is this gene first?' } },
      { method: 'GET' as const, url: base() },
      { method: 'GET' as const, url: `${base()}/${conversationId}` },
      { method: 'DELETE' as const, url: `${base()}/${conversationId}` },
    ]) {
      expect((await app.inject(r)).statusCode, `${r.method} ${r.url} without a session`).toBe(401);
      const res = await app.inject({ ...r, headers: bearer(bob) });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(404);
      expect(res.json<{ code: string }>().code).toBe(ErrorCode.productNotFound);
    }
    expect((await app.inject({ method: 'POST', url: `/api/products/${someUuid}/chat`, headers: bearer(alice), payload: { message: 'hi' } })).statusCode).toBe(404);
    const share = await app.inject({ method: 'POST', url: `/api/products/${productId}/shares`, headers: bearer(alice), payload: { email: bob.email } });
    expect(share.statusCode).toBeLessThan(300);
    const bobAsks = await ask('Why is this gene first?', bob);
    expect(bobAsks.statusCode).toBe(200);
    expect(bobAsks.json<ChatResponse>().answer.text).toContain(topGene.symbol);
    // Conversations stay private to their author.
    const peek = await app.inject({ method: 'GET', url: `${base()}/${conversationId}`, headers: bearer(bob) });
    expect(peek.statusCode).toBe(404);
    expect(peek.json<{ code: string }>().code).toBe(ErrorCode.conversationNotFound);
    expect((await ask('Why?', bob, conversationId)).statusCode).toBe(404);
  });

  it('refuses an empty or over-long message with a clear 400', async () => {
    const empty = await ask('   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toBe(ChatMessages.empty);
    const long = await ask('x'.repeat(4001));
    expect(long.statusCode).toBe(400);
    expect(long.json<{ message: string }>().message).toBe(ChatMessages.tooLong);
  });

  it('clears a conversation', async () => {
    const id = (await ask('What could the analysis not see?')).json<ChatResponse>().conversationId;
    const del = await app.inject({ method: 'DELETE', url: `${base()}/${id}`, headers: bearer(alice) });
    expect(del.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `${base()}/${id}`, headers: bearer(alice) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `${base()}/${id}`, headers: bearer(alice) })).statusCode).toBe(404);
  });

  it('answers the chat failure message and stores nothing when the knowledge base cannot be read', async () => {
    const before = (await app.inject({ method: 'GET', url: base(), headers: bearer(alice) })).json<ChatConversationList>().items.length;
    failKnowledge = true;
    try {
      const res = await ask('Why is this gene first?', alice, undefined, app2);
      expect(res.statusCode).toBe(503);
      expect(res.json<{ message: string }>().message).toBe(Messages.chatFailure);
    } finally {
      failKnowledge = false;
    }
    const after = (await app.inject({ method: 'GET', url: base(), headers: bearer(alice) })).json<ChatConversationList>().items.length;
    expect(after).toBe(before);
  });

  it('uses a language model’s prose when it names only the evidence, and rejects a hallucinated gene', async () => {
    llmReplies.push(`${topGene.symbol} is the most likely candidate for this patient.`);
    const good = await ask('Why is this gene first?', alice, undefined, app2);
    expect(good.statusCode).toBe(200);
    expect(good.json<ChatResponse>().answer.text).toBe(`${topGene.symbol} is the most likely candidate for this patient.`);
    const hallucinated = topGene.symbol === 'BRCA1' ? 'TP53' : 'BRCA1';
    llmReplies.push(`The cause is ${hallucinated}.`);
    const bad = await ask('Why is this gene first?', alice, undefined, app2);
    expect(bad.statusCode).toBe(200);
    const text = bad.json<ChatResponse>().answer.text;
    expect(text).not.toContain(hallucinated);
    expect(text).toContain(`The most likely candidate is ${topGene.symbol}`);
  });

  it('limits questions per user', async () => {
    // app2 allows 6 a minute; the two tests above used 3.
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await ask('What could the analysis not see?', alice, undefined, app2)).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    // Another user has their own allowance.
    expect((await ask('What could the analysis not see?', bob, undefined, app2)).statusCode).toBe(200);
  });
});
