/**
 * /api/products/:id/chat: ask (JSON, or server-sent events when the request accepts
 * text/event-stream), list, read and delete conversations. Every route requires a session; a
 * case the caller cannot read answers 404; questions are rate limited per user.
 */
import { PassThrough } from 'node:stream';
import {
  ChatConversation,
  ChatConversationList,
  ChatDeleteResponse,
  ChatRequestBody,
  ChatResponse,
  ChatStreamEvent,
  ErrorBody,
} from '@rarelens/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Errors } from '../../errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { ChatService } from './chat.service.ts';

const IdParams = z.object({ id: z.string() });
const ConversationParams = IdParams.extend({ conversationId: z.uuid({ error: 'Must be a conversation id' }) });

export interface ChatRoutesOptions {
  chatService: ChatService;
  rateLimitPerMinute: number;
}

/** One server-sent event. */
function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The answer text in pieces of a few words, as the `delta` events carry it. */
export function answerPieces(text: string, wordsPerPiece = 4): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerPiece) out.push(words.slice(i, i + wordsPerPiece).join(''));
  return out;
}

const wantsStream = (request: FastifyRequest) => /\btext\/event-stream\b/.test(request.headers.accept ?? '');

export const chatRoutes: FastifyPluginCallbackZod<ChatRoutesOptions> = (app, opts, done) => {
  const service = opts.chatService;
  app.addHook('onRequest', app.authenticate);
  const limiter = app.createRateLimit({ max: opts.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (request) => `chat:${currentUser(request).id}` });
  const perUser = async (request: FastifyRequest): Promise<void> => {
    const verdict = await limiter(request);
    if (!verdict.isAllowed && verdict.isExceeded) throw Errors.rateLimited();
  };

  app.post(
    '/:id/chat',
    { preHandler: perUser, schema: { params: IdParams, body: ChatRequestBody, response: { 200: ChatResponse, 400: ErrorBody, 404: ErrorBody } } },
    async (request, reply) => {
      // The answer is complete (and checked, when a model wrote it) before anything is sent,
      // so every failure is an ordinary error response; the stream then carries it in pieces.
      const result = await service.ask(currentUser(request), request.params.id, request.body);
      if (!wantsStream(request)) return result;
      const stream = new PassThrough();
      void reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        // A stream is piped as it is (never serialised); the schema types only the JSON answer.
        .send(stream as unknown as ChatResponse);
      stream.write(sse(ChatStreamEvent.conversation, { conversationId: result.conversationId }));
      for (const piece of answerPieces(result.answer.text)) stream.write(sse(ChatStreamEvent.delta, { text: piece }));
      stream.end(sse(ChatStreamEvent.done, result));
      return reply;
    },
  );
  app.get(
    '/:id/chat',
    { schema: { params: IdParams, response: { 200: ChatConversationList, 404: ErrorBody } } },
    (request) => service.list(currentUser(request), request.params.id),
  );
  app.get(
    '/:id/chat/:conversationId',
    { schema: { params: ConversationParams, response: { 200: ChatConversation, 400: ErrorBody, 404: ErrorBody } } },
    (request) => service.get(currentUser(request), request.params.id, request.params.conversationId),
  );
  app.delete(
    '/:id/chat/:conversationId',
    { schema: { params: ConversationParams, response: { 200: ChatDeleteResponse, 400: ErrorBody, 404: ErrorBody } } },
    (request) => service.remove(currentUser(request), request.params.id, request.params.conversationId),
  );
  done();
};
