/** GenomeTalks as one Fastify plugin under /api/products (registered from app.ts). */
import type { HpoKb } from '@rarelens/engine';
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
  /** The HPO part of the app's knowledge base, shared instead of read a second time. */
  hpo?: () => Promise<HpoKb | null>;
  /**
   * Load the knowledge when the server is ready, so the first question does not wait for it
   * (default: on, except under NODE_ENV=test where most apps never answer a question).
   */
  warm?: boolean;
  /** Replaces fetch for the language model (never needed outside tests). */
  fetch?: typeof fetch;
}

export async function registerChatModule(app: FastifyInstance, opts: ChatModuleOptions): Promise<void> {
  const chatService = createChatService({
    database: opts.database,
    access: opts.access,
    knowledge: opts.knowledge ?? createChatKnowledgeSource(opts.config.kbDir, opts.hpo),
    llm: llmConfigFromEnv(opts.env ?? process.env),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    log: app.log,
  });
  if (opts.warm ?? opts.config.nodeEnv !== 'test') {
    // Not awaited: the server serves while the knowledge loads; a question meanwhile waits for the same load.
    app.addHook('onReady', (done) => {
      const started = performance.now();
      void chatService.warm().then((ok) => {
        if (ok) app.log.info({ ms: Math.round(performance.now() - started) }, 'GenomeTalks knowledge loaded');
      });
      done();
    });
  }
  await app.register(chatRoutes, { prefix: '/api/products', chatService, rateLimitPerMinute: opts.config.chatRateLimitPerMinute });
}
