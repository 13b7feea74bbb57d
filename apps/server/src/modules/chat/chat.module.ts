/** GenomeTalks as one Fastify plugin under /api/products (registered from app.ts). */
import { llmConfigFromEnv } from '@rarelens/phenome';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { Config } from '../../env.ts';
import type { CaseAccess } from '../cases/cases.service.ts';
import { createChatKnowledgeSource, type ChatKnowledgeSource } from './chat.knowledge.ts';
import { chatRoutes } from './chat.routes.ts';
import { createChatService } from './chat.service.ts';

export interface ChatModuleOptions {
  config: Config;
  database: Database;
  access: CaseAccess;
  env?: NodeJS.ProcessEnv;
  /** Replaces the knowledge base (tests of the failure path). */
  knowledge?: ChatKnowledgeSource;
  /** Replaces fetch for the language model (never needed outside tests). */
  fetch?: typeof fetch;
}

export async function registerChatModule(app: FastifyInstance, opts: ChatModuleOptions): Promise<void> {
  const chatService = createChatService({
    database: opts.database,
    access: opts.access,
    knowledge: opts.knowledge ?? createChatKnowledgeSource(opts.config.kbDir),
    llm: llmConfigFromEnv(opts.env ?? process.env),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    log: app.log,
  });
  await app.register(chatRoutes, { prefix: '/api/products', chatService, rateLimitPerMinute: opts.config.chatRateLimitPerMinute });
}
